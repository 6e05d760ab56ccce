package io.sluice.it.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy in front of a server's port, for tests of an address that changes: {@link
 * #moveTo} moves it to another port, as a virtual IP or DNS name moves to a new primary (every
 * connection through it is closed, and new ones reach the new target); {@link #goAway} makes the
 * port refuse connections, as a database that went away does. A target that refuses closes the
 * client's connection at once, as an address with nothing behind it would.
 */
public final class LoopbackProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int target;

    /**
     * Holds the port once the proxy went away, bound but not listening, so connections are refused
     * and no other server (another test JVM's) can take the port meanwhile.
     */
    private Socket reserved;

    public LoopbackProxy(int target) throws IOException {
        this.target = target;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** New connections go to {@code port}; those open now are closed. */
    public void moveTo(int port) {
        target = port;
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                closeQuietly(client); // nothing behind the address
            }
        }
    }

    private static void pipe(Socket from, Socket to) {
        Thread thread =
                new Thread(
                        () -> {
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                in.transferTo(out);
                            } catch (IOException e) {
                                // One side closed.
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        });
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }

    /** Stops forwarding: the port refuses connections from now on. */
    public void goAway() throws IOException {
        if (reserved != null) {
            return;
        }
        int port = listener.getLocalPort();
        listener.close();
        for (Socket socket : sockets) {
            try {
                socket.setSoLinger(true, 0); // Reset: nothing left on the port.
            } catch (IOException e) {
                // Closed already.
            }
            closeQuietly(socket);
        }
        sockets.clear();
        // The kernel may hold the port for a moment after the last connection on it ends.
        for (int attempt = 1; ; attempt++) {
            Socket socket = new Socket();
            socket.setReuseAddress(true);
            try {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                reserved = socket;
                return;
            } catch (BindException e) {
                socket.close();
                if (attempt == 200) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        goAway();
        reserved.close();
    }
}

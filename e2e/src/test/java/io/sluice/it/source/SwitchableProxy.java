package io.sluice.it.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy whose target port can be moved, as a virtual IP or DNS name moves to a new
 * primary: {@link #moveTo} closes every connection through it (the old primary's clients see them
 * end), and new connections reach the new target. A target that refuses closes the client's
 * connection at once, as an address with nothing behind it would.
 */
final class SwitchableProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile int target;

    SwitchableProxy(int target) throws IOException {
        this.target = target;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** New connections go to {@code port}; those open now are closed. */
    void moveTo(int port) {
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

    @Override
    public void close() throws IOException {
        listener.close();
        moveTo(target);
    }
}

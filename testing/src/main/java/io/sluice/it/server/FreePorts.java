package io.sluice.it.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loopback ports for embedded servers. */
public final class FreePorts {

    private static final int START_ATTEMPTS = 3;

    /** Starts a server on {@code port} with {@code workDir} as its folder. */
    @FunctionalInterface
    interface PortStart<S> {
        S start(Path workDir, int port);
    }

    private FreePorts() {}

    /**
     * Starts a server in a fresh {@link ServerDirs} folder on a port that was free a moment ago.
     * Another process can take the port in between: while the failed start's log ({@code logName}
     * in its work dir) says "Address already in use", tries again with a new folder and port, 3
     * times in all. Any other failure is thrown at once.
     */
    static <S> S startOnFreePort(String serverName, String logName, PortStart<S> start) {
        RuntimeException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            Path workDir = ServerDirs.fresh(serverName);
            try {
                return start.start(workDir, next());
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                // Only a lost race for the free port is worth another try.
                if (!mentions(workDir.resolve(logName), "Address already in use")) {
                    break;
                }
            }
        }
        throw failure;
    }

    private static boolean mentions(Path log, String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** A port that was free on 127.0.0.1 a moment ago. */
    public static int next() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        }
    }

    /** {@code count} different ports that were free on 127.0.0.1 a moment ago. */
    public static int[] distinct(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                // Held open together, so the system cannot hand out one port twice.
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    try {
                        socket.close();
                    } catch (IOException e) {
                        // Closing a listening socket that accepted nothing; nothing to do.
                    }
                }
            }
        }
    }

    /** Whether something accepts TCP connections on 127.0.0.1:port. */
    public static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

package io.sluice.it.server;

import io.sluice.it.cluster.BuildOutputs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real Canal 1.1.7 server writing to Kafka ({@code canal.serverMode=kafka}), in a JVM of its own:
 * {@code testing/canal-server}'s launcher ({@code io.sluice.it.canal.server.CanalServerMain}, which
 * says what of Canal runs unchanged and what it wires by hand) on the classpath Maven resolved for
 * it ({@code testing/canal-server/target/canal-server.classpath}), so that Canal's dependencies
 * (Kafka clients 2.4, fastjson2, Spring 5, canal.protocol 1.1.7) never meet Sluice's.
 *
 * <p>Settings are Canal's own keys: {@code canal} for canal.properties, {@code instance} for the
 * instance's instance.properties. Its log is {@code canal.out} in a fresh {@link ServerDirs}
 * folder. The child reads its standard input until it closes, so it stops with this JVM even if
 * {@link #close()} is never called.
 */
public final class CanalServer implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(1);
    private static final String MAIN = "io.sluice.it.canal.server.CanalServerMain";

    private final Process process;
    private final Path log;

    private CanalServer(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a server with these canal.properties and instance.properties, and waits for it. */
    public static CanalServer start(Map<String, String> canal, Map<String, String> instance) {
        Path dir = ServerDirs.fresh("canal");
        Path canalFile = write(dir.resolve("canal.properties"), canal);
        Path instanceFile = write(dir.resolve("instance.properties"), instance);
        Path log = dir.resolve("canal.out");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-Duser.timezone=" + MariaDbServer.TIME_ZONE);
        command.add("-Dfile.encoding=UTF-8");
        command.add("-classpath");
        command.add(classpath());
        command.add(MAIN);
        command.add(canalFile.toString());
        command.add(instanceFile.toString());
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .directory(dir.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the Canal server", e);
        }
        CanalServer server = new CanalServer(process, log);
        server.awaitRunning();
        return server;
    }

    /** The server's console log. */
    public Path log() {
        return log;
    }

    private void awaitRunning() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "The Canal server exited with " + process.exitValue() + "; see " + log);
            }
            if (logContains("sluice-canal-server: running")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException(
                        "The Canal server did not start within " + READY_TIMEOUT + "; see " + log);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IllegalStateException("Interrupted while the Canal server started", e);
            }
        }
    }

    /** Whether the server's log has this text (an error Canal logged and went on from, say). */
    public boolean logContains(String text) {
        try {
            return Files.isRegularFile(log)
                    && Files.readString(log, StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close(); // The child stops at the end of its input.
        } catch (IOException ignored) {
            // Then it is gone already.
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String classpath() {
        Path module = BuildOutputs.root().resolve("testing/canal-server/target");
        Path file = module.resolve("canal-server.classpath");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    file + " is missing: build it with 'mvn -B package -pl testing/canal-server'");
        }
        try {
            return module.resolve("classes")
                    + java.io.File.pathSeparator
                    + Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private static Path write(Path file, Map<String, String> settings) {
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(out, "Canal server for a Sluice test");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
        return file;
    }
}

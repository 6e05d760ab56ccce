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
 * Debezium 3.6.1's embedded engine with Kafka Connect's JsonConverter, in a JVM of its own: {@code
 * testing/debezium-engine}'s launcher ({@code io.sluice.it.debezium.engine.DebeziumEngineMain}) on
 * the classpath Maven resolved for it ({@code
 * testing/debezium-engine/target/debezium-engine.classpath}), so that Debezium 3 never meets the
 * Debezium 1.9 inside Flink CDC.
 *
 * <p>Settings are Debezium's own keys. Each record the engine delivers is one line of {@link
 * #records()}: {@code topic TAB key TAB value}, {@code null} for a null key or value. Its log is
 * {@code debezium.out} in a fresh {@link ServerDirs} folder. The child reads its standard input
 * until it closes, so it stops with this JVM even if {@link #close()} is never called.
 */
public final class DebeziumEngineProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(1);
    private static final String MAIN = "io.sluice.it.debezium.engine.DebeziumEngineMain";

    private final Process process;
    private final Path log;
    private final Path records;

    private DebeziumEngineProcess(Process process, Path log, Path records) {
        this.process = process;
        this.log = log;
        this.records = records;
    }

    /** Starts an engine with these properties, and waits until it runs. */
    public static DebeziumEngineProcess start(Map<String, String> settings) {
        Path dir = ServerDirs.fresh("debezium");
        Path props = dir.resolve("engine.properties");
        Path records = dir.resolve("records.tsv");
        Path log = dir.resolve("debezium.out");
        Properties properties = new Properties();
        properties.putAll(settings);
        try (Writer out = Files.newBufferedWriter(props, StandardCharsets.UTF_8)) {
            properties.store(out, "Debezium engine for a Sluice test");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + props, e);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-Duser.timezone=" + SqlDatabaseServer.TIME_ZONE);
        command.add("-Dfile.encoding=UTF-8");
        command.add("-classpath");
        command.add(classpath());
        command.add(MAIN);
        command.add(props.toString());
        command.add(records.toString());
        Process process;
        try {
            process =
                    new ProcessBuilder(command)
                            .directory(dir.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start the Debezium engine", e);
        }
        DebeziumEngineProcess engine = new DebeziumEngineProcess(process, log, records);
        Waits.until(
                "the Debezium engine to start (see " + log + ")",
                READY_TIMEOUT,
                () -> {
                    if (!process.isAlive()) {
                        throw new Waits.GiveUp(
                                "The Debezium engine exited with "
                                        + process.exitValue()
                                        + "; see "
                                        + log);
                    }
                    return Files.readString(log, StandardCharsets.UTF_8)
                            .contains("sluice-debezium-engine: running");
                });
        return engine;
    }

    /** The console log. */
    public Path log() {
        return log;
    }

    /** Every record delivered so far, one {@code topic TAB key TAB value} line each. */
    public List<String> records() {
        if (!process.isAlive()) {
            throw new Waits.GiveUp(
                    "The Debezium engine exited with " + process.exitValue() + "; see " + log);
        }
        try {
            List<String> lines = new ArrayList<>();
            for (String line : Files.readAllLines(records, StandardCharsets.UTF_8)) {
                if (!line.isEmpty()) {
                    lines.add(line);
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + records, e);
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
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String classpath() {
        Path module = BuildOutputs.root().resolve("testing/debezium-engine/target");
        Path file = module.resolve("debezium-engine.classpath");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    file
                            + " is missing: build it with 'mvn -B package -pl testing/debezium-engine'");
        }
        try {
            return module.resolve("classes")
                    + java.io.File.pathSeparator
                    + Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}

package io.sluice.it.debezium.engine;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Debezium 3's embedded engine, unchanged, with Kafka Connect's {@code JsonConverter} for keys and
 * values ({@code DebeziumEngine.create(Json.class)}), as a Kafka Connect worker would write them.
 * Arguments: the engine's properties file (Debezium's own keys) and an output file. Each record
 * becomes one line, {@code topic TAB key TAB value}, key and value as the converter wrote them, or
 * {@code null} (a tombstone's value, a keyless table's key); the line is flushed at once so a
 * reader sees it. Prints {@code sluice-debezium-engine: running} once the engine runs.
 *
 * <p>It stops when its standard input closes, so it never outlives the JVM that started it.
 */
public final class DebeziumEngineMain {

    private DebeziumEngineMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: DebeziumEngineMain <engine.properties> <records.out>");
            System.exit(2);
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            props.load(in);
        }
        BufferedWriter out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8);
        DebeziumEngine<ChangeEvent<String, String>> engine =
                DebeziumEngine.create(Json.class)
                        .using(props)
                        .notifying(
                                (List<ChangeEvent<String, String>> records,
                                        DebeziumEngine.RecordCommitter<ChangeEvent<String, String>>
                                                committer) -> {
                                    for (ChangeEvent<String, String> record : records) {
                                        write(out, record);
                                        committer.markProcessed(record);
                                    }
                                    flush(out);
                                    committer.markBatchFinished();
                                })
                        .using(
                                (success, message, error) -> {
                                    System.out.println(
                                            "sluice-debezium-engine: stopped, success="
                                                    + success
                                                    + ": "
                                                    + message);
                                    if (error != null) {
                                        error.printStackTrace(System.out);
                                    }
                                })
                        .build();
        ExecutorService executor = Executors.newSingleThreadExecutor();
        executor.execute(engine);
        System.out.println("sluice-debezium-engine: running");
        System.out.flush();
        InputStream stdin = System.in;
        while (stdin.read() >= 0) {
            // Runs until the parent closes our input.
        }
        engine.close();
        executor.shutdown();
        out.close();
        System.exit(0);
    }

    private static void flush(BufferedWriter out) {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(BufferedWriter out, ChangeEvent<String, String> record) {
        try {
            out.write(record.destination());
            out.write('\t');
            out.write(record.key() == null ? "null" : record.key());
            out.write('\t');
            out.write(record.value() == null ? "null" : record.value());
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.DatabaseServer;
import io.sluice.serializers.event.ChangeEvent;

import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@link BinlogReader} run, with statement texts, in a JVM of its own whose default charset is
 * ISO-8859-1 ({@code -Dfile.encoding}): what the reader decodes with the JVM's default instead of
 * the binlog's charset shows as mojibake. It reads with {@link TableSchemas}, so a DDL statement's
 * text makes the schema of the table map's table. The child writes the default charset, each DDL
 * statement of the database and each change (table, columns, after image, statement text) to a
 * file, as UTF-8.
 */
final class ReaderInOtherCharset {

    static final String CHARSET = "ISO-8859-1";

    private ReaderInOtherCharset() {}

    /**
     * Runs the child JVM from {@code start} up to the marker row of {@code database} and returns
     * its lines: the default charset first, then {@code ddl <statement>} and {@code change <text>}.
     */
    static List<String> read(DatabaseServer server, String database, BinlogPosition start)
            throws Exception {
        Path out = Files.createTempFile("reader-" + database, ".txt");
        Path log = Files.createTempFile("reader-" + database, ".log");
        try {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("-Dfile.encoding=" + CHARSET);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(ReaderInOtherCharset.class.getName());
            command.add(server.host());
            command.add(String.valueOf(server.port()));
            command.add(server.cdcUser());
            command.add(server.cdcPassword());
            command.add(database);
            command.add(start.file());
            command.add(String.valueOf(start.position()));
            command.add(start.gtids());
            command.add(out.toString());
            Process child =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            if (!child.waitFor(3, TimeUnit.MINUTES)) {
                child.destroyForcibly().waitFor();
                throw new AssertionError("The reader's JVM did not end; its output: " + text(log));
            }
            if (child.exitValue() != 0) {
                throw new AssertionError(
                        "The reader's JVM exited with "
                                + child.exitValue()
                                + "; its output: "
                                + text(log));
            }
            return Files.readAllLines(out, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(log);
        }
    }

    private static String text(Path log) throws IOException {
        return Files.readString(log, Charset.defaultCharset());
    }

    /** host port user password database file position gtids out */
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String database = args[4];
        BinlogPosition start =
                BinlogPosition.at(args[5], Long.parseLong(args[6])).withGtids(args[7]);
        List<String> lines = new ArrayList<>();
        lines.add(Charset.defaultCharset().name());
        // The schemas at the start, then each DDL statement applied to them as the reader reads
        // it, each table map checked against them (with binlog_row_metadata=FULL, the names too).
        SourceJdbc jdbc = SourceJdbc.of(host, port, args[2], args[3]);
        TableSchemas decoders;
        try (Connection connection = jdbc.connect()) {
            decoders =
                    TableSchemas.read(
                            connection,
                            (db, table) -> db.equals(database),
                            ColumnTypeStyle.of(jdbc),
                            ZoneId.of("UTC"));
        }
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(host, port, args[2], args[3])
                        .serverId(5601)
                        .reconnectAttempts(0, Duration.ofMillis(100))
                        .includeQueries(true)
                        .build(
                                decoders,
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        lines.add(
                                                "change "
                                                        + ChangeText.withColumns(change)
                                                        + " query="
                                                        + change.query());
                                        if (change.table().equals("marker")) {
                                            self.get().close();
                                        }
                                    }

                                    @Override
                                    public void ddl(
                                            String statement, String db, BinlogPosition after) {
                                        if (database.equals(db)) {
                                            lines.add("ddl " + statement);
                                        }
                                    }
                                });
        self.set(reader);
        ReaderRun.untilMarker(reader, start, Duration.ofMinutes(2), lines::toString);
        Files.write(new File(args[8]).toPath(), lines, StandardCharsets.UTF_8);
        System.exit(0);
    }
}

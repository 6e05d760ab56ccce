package io.sluice.it.canal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.cluster.BuildOutputs;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.CanalServer;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.SqlScript;
import io.sluice.job.canal.DeliberateDifference;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Canal 1.1.7 server ({@link CanalServer}) and Sluice capture the same binlog from the same
 * position, on MariaDB and on MySQL 8.0, each in both formats, into topics of 3 partitions hashed
 * by primary key with the same rule; one workload ({@code canal/side_by_side.sql}: every type of
 * value-rendering.md, NULLs, multi-row statements, a primary-key change, table and database DDL, a
 * latin1 table, 4-byte UTF-8, every spatial type with values with and without an SRID; on MySQL
 * also XA transactions, {@code canal/side_by_side_xa.sql}, and binary JSON of every shape, {@code
 * canal/side_by_side_json.sql}; on MariaDB also UUID, INET4 and INET6, {@code
 * canal/side_by_side_mariadb.sql}). Each side's messages are decoded with Canal's own consumer
 * classes and compared row by row, field by field. A difference passes only as one of the rows of
 * docs/canal-compatibility.md's "Where Sluice differs from Canal, on purpose" table, read from the
 * doc at run time; anything else fails with the field, both values and the statement.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CanalSideBySideITCase {

    /**
     * Canal's parser reads the binlog file from its start to find where to begin, and stops at
     * events it cannot decode: other tests' events (MariaDB status variables Canal 1.1.7 does not
     * know) must not be in that file.
     */
    @RegisterExtension
    static final DatabaseServersExtension SERVERS =
            DatabaseServersExtension.own(
                    "Canal reads the binlog file from its start", new String[0], new String[0]);

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String MARKER = "424242";
    private static final String DOC_TABLE = "## Where Sluice differs from Canal, on purpose";

    /** Each server's capture, by format; made by the first test on that server. */
    private static final Map<DatabaseServer.Kind, Map<String, Captured>> CAPTURED =
            new EnumMap<>(DatabaseServer.Kind.class);

    /** Both sides' records of one format. */
    private static final class Captured {
        List<ConsumerRecord<byte[], byte[]>> canal;
        List<ConsumerRecord<byte[], byte[]>> sluice;
    }

    /** The server's capture of {@code format}, made on first use (both formats at once). */
    private static synchronized Captured captured(DatabaseServer.Kind kind, String format)
            throws Exception {
        if (!CAPTURED.containsKey(kind)) {
            List<AutoCloseable> running = new ArrayList<>();
            try {
                CAPTURED.put(kind, bothCaptureTheWorkload(SERVERS.server(kind), running));
            } finally {
                for (AutoCloseable r : running) {
                    r.close();
                }
            }
        }
        return CAPTURED.get(kind).get(format);
    }

    private static Map<String, Captured> bothCaptureTheWorkload(
            DatabaseServer server, List<AutoCloseable> running) throws Exception {
        // The window starts before the database exists: its CREATE DATABASE is captured too.
        String[] start = server.binlogEnd();
        String database = server.createDatabase("sbs", null);
        // Sluice's job starts after this: its 'tables' must match a table then (both sides also
        // capture this CREATE TABLE, in the window).
        server.execute(database, "CREATE TABLE placeholder (id INT NOT NULL, PRIMARY KEY (id))");
        String tables = database + "x?\\..*";
        String hash = database + "\\..*:$pk$";
        List<CompletableFuture<CanalServer>> canals = new ArrayList<>();
        for (String format : List.of("flat", "binary")) {
            String canalTopic = "canal-" + format + "-" + database;
            KAFKA.server().createTopic(canalTopic, PARTITIONS);
            KAFKA.server().createTopic("sluice-" + format + "-" + database, PARTITIONS);
            Map<String, String> canal = new LinkedHashMap<>();
            canal.put("canal.destinations", format);
            canal.put("canal.serverMode", "kafka");
            canal.put("kafka.bootstrap.servers", KAFKA.server().bootstrapServers());
            canal.put("canal.mq.flatMessage", String.valueOf(format.equals("flat")));
            canal.put("canal.mq.canalBatchSize", "50");
            canal.put("canal.mq.canalGetTimeout", "100");
            // Sluice writes no transaction entries (canal-compatibility.md, "Binary layout").
            canal.put("canal.instance.filter.transaction.entry", "true");
            Map<String, String> instance = new LinkedHashMap<>();
            instance.put("canal.instance.master.address", server.host() + ":" + server.port());
            instance.put("canal.instance.master.journal.name", start[0]);
            instance.put("canal.instance.master.position", start[1]);
            instance.put("canal.instance.dbUsername", server.cdcUser());
            instance.put("canal.instance.dbPassword", server.cdcPassword());
            instance.put("canal.instance.connectionCharset", "UTF-8");
            instance.put("canal.instance.mysql.slaveId", format.equals("flat") ? "7001" : "7002");
            instance.put("canal.instance.filter.regex", tables);
            instance.put("canal.mq.topic", canalTopic);
            instance.put("canal.mq.partitionsNum", String.valueOf(PARTITIONS));
            instance.put("canal.mq.partitionHash", hash);
            canals.add(CompletableFuture.supplyAsync(() -> CanalServer.start(canal, instance)));
        }
        for (CompletableFuture<CanalServer> canal : canals) {
            running.add(canal.get(2, TimeUnit.MINUTES));
        }
        for (String format : List.of("flat", "binary")) {
            String topic = "sluice-" + format + "-" + database;
            Configuration config =
                    EmbeddedJobs.config(
                            server,
                            KAFKA.server(),
                            tables,
                            topic,
                            "format=canal-" + format,
                            "job.checkpoint-interval=500ms",
                            "route.partition-hash=" + hash,
                            "source.startup.mode=binlog-position",
                            "source.startup.binlog-file=" + start[0],
                            "source.startup.binlog-position=" + start[1]);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(2);
            JobClient job = EmbeddedJobs.start(env, config, "side-by-side-" + format);
            running.add(() -> job.cancel().get(1, TimeUnit.MINUTES));
        }
        List<String> workload = new ArrayList<>(SqlScript.statements("canal/side_by_side.sql"));
        if (server.kind() == DatabaseServer.Kind.MYSQL) {
            workload.addAll(SqlScript.statements("canal/side_by_side_xa.sql"));
            workload.addAll(SqlScript.statements("canal/side_by_side_json.sql"));
        } else {
            workload.addAll(SqlScript.statements("canal/side_by_side_mariadb.sql"));
        }
        // The end: both sides have everything once they have this row.
        workload.add("CREATE TABLE done_marker (id INT NOT NULL, PRIMARY KEY (id))");
        workload.add("INSERT INTO done_marker VALUES (" + MARKER + ")");
        server.execute(
                database,
                workload.stream().map(s -> s.replace("${db}", database)).toArray(String[]::new));
        // The four topics at once: each drain ends with a quiet period of its own.
        ExecutorService drains = Executors.newFixedThreadPool(4);
        try {
            Map<String, Future<List<ConsumerRecord<byte[], byte[]>>>> read = new LinkedHashMap<>();
            for (String format : List.of("flat", "binary")) {
                for (String side : List.of("canal", "sluice")) {
                    String topic = side + "-" + format + "-" + database;
                    read.put(topic, drains.submit(() -> drainToMarker(topic)));
                }
            }
            Map<String, Captured> byFormat = new LinkedHashMap<>();
            for (String format : List.of("flat", "binary")) {
                Captured captured = new Captured();
                captured.canal = result(read.get("canal-" + format + "-" + database));
                captured.sluice = result(read.get("sluice-" + format + "-" + database));
                byFormat.put(format, captured);
            }
            return byFormat;
        } finally {
            drains.shutdownNow();
        }
    }

    /** A drain's records, or the drain's own assertion failure. */
    private static <T> T result(Future<T> future) throws Exception {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error) {
                throw (Error) e.getCause();
            }
            throw e;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void flatMessagesDifferOnlyAsDocumented(DatabaseServer.Kind kind) throws Exception {
        Captured captured = captured(kind, "flat");
        List<SideBySideRow> canal = new ArrayList<>();
        List<SideBySideRow> sluice = new ArrayList<>();
        captured.canal.forEach(r -> canal.addAll(SideBySideRow.flat(r)));
        captured.sluice.forEach(r -> sluice.addAll(SideBySideRow.flat(r)));
        judge(kind + " flat", canal, sluice);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void binaryMessagesDifferOnlyAsDocumented(DatabaseServer.Kind kind) throws Exception {
        Captured captured = captured(kind, "binary");
        List<SideBySideRow> canal = new ArrayList<>();
        List<SideBySideRow> sluice = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : captured.canal) {
            canal.addAll(SideBySideRow.binary(r));
        }
        for (ConsumerRecord<byte[], byte[]> r : captured.sluice) {
            sluice.addAll(SideBySideRow.binary(r));
        }
        judge(kind + " binary", canal, sluice);
    }

    private static void judge(String format, List<SideBySideRow> canal, List<SideBySideRow> sluice)
            throws IOException {
        Set<String> documented = documentedRows();
        // The test's mirror of the table is the table, row for row.
        assertThat(documented)
                .as("the rows of '%s' in docs/canal-compatibility.md", DOC_TABLE)
                .containsExactlyInAnyOrderElementsOf(
                        Arrays.stream(DeliberateDifference.values())
                                .map(d -> d.docRow())
                                .collect(Collectors.toList()));
        SideBySideComparison comparison = SideBySideComparison.compare(canal, sluice);
        assertThat(comparison.pairs).as("%s pairs", format).isGreaterThan(20);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> explained = new LinkedHashMap<>();
        for (SideBySideComparison.Difference d : comparison.differences()) {
            if (d.why != null && documented.contains(d.why.docRow())) {
                explained.merge(d.why.docRow(), 1, Integer::sum);
            } else if (d.why != null) {
                failures.add(
                        d
                                + " (explained by '"
                                + d.why.docRow()
                                + "', which docs/canal-compatibility.md does not list)");
            } else {
                failures.add(d.toString());
            }
        }
        System.out.printf(
                "%s: %d Canal rows, %d Sluice rows, %d pairs; documented differences %s%n",
                format, canal.size(), sluice.size(), comparison.pairs, explained);
        Path report =
                Path.of(System.getProperty("sluice.it.logDir", "target/it-logs"))
                        .resolve("canal-side-by-side-" + format.replace(' ', '-') + ".txt");
        Files.createDirectories(report.getParent());
        Files.write(report, failures, StandardCharsets.UTF_8);
        assertThat(summary(failures))
                .as(
                        "%s: differences between Canal 1.1.7 and Sluice that"
                                + " docs/canal-compatibility.md's table does not list (%d in all,"
                                + " each in %s), by field: count, first examples",
                        format, failures.size(), report.toAbsolutePath())
                .isEmpty();
    }

    /** The failures grouped by field (a column's name as *): count and two examples each. */
    private static List<String> summary(List<String> failures) {
        Map<String, List<String>> byField = new LinkedHashMap<>();
        for (String failure : failures) {
            String field = failure.substring(0, failure.indexOf(':'));
            String[] parts = field.split("\\.");
            String group = field;
            if (Set.of("data", "old", "sqlType", "mysqlType").contains(parts[0])) {
                group = parts[0] + ".*";
            } else if (parts.length == 3 && Set.of("after", "before").contains(parts[0])) {
                group = parts[0] + ".*." + parts[2];
            }
            byField.computeIfAbsent(group, k -> new ArrayList<>()).add(failure);
        }
        List<String> lines = new ArrayList<>();
        byField.forEach(
                (group, all) ->
                        lines.add(
                                group
                                        + " x"
                                        + all.size()
                                        + ", e.g. "
                                        + String.join(
                                                "\n      ",
                                                all.subList(0, Math.min(2, all.size())))));
        return lines;
    }

    /** The first cells of the doc's deliberate-differences table. */
    private static Set<String> documentedRows() throws IOException {
        List<String> lines =
                Files.readAllLines(
                        BuildOutputs.root().resolve("docs/canal-compatibility.md"),
                        StandardCharsets.UTF_8);
        int at = lines.indexOf(DOC_TABLE);
        assertThat(at).as("the section '%s'", DOC_TABLE).isNotNegative();
        Set<String> rows = new LinkedHashSet<>();
        boolean inTable = false;
        for (String line : lines.subList(at + 1, lines.size())) {
            if (line.startsWith("|")) {
                inTable = true;
                String first = line.split("\\|", -1)[1].trim();
                if (!first.isEmpty() && !first.startsWith("---")) {
                    rows.add(first);
                }
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    /** Reads {@code topic} until the workload's last row is there, then to a quiet end. */
    private static List<ConsumerRecord<byte[], byte[]>> drainToMarker(String topic) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<ConsumerRecord<byte[], byte[]>> records =
                    KAFKA.server().drainReadCommitted(topic, Duration.ofSeconds(2));
            boolean done =
                    records.stream()
                            .anyMatch(
                                    r ->
                                            new String(r.value(), StandardCharsets.ISO_8859_1)
                                                    .contains(MARKER));
            if (done) {
                return records;
            }
            assertThat(System.nanoTime())
                    .as(
                            "%s has the workload's last row (it holds %d records)",
                            topic, records.size())
                    .isLessThan(deadline);
        }
    }
}

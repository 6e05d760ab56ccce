package io.sluice.it.pipeline;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * TaskManagers lost one after another while the rows of one large binlog transaction flow, each
 * after a checkpoint committed part of it: one 200,000-row INSERT … SELECT, killed at 0.2, 0.5 and
 * 0.8 of its rows committed, and one transaction of INSERT … SELECTs and UPDATEs (150,000 rows),
 * killed at 0.25 and 0.6. After each kill the job restores on a fresh TaskManager and reads on from
 * its last checkpoint, until the next kill. The first kill must come inside the load; a later kill
 * point first seen with the whole load committed (one checkpoint, or a restore committing its
 * transactions, can hold the rest) ends the kills, and the story says so. MariaDB cuts a
 * statement's rows into rows events of at most {@code binlog_row_event_max_size} (8 KiB), so each
 * load spans over 300 events, and a checkpoint (one per batch of up to 2,048 rows, {@code
 * BinlogBatchRecordEmitter}) nearly always falls inside one. The restored binlog split resumes at
 * the transaction's start and skips the events and rows its offset counts. Flink CDC 3.5.0 compares
 * such offsets without the rows when both carry a GTID set (FLINK-38531), and drops the rest of the
 * event the checkpoint fell in; MariaDB offsets carry no GTID set (Debezium 1.9.8 reads none), so
 * the comparison goes by file, position, events and rows. The same with Sluice's binlog reader
 * ({@code source.reader: sluice}, from a binlog position), whose checkpoint falls wherever a
 * handed-over batch ends. The read_committed drain must hold every row of the load exactly once,
 * each key's changes in order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LargeStatementFailoverITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int STATEMENT_ROWS = 200_000;
    private static final int BLOCKS = 8;
    private static final int BLOCK_ROWS = 10_000;
    private static final int PARTITIONS = 3;

    /** A guard against a job that stopped: far above what a loaded 2-core machine needs. */
    private static final Duration WAIT = Duration.ofMinutes(4);

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    /** The load whose rows flow when the TaskManagers are lost. */
    enum Load {
        /** One INSERT … SELECT of {@link #STATEMENT_ROWS} rows at version 1. */
        STATEMENT(300, 0.2, 0.5, 0.8),
        /**
         * One transaction of {@link #BLOCKS} INSERT … SELECTs of {@link #BLOCK_ROWS} rows at
         * version 1, each after the first followed by an UPDATE of the previous block to version 2.
         */
        TRANSACTION(300, 0.25, 0.6);

        /** Fewer rows events than MariaDB writes for the load. */
        final int rowsEvents;

        /** The shares of the load's rows committed at which a TaskManager is lost, ascending. */
        final double[] kills;

        Load(int rowsEvents, double... kills) {
            this.rowsEvents = rowsEvents;
            this.kills = kills;
        }
    }

    /**
     * Every reader and load on MariaDB; on MySQL (GTIDs on, so every offset carries a GTID set) the
     * statement with each reader: Sluice's resumes at the transaction's GTID set and skips events
     * and rows; Flink CDC's, started with its (empty) snapshot, compares with the snapshot's older
     * GTID set and so by row. Flink CDC's started from a binlog position, without a snapshot, may
     * lose the rest of the rows event a restored checkpoint fell in (FLINK-38531): that case checks
     * the loss is no more than that (in its runs: 232, 592 and 624 rows, after two or three of the
     * three restores), nothing repeated, every key in order.
     */
    static Stream<Arguments> cases() {
        Stream<Arguments> onMariaDb =
                Stream.of(SourceReaderKind.values())
                        .flatMap(
                                reader ->
                                        Stream.of(Load.values())
                                                .map(
                                                        load ->
                                                                Arguments.of(
                                                                        DatabaseServer.Kind.MARIADB,
                                                                        reader,
                                                                        load,
                                                                        defaultStart(reader))));
        Stream<Arguments> onMySql =
                Stream.of(
                        Arguments.of(
                                DatabaseServer.Kind.MYSQL,
                                SourceReaderKind.FLINK_CDC,
                                Load.STATEMENT,
                                "initial"),
                        Arguments.of(
                                DatabaseServer.Kind.MYSQL,
                                SourceReaderKind.SLUICE,
                                Load.STATEMENT,
                                "binlog-position"),
                        Arguments.of(
                                DatabaseServer.Kind.MYSQL,
                                SourceReaderKind.FLINK_CDC,
                                Load.STATEMENT,
                                "binlog-position"));
        return Stream.concat(onMariaDb, onMySql);
    }

    /** Flink CDC's: an empty snapshot, then the binlog phase; Sluice's: from the binlog's end. */
    private static String defaultStart(SourceReaderKind reader) {
        return reader == SourceReaderKind.SLUICE ? "binlog-position" : "initial";
    }

    @ParameterizedTest(
            name = "{0}, {1} reader from {3}, {2}, TaskManagers lost inside it one after another")
    @MethodSource("cases")
    void everyRowOnceAfterFailuresInsideTheTransaction(
            DatabaseServer.Kind kind,
            SourceReaderKind reader,
            Load load,
            String startup,
            @InjectMiniCluster MiniCluster cluster)
            throws Exception {
        boolean flinkCdc38531 =
                kind == DatabaseServer.Kind.MYSQL
                        && reader == SourceReaderKind.FLINK_CDC
                        && startup.equals("binlog-position");
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("bigstmt", "ddl/counters.sql");
        String topic = "bigstmt-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        List<String> want = expected(load);
        int total = want.size();
        int loadRows = total - 1;

        JobClient job = startJob(server, database, topic, reader, startup);
        try (RowCount written = new RowCount(topic, "read_uncommitted");
                RowCount committed = new RowCount(topic, "read_committed")) {
            RunningTasks.awaitAll(cluster, job.getJobID(), WAIT);
            // The marker committed: the binlog split reads and checkpoints commit.
            server.execute(database, "INSERT INTO counters VALUES (0, 0, 'marker')");
            Waits.until("the marker row committed", WAIT, () -> committed.poll() >= 1);

            String[] start = server.binlogEnd();
            run(server, database, load);
            int rowsEvents = rowsEvents(server, start);
            assertThat(rowsEvents)
                    .as("rows events of the %s (from %s:%s)", load, start[0], start[1])
                    .isGreaterThan(load.rowsEvents);

            List<String> kills = new ArrayList<>();
            for (int kill = 0; kill < load.kills.length; kill++) {
                double share = load.kills[kill];
                long deadline = System.nanoTime() + WAIT.toNanos();
                int loadCommitted;
                while ((loadCommitted = committed.current() - 1) < share * loadRows) {
                    written.poll();
                    assertThat(System.nanoTime())
                            .as("%s of the rows committed, after kills %s", share, kills)
                            .isLessThan(deadline);
                }
                int loadWritten = written.poll() - 1;
                if (kill > 0 && loadCommitted >= loadRows) {
                    // One checkpoint (a restore commits the last one's transactions at once) can
                    // hold the rest of the load; then there is nothing left to fail inside.
                    kills.add(String.format("none at %s: all committed", share));
                    break;
                }
                assertThat(loadCommitted)
                        .as(
                                "kill %d at %s comes inside the load: a checkpoint committed part"
                                        + " of it (kills before: %s)",
                                kill + 1, share, kills)
                        .isLessThan(loadRows);
                // The spare the job restores on, started only for a kill: an idle spare left by
                // kills that ended early could take the next case's job, and that case would kill
                // a TaskManager the job does not run on.
                cluster.startTaskManager();
                cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
                liveTaskManager++;
                kills.add(String.format("%d committed, %d+ written", loadCommitted, loadWritten));
                RunningTasks.awaitAll(cluster, job.getJobID(), kill + 1, WAIT);
            }
            String story =
                    String.format(
                            "%s, %s reader, %s of %d rows over %d rows events, TaskManagers lost"
                                    + " at %s of them (written: as far as read, aborted ones too)",
                            kind, reader, load, loadRows, rowsEvents, kills);

            if (flinkCdc38531) {
                // Rows are lost: an end row after the load, committed once all before it are.
                server.execute(database, "INSERT INTO counters VALUES (-1, 0, 'end')");
                try (TopicWatch ends =
                        new TopicWatch(
                                KAFKA.server().bootstrapServers(),
                                topic,
                                "read_committed",
                                KeyKind.INT)) {
                    Waits.until(
                            "the end row committed",
                            WAIT,
                            () ->
                                    ends.poll().rows().stream()
                                            .anyMatch(row -> "-1".equals(row.get("id"))));
                }
                List<Delivered> rows =
                        Delivered.decode(
                                KAFKA.server().drainReadCommitted(topic, Duration.ofSeconds(2)),
                                MessageFormat.CANAL_FLAT);
                rows.removeIf(row -> "-1".equals(row.get("id")));
                int eventRows = (loadRows + rowsEvents - 2) / (rowsEvents - 1);
                verifyLostInOneEventPerRestore(story, database, rows, want, kills, eventRows);
                return;
            }
            // Waiting for the load's rows committed, then a fresh read_committed drain, with its
            // grace period for duplicates.
            // A lost row never comes: then the drain below names what is missing.
            long drainDeadline = System.nanoTime() + WAIT.toNanos();
            while (committed.current() < total && System.nanoTime() < drainDeadline) {
                // Waiting for the restored job to commit the rest.
            }
            List<Delivered> rows =
                    Delivered.decode(
                            KAFKA.server().drainReadCommitted(topic, Duration.ofSeconds(2)),
                            MessageFormat.CANAL_FLAT);
            verify(story, database, rows, want);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /** The load's rows as {@code TYPE id@version}, the marker's first. */
    private static List<String> expected(Load load) {
        List<String> rows = new ArrayList<>();
        rows.add("INSERT 0@0");
        if (load == Load.STATEMENT) {
            for (int id = 1; id <= STATEMENT_ROWS; id++) {
                rows.add("INSERT " + id + "@1");
            }
            return rows;
        }
        for (int block = 0; block < BLOCKS; block++) {
            for (int id = first(block); id < first(block + 1); id++) {
                rows.add("INSERT " + id + "@1");
                if (block < BLOCKS - 1) {
                    rows.add("UPDATE " + id + "@2");
                }
            }
        }
        return rows;
    }

    private static int first(int block) {
        return 1 + block * BLOCK_ROWS;
    }

    private static void run(DatabaseServer server, String database, Load load) throws Exception {
        if (load == Load.STATEMENT && server.kind() == DatabaseServer.Kind.MYSQL) {
            // MySQL has no sequence engine: 1000 × 1000 numbers, in the default recursion depth,
            // inserted in id order, so the binlog's rows come in id order as on MariaDB.
            server.execute(
                    database,
                    "INSERT INTO counters WITH RECURSIVE d (n) AS (SELECT 0 UNION ALL SELECT n +"
                            + " 1 FROM d WHERE n < 999) SELECT a.n * 1000 + b.n + 1, 1, 'bulk'"
                            + " FROM d a, d b WHERE a.n * 1000 + b.n < "
                            + STATEMENT_ROWS
                            + " ORDER BY 1");
            return;
        }
        if (load == Load.STATEMENT) {
            server.execute(
                    database,
                    "INSERT INTO counters SELECT seq, 1, 'bulk' FROM seq_1_to_" + STATEMENT_ROWS);
            return;
        }
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int block = 0; block < BLOCKS; block++) {
                statement.execute(
                        String.format(
                                "INSERT INTO counters SELECT seq, 1, 'tx' FROM seq_%d_to_%d",
                                first(block), first(block + 1) - 1));
                if (block > 0) {
                    statement.execute(
                            String.format(
                                    "UPDATE counters SET version = 2 WHERE id BETWEEN %d AND %d",
                                    first(block - 1), first(block) - 1));
                }
            }
            connection.commit();
        }
    }

    /**
     * FLINK-38531 as the docs tell it: after a restore from a checkpoint inside a rows event, the
     * rest of that event (at most {@code eventRows} rows, one run of ids) may be lost; nothing else
     * is, nothing is repeated, every key in order. Whether a restore loses rows depends on where
     * its checkpoint fell, so a run without loss passes too.
     */
    private static void verifyLostInOneEventPerRestore(
            String story,
            String database,
            List<Delivered> rows,
            List<String> want,
            List<String> kills,
            int eventRows) {
        Outcome outcome = outcome(story, database, rows, want);
        System.out.println("LargeStatementFailoverITCase: " + outcome.report);
        assertThat(outcome.twice).as("rows repeated: %s", outcome.report).isEmpty();
        assertThat(outcome.disorder).as("keys out of order: %s", outcome.report).isEmpty();
        List<int[]> runs = runs(outcome.missing);
        assertThat(runs)
                .as(
                        "Flink CDC's reader from a binlog position on MySQL loses at most the rest of"
                                + " the rows event each restore starts in (FLINK-38531): %s",
                        outcome.report)
                .hasSizeLessThanOrEqualTo((int) kills.stream().filter(k -> k.contains("+")).count())
                .allSatisfy(
                        run ->
                                assertThat(run[1] - run[0] + 1)
                                        .as("rows lost at ids %d-%d", run[0], run[1])
                                        .isLessThanOrEqualTo(eventRows));
    }

    /** Every row exactly once, each key's changes in order, in Canal's partition for its key. */
    private static void verify(
            String story, String database, List<Delivered> rows, List<String> want) {
        Outcome outcome = outcome(story, database, rows, want);
        System.out.println("LargeStatementFailoverITCase: " + outcome.report);
        if (!outcome.missing.isEmpty() || !outcome.twice.isEmpty() || !outcome.disorder.isEmpty()) {
            fail("every row of the load exactly once, in order: " + outcome.report);
        }
    }

    /** Runs of consecutive ids, first and last. */
    private static List<int[]> runs(TreeMap<Integer, String> rows) {
        List<int[]> runs = new ArrayList<>();
        for (int id : rows.keySet()) {
            int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && id == last[1] + 1) {
                last[1] = id;
            } else {
                runs.add(new int[] {id, id});
            }
        }
        return runs;
    }

    /** What a drain delivered against what was wanted. */
    private record Outcome(
            TreeMap<Integer, String> missing,
            TreeMap<Integer, String> twice,
            List<String> disorder,
            String report) {}

    private static Outcome outcome(
            String story, String database, List<Delivered> rows, List<String> want) {
        Map<String, Integer> surplus = new HashMap<>();
        want.forEach(row -> surplus.merge(row, -1, Integer::sum));
        Map<String, Integer> lastVersion = new HashMap<>();
        List<String> disorder = new ArrayList<>();
        for (Delivered row : rows) {
            String id = row.get("id");
            int version = Integer.parseInt(row.get("version"));
            surplus.merge(row.row.type + " " + id + "@" + version, 1, Integer::sum);
            Integer previous = lastVersion.put(id, version);
            if (previous != null && previous >= version) {
                disorder.add(id + ": @" + version + " after @" + previous);
            }
            assertThat(row.partition)
                    .as("Canal's $pk$ partition of %s", row)
                    .isEqualTo(Delivered.canalPartition(database, PARTITIONS, id));
        }
        TreeMap<Integer, String> missing = new TreeMap<>();
        TreeMap<Integer, String> twice = new TreeMap<>();
        surplus.forEach(
                (row, count) -> {
                    int id =
                            Integer.parseInt(row.substring(row.indexOf(' ') + 1, row.indexOf('@')));
                    if (count < 0) {
                        missing.put(id, row);
                    } else if (count > 0) {
                        twice.put(id, row + " ×" + (count + 1));
                    }
                });
        String report =
                String.format(
                        "%s: %d rows delivered of %d; missing %d %s; duplicated %d %s; out of"
                                + " order %d %s",
                        story,
                        rows.size(),
                        want.size(),
                        missing.size(),
                        ranges(missing),
                        twice.size(),
                        ranges(twice),
                        disorder.size(),
                        disorder.stream().limit(5).toList());
        return new Outcome(missing, twice, disorder, report);
    }

    /** The ids of {@code rows} as ranges of consecutive ids, at most ten. */
    private static String ranges(TreeMap<Integer, String> rows) {
        List<String> ranges = new ArrayList<>();
        Integer from = null;
        Integer to = null;
        for (int id : rows.keySet()) {
            if (to != null && id == to + 1) {
                to = id;
                continue;
            }
            if (from != null) {
                ranges.add(from.equals(to) ? "" + from : from + "-" + to);
            }
            from = id;
            to = id;
        }
        if (from != null) {
            ranges.add(from.equals(to) ? "" + from : from + "-" + to);
        }
        return ranges.size() > 10 ? ranges.subList(0, 10) + "…" : ranges.toString();
    }

    /** The rows events written since {@code start} (file, position) in that binlog file. */
    private static int rowsEvents(DatabaseServer server, String[] start) throws Exception {
        int events = 0;
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '" + start[0] + "' FROM " + start[1])) {
            while (result.next()) {
                String type = result.getString("Event_type");
                events += type.startsWith("Write_rows") || type.startsWith("Update_rows") ? 1 : 0;
            }
        }
        return events;
    }

    private static JobClient startJob(
            DatabaseServer server,
            String database,
            String topic,
            SourceReaderKind reader,
            String startup)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        // Commits in steps well below the stretch between two kill points: checkpoints often,
        // and a small producer buffer, so a checkpoint's flush holds what the last interval wrote
        // and not up to 32 MiB of queued rows (a whole load at once).
        List<String> options =
                new ArrayList<>(
                        List.of(
                                "job.checkpoint-interval=100ms",
                                "sink.kafka.properties.batch.size=32768",
                                "sink.kafka.properties.buffer.memory=262144",
                                "parallelism.source=1",
                                "parallelism.encode=2",
                                "parallelism.sink=2",
                                "source.reader=" + reader));
        if (startup.equals("binlog-position")) {
            // From a position taken now, so the marker row is read whenever the reader starts.
            String[] start = server.binlogEnd();
            options.add("source.startup.mode=binlog-position");
            options.add("source.startup.binlog-file=" + start[0]);
            options.add("source.startup.binlog-position=" + start[1]);
        }
        return EmbeddedJobs.start(
                env,
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        options.toArray(new String[0])),
                "large-statement-" + database);
    }

    /**
     * The rows a consumer with one isolation level has read from the topic so far: its records, one
     * per row ({@code group-rows: none}), counted without decoding so the count keeps up.
     */
    private static final class RowCount implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private int rows;

        RowCount(String topic, String isolation) {
            consumer =
                    TopicWatch.fromBeginning(
                            KAFKA.server().bootstrapServers(), topic, isolation, "count");
        }

        /** Reads what arrived, waiting at most 100 ms; the rows read so far. */
        int poll() {
            rows += consumer.poll(Duration.ofMillis(100)).count();
            return rows;
        }

        /**
         * Reads up to the end the topic has now (for read_committed: its last stable offsets), so
         * the count is not one poll's 20,000 records behind; the rows read so far.
         */
        int current() {
            Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
            int read;
            do {
                read = consumer.poll(Duration.ofMillis(100)).count();
                rows += read;
            } while (read > 0
                    && ends.entrySet().stream()
                            .anyMatch(end -> consumer.position(end.getKey()) < end.getValue()));
            return rows;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}

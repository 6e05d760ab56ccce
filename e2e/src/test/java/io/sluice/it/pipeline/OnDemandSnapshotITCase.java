package io.sluice.it.pipeline;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On-demand snapshots of Sluice's binlog reader ({@code source.signal.table}, docs/source.md),
 * through the whole job into Kafka, read back with read_committed, on MariaDB (the condition's case
 * on MySQL too):
 *
 * <ul>
 *   <li>a table snapshotted under live writes (updates, inserts, deletes and primary-key changes
 *       throughout), the TaskManager lost half-way: every binlog change exactly once, at most one
 *       snapshot row per key, each key's changes consistent in its partition (a snapshot row never
 *       older than a change before it), and the rows the topic leaves are the table's;
 *   <li>a snapshot with a condition: exactly the rows that meet it, and the gauges after it, on
 *       MariaDB and MySQL;
 *   <li>a table that appears while the job runs, for each {@code source.new-tables} value;
 *   <li>every type of {@code ddl/all_types.sql}: each snapshot row's text equals the binlog's image
 *       of the same row (the DELETE that follows it).
 * </ul>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OnDemandSnapshotITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.create();

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(3, METRICS.addToConfiguration(new Configuration()));

    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final MessageFormat FORMAT = MessageFormat.CANAL_FLAT;
    private static final String SIGNAL_TABLE =
            "CREATE TABLE sluice_signal (id VARCHAR(64) NOT NULL PRIMARY KEY,"
                    + " type VARCHAR(32) NOT NULL, data VARCHAR(2048))";
    private static final String COUNTERS =
            "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, version INT NOT NULL,"
                    + " note VARCHAR(32))";

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @Test
    void snapshotUnderLiveWritesWithTheTaskManagerLostHalfWay(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("ondemandlive", null);
        int seeds = 3000;
        mariaDb.execute(
                database,
                SIGNAL_TABLE,
                COUNTERS,
                "INSERT INTO t SELECT seq, 0, 'seed' FROM seq_1_to_" + seeds);
        String topic = "ondemandlive-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        JobClient job =
                start(mariaDb, database, "t", topic, "source.snapshot.on-demand.chunk-size=100");
        long seed = System.nanoTime();
        Writer writer = new Writer(mariaDb, database, seeds, seed);
        try {
            RunningTasks.awaitAll(cluster, job.getJobID(), WAIT);
            cluster.startTaskManager(); // stands by, so the restore finds slots at once
            writer.start();
            // SLEEP in the condition paces the chunk queries (100 rows: 0.3 s), so that the
            // failure comes half-way; every row meets it.
            signal(mariaDb, database, "live-1", "t", "SLEEP(0.003) = 0");
            Waits.until(
                    "half of the seed rows' snapshot rows committed",
                    WAIT,
                    () -> seedInserts(drain(topic, 1)) >= seeds / 2);
            int atFailure = seedInserts(drain(topic, 1));
            cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
            liveTaskManager++;
            assertThat(atFailure)
                    .as("the failure comes before the snapshot's end")
                    .isLessThan(seeds - seeds / 10);
            writer.stopAfter(300);
            writer.join();
            Map<Integer, String> table = rows(mariaDb, database);
            AtomicReference<Verdict> verdict = new AtomicReference<>();
            Waits.until(
                    "the topic to reach the table's rows",
                    WAIT,
                    () -> {
                        verdict.set(Verdict.of(drain(topic, 1), writer.expected()));
                        return verdict.get().rows.equals(table);
                    });
            // The proof: a fresh read_committed drain with its grace period for duplicates.
            List<Delivered> delivered = drain(topic, verdict.get().messages);
            Verdict last = Verdict.of(delivered, writer.expected());
            String story =
                    String.format(
                            "seed %d; %d of %d seed rows' snapshot rows committed at the failure;"
                                    + " %d writes; %d messages",
                            seed, atFailure, seeds, writer.writes(), delivered.size());
            last.check(story, table);
            for (int id = 1; id <= seeds; id++) {
                if (!writer.touched(id)) {
                    assertThat(last.snapshotRows.getOrDefault(id, 0))
                            .as("the one snapshot row of the untouched seed row %d (%s)", id, story)
                            .isEqualTo(1);
                }
            }
        } finally {
            writer.stopAfter(0);
            EmbeddedJobs.cancel(job);
        }
    }

    /** On both servers: MySQL's binlog end and GTIDs, MariaDB's. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void snapshotWithAConditionReadsExactlyItsRowsAndReportsThem(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer mariaDb =
                kind == DatabaseServer.Kind.MARIADB ? MARIADB.server() : MYSQL.server();
        String database = mariaDb.createDatabase("ondemandwhere", null);
        mariaDb.execute(
                database,
                SIGNAL_TABLE,
                COUNTERS,
                "INSERT INTO t WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s"
                        + " WHERE n < 40) SELECT n, n * 10, 'seed' FROM s");
        String topic = "ondemandwhere-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        JobClient job =
                start(mariaDb, database, "t", topic, "source.snapshot.on-demand.chunk-size=7");
        try {
            signal(mariaDb, database, "where-1", "t", "id % 4 = 0 AND note = 'seed'");
            List<Delivered> rows = Delivered.drain(KAFKA.server(), topic, FORMAT, 10, WAIT);
            assertThat(
                            rows.stream()
                                    .map(
                                            r ->
                                                    r.row.type
                                                            + " "
                                                            + r.get("id")
                                                            + " "
                                                            + r.get("version")))
                    .containsExactlyInAnyOrderElementsOf(
                            List.of(4, 8, 12, 16, 20, 24, 28, 32, 36, 40).stream()
                                    .map(id -> "INSERT " + id + " " + id * 10)
                                    .collect(Collectors.toList()));
            JobID id = job.getJobID();
            assertThat(gauge(id, "onDemandSnapshotRowsRead")).as("rows read").isEqualTo(10L);
            assertThat(gauge(id, "onDemandSnapshotChunksLeft")).as("chunks left").isEqualTo(0L);
            assertThat(gauge(id, "onDemandSnapshotTable")).as("table being read").isEqualTo("");
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * A table renamed into a captured name while the job runs (its rows were never in the binlog
     * under that name) and a table created: snapshot reads the renamed table's rows and streams
     * both; stream-only streams both from their DDL on; ignore leaves both out.
     */
    @ParameterizedTest(name = "source.new-tables={0}")
    @ValueSource(strings = {"snapshot", "stream-only", "ignore"})
    void aTableThatAppearsWhileTheJobRuns(String newTables) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("ondemandnew", null);
        mariaDb.execute(database, "CREATE TABLE t_old (id INT NOT NULL PRIMARY KEY, note TEXT)");
        String topic = "ondemandnew-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        JobClient job = start(mariaDb, database, "t_.*", topic, "source.new-tables=" + newTables);
        try {
            mariaDb.execute(
                    database,
                    "CREATE TABLE staging (id INT NOT NULL PRIMARY KEY, note TEXT)",
                    "INSERT INTO staging VALUES (1, 'before'), (2, 'before')",
                    "RENAME TABLE staging TO t_renamed",
                    "INSERT INTO t_renamed VALUES (3, 'after')",
                    "CREATE TABLE t_created (id INT NOT NULL PRIMARY KEY, note TEXT)",
                    "INSERT INTO t_created VALUES (1, 'after')",
                    // The end marker: a table that existed at the start.
                    "INSERT INTO t_old VALUES (1, 'end')");
            Set<String> seen = new HashSet<>();
            Waits.until(
                    "the end marker",
                    WAIT,
                    () -> {
                        seen.clear();
                        for (Delivered row :
                                Delivered.decode(
                                        KAFKA.server()
                                                .drainReadCommitted(topic, Duration.ofSeconds(2)),
                                        FORMAT)) {
                            if (!row.row.ddl) {
                                seen.add(row.row.table + " " + row.row.type + " " + row.get("id"));
                            }
                        }
                        return seen.contains("t_old INSERT 1");
                    });
            Set<String> expected = new HashSet<>(List.of("t_old INSERT 1"));
            if (!newTables.equals("ignore")) {
                expected.addAll(List.of("t_renamed INSERT 3", "t_created INSERT 1"));
            }
            if (newTables.equals("snapshot")) {
                // Read by the snapshot queued at the RENAME; the snapshot of t_created may come
                // after the end marker, t_renamed's rows 1 and 2 exist only through it.
                expected.addAll(List.of("t_renamed INSERT 1", "t_renamed INSERT 2"));
                Waits.until(
                        "the renamed table's snapshot rows",
                        WAIT,
                        () -> {
                            for (Delivered row :
                                    Delivered.decode(
                                            KAFKA.server()
                                                    .drainReadCommitted(
                                                            topic, Duration.ofSeconds(2)),
                                            FORMAT)) {
                                if (!row.row.ddl) {
                                    seen.add(
                                            row.row.table
                                                    + " "
                                                    + row.row.type
                                                    + " "
                                                    + row.get("id"));
                                }
                            }
                            return seen.containsAll(expected);
                        });
            }
            assertThat(seen)
                    .as("rows delivered with new-tables %s", newTables)
                    .containsAll(expected);
            if (!newTables.equals("snapshot")) {
                assertThat(seen).as("no snapshot").doesNotContain("t_renamed INSERT 1");
            }
            if (newTables.equals("ignore")) {
                assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
            }
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * Every row of all_types snapshotted, then deleted: the DELETE's image is the binlog's text of
     * the row the snapshot read, column by column.
     */
    @Test
    void everyTypeReadsAsTheBinlogWritesIt() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("ondemandtypes", "ddl/all_types.sql");
        mariaDb.execute(database, SIGNAL_TABLE);
        String topic = "ondemandtypes-" + database;
        KAFKA.server().createTopic(topic, 1);
        JobClient job = start(mariaDb, database, "all_types", topic);
        try {
            signal(mariaDb, database, "types-1", "all_types", null);
            List<Delivered> snapshot = Delivered.drain(KAFKA.server(), topic, FORMAT, 4, WAIT);
            assertThat(snapshot).hasSize(4);
            mariaDb.execute(database, "DELETE FROM all_types");
            List<Delivered> rows = Delivered.drain(KAFKA.server(), topic, FORMAT, 8, WAIT);
            Map<String, Map<String, String>> read = new TreeMap<>();
            Map<String, Map<String, String>> deleted = new TreeMap<>();
            for (Delivered row : rows) {
                (row.row.type.equals("INSERT") ? read : deleted).put(row.get("id"), row.row.data);
            }
            assertThat(read.keySet()).containsExactly("1", "2", "3", "4");
            assertThat(deleted.keySet()).containsExactly("1", "2", "3", "4");
            SoftAssertions softly = new SoftAssertions();
            for (String id : read.keySet()) {
                for (Map.Entry<String, String> column : deleted.get(id).entrySet()) {
                    softly.assertThat(read.get(id).get(column.getKey()))
                            .as(
                                    "row %s column %s: snapshot text vs the binlog's",
                                    id, column.getKey())
                            .isEqualTo(column.getValue());
                }
                softly.assertThat(read.get(id).keySet()).isEqualTo(deleted.get(id).keySet());
            }
            softly.assertAll();
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    private static JobClient start(
            DatabaseServer mariaDb, String database, String tables, String topic, String... extra)
            throws Exception {
        String[] end = mariaDb.binlogEnd();
        List<String> settings =
                new ArrayList<>(
                        List.of(
                                "job.checkpoint-interval=1s",
                                "source.startup.mode=binlog-position",
                                "source.startup.binlog-file=" + end[0],
                                "source.startup.binlog-position=" + end[1],
                                "source.signal.table=" + database + ".sluice_signal",
                                "parallelism.source=1",
                                "parallelism.encode=2",
                                "parallelism.sink=2"));
        settings.addAll(List.of(extra));
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + "\\." + tables,
                        topic,
                        settings.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        return EmbeddedJobs.start(env, config, "on-demand-" + database);
    }

    /** Debezium's execute-snapshot signal for {@code table}, with a condition or none. */
    private static void signal(
            DatabaseServer mariaDb, String database, String id, String table, String condition)
            throws Exception {
        String data =
                "{\"data-collections\": [\""
                        + database
                        + "."
                        + table
                        + "\"]"
                        + (condition == null
                                ? ""
                                : ", \"additional-condition\": \"" + condition + "\"")
                        + "}";
        try (Connection connection = mariaDb.connect(database);
                java.sql.PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO sluice_signal VALUES (?, 'execute-snapshot', ?)")) {
            insert.setString(1, id);
            insert.setString(2, data);
            insert.executeUpdate();
        }
    }

    private static List<Delivered> drain(String topic, int atLeast) {
        return Delivered.drain(KAFKA.server(), topic, FORMAT, atLeast, Duration.ofSeconds(5));
    }

    /** INSERTs of seed rows (note 'seed', key at most the seeds'), any kind. */
    private static int seedInserts(List<Delivered> rows) {
        Set<String> keys = new HashSet<>();
        for (Delivered row : rows) {
            if (row.row.type.equals("INSERT") && "seed".equals(row.get("note"))) {
                keys.add(row.get("id"));
            }
        }
        return keys.size();
    }

    /** The table now: key to "version/note". */
    private static Map<Integer, String> rows(MariaDbServer mariaDb, String database)
            throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        try (Connection connection = mariaDb.connect(database);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT id, version, note FROM t")) {
            while (result.next()) {
                rows.put(result.getInt(1), result.getInt(2) + "/" + result.getString(3));
            }
        }
        return rows;
    }

    private static Object gauge(JobID job, String name) {
        Map<String, Metric> found = METRICS.findMetrics(job, ".*\\.sluice\\." + name);
        assertThat(found).as("the gauge %s, once per source subtask", name).isNotEmpty();
        // Parallelism 1: one source subtask.
        assertThat(found).hasSize(1);
        return ((Gauge<?>) found.values().iterator().next()).getValue();
    }

    /**
     * What the topic says, walked key by key in partition order: each change must fit the state the
     * key's earlier messages left (an UPDATE's old version, a DELETE's row); an INSERT of a key
     * whose row is known is a snapshot row and must carry that row; an INSERT after the key's
     * DELETE is a stale snapshot row.
     */
    private static final class Verdict {
        final Map<Integer, String> rows = new TreeMap<>();
        final Map<Integer, Integer> snapshotRows = new HashMap<>();
        final List<String> wrong = new ArrayList<>();
        final Map<String, Integer> changes = new HashMap<>();
        final Map<String, Integer> expected;
        final int messages;

        private Verdict(Map<String, Integer> expected, int messages) {
            this.expected = expected;
            this.messages = messages;
        }

        static Verdict of(List<Delivered> delivered, Map<String, Integer> expected) {
            Verdict verdict = new Verdict(expected, delivered.size());
            Set<Integer> deletedKeys = new HashSet<>();
            for (Delivered message : delivered) {
                int id = Integer.parseInt(message.get("id"));
                String row = message.get("version") + "/" + message.get("note");
                String type = message.row.type;
                String known = verdict.rows.get(id);
                switch (type) {
                    case "INSERT":
                        if (known != null) {
                            verdict.snapshotRows.merge(id, 1, Integer::sum);
                            if (!known.equals(row)) {
                                verdict.wrong.add(
                                        "snapshot row " + row + " of " + id + " after " + known);
                            }
                        } else if (deletedKeys.contains(id)) {
                            verdict.wrong.add("INSERT " + row + " of " + id + " after its DELETE");
                        } else {
                            verdict.rows.put(id, row);
                            if (id <= 100_000 && "seed".equals(message.get("note"))) {
                                verdict.snapshotRows.merge(id, 1, Integer::sum);
                            }
                        }
                        verdict.changes.merge(type + " " + id + " " + row, 1, Integer::sum);
                        break;
                    case "UPDATE":
                        String old = message.row.old.get("version");
                        if (known != null && old != null && !known.startsWith(old + "/")) {
                            verdict.wrong.add(
                                    "UPDATE of " + id + " from version " + old + " after " + known);
                        }
                        verdict.rows.put(id, row);
                        verdict.changes.merge(type + " " + id + " " + row, 1, Integer::sum);
                        break;
                    default:
                        if (known != null && !known.equals(row)) {
                            verdict.wrong.add("DELETE of " + id + " " + row + " after " + known);
                        }
                        verdict.rows.remove(id);
                        deletedKeys.add(id);
                        verdict.changes.merge(type + " " + id, 1, Integer::sum);
                }
            }
            return verdict;
        }

        void check(String story, Map<Integer, String> table) {
            assertThat(wrong)
                    .as("changes that do not fit their key's history (%s)", story)
                    .isEmpty();
            snapshotRows.forEach(
                    (id, count) ->
                            assertThat(count)
                                    .as("snapshot rows of key %d (%s)", id, story)
                                    .isLessThanOrEqualTo(1));
            // Every binlog change exactly once; INSERTs beyond them are snapshot rows.
            for (Map.Entry<String, Integer> change : expected.entrySet()) {
                int delivered = changes.getOrDefault(change.getKey(), 0);
                if (change.getKey().startsWith("INSERT")) {
                    assertThat(delivered)
                            .as("%s, once or with its snapshot row (%s)", change.getKey(), story)
                            .isBetween(change.getValue(), change.getValue() + 1);
                } else {
                    assertThat(delivered)
                            .as("%s exactly once (%s)", change.getKey(), story)
                            .isEqualTo(change.getValue());
                }
            }
            for (Map.Entry<String, Integer> change : changes.entrySet()) {
                if (!change.getKey().startsWith("INSERT")) {
                    assertThat(expected)
                            .as("%s was written (%s)", change.getKey(), story)
                            .containsKey(change.getKey());
                }
            }
            assertThat(rows)
                    .as("the rows the topic leaves are the table's (%s)", story)
                    .isEqualTo(table);
        }
    }

    /**
     * Single-row writes on t, one per statement: updates (version + 1), inserts of new keys,
     * deletes and primary-key changes (to a new key, version + 1); what each must deliver is
     * recorded.
     */
    private static final class Writer extends Thread {
        private final MariaDbServer mariaDb;
        private final String database;
        private final Random random;
        private final List<Integer> live = new ArrayList<>();
        private final Map<Integer, Integer> versions = new HashMap<>();
        private final Map<Integer, String> notes = new HashMap<>();
        private final Set<Integer> touched = new HashSet<>();
        private final Map<String, Integer> expected = new HashMap<>();
        private int next = 100_001;
        private int writes;
        private volatile int limit = Integer.MAX_VALUE;
        private volatile Exception failure;

        Writer(MariaDbServer mariaDb, String database, int seeds, long seed) {
            super("on-demand-writer");
            this.mariaDb = mariaDb;
            this.database = database;
            this.random = new Random(seed);
            for (int id = 1; id <= seeds; id++) {
                live.add(id);
                versions.put(id, 0);
                notes.put(id, "seed");
            }
        }

        /** Stops after {@code more} further writes. */
        synchronized void stopAfter(int more) {
            limit = Math.min(limit, writes + more);
        }

        synchronized int writes() {
            return writes;
        }

        synchronized boolean touched(int id) {
            return touched.contains(id);
        }

        synchronized Map<String, Integer> expected() {
            if (failure != null) {
                throw new IllegalStateException("the writer failed", failure);
            }
            return new HashMap<>(expected);
        }

        @Override
        public void run() {
            try (Connection connection = mariaDb.connect(database);
                    Statement statement = connection.createStatement()) {
                while (true) {
                    synchronized (this) {
                        if (writes >= limit) {
                            return;
                        }
                    }
                    write(statement);
                    Thread.sleep(5);
                }
            } catch (Exception e) {
                failure = e;
            }
        }

        private void write(Statement statement) throws Exception {
            int op = random.nextInt(100);
            int index = random.nextInt(live.size());
            int id = live.get(index);
            int version = versions.get(id);
            String note = notes.get(id);
            List<String> records = new ArrayList<>();
            if (op < 55) {
                statement.executeUpdate("UPDATE t SET version = version + 1 WHERE id = " + id);
                versions.put(id, version + 1);
                records.add("UPDATE " + id + " " + (version + 1) + "/" + note);
            } else if (op < 70) {
                int key = next++;
                statement.executeUpdate("INSERT INTO t VALUES (" + key + ", 1, 'live')");
                live.add(key);
                versions.put(key, 1);
                notes.put(key, "live");
                records.add("INSERT " + key + " 1/live");
                id = key;
            } else if (op < 85) {
                statement.executeUpdate("DELETE FROM t WHERE id = " + id);
                live.remove(index);
                records.add("DELETE " + id);
            } else {
                int key = next++;
                statement.executeUpdate(
                        "UPDATE t SET id = " + key + ", version = version + 1 WHERE id = " + id);
                live.set(index, key);
                versions.put(key, version + 1);
                notes.put(key, note);
                records.add("DELETE " + id);
                records.add("INSERT " + key + " " + (version + 1) + "/" + note);
                synchronized (this) {
                    touched.add(key);
                }
            }
            synchronized (this) {
                touched.add(id);
                for (String record : records) {
                    expected.merge(record, 1, Integer::sum);
                }
                writes++;
            }
        }
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A mixed-DML load on a small key space from several connections at once (many updates per key,
 * inserts, deletes, re-inserts, multi-key transactions and multi-row statements), through a
 * 3-partition topic with parallel encoders and sinks, in each of the job's three shapes
 * (docs/pipeline.md): everything chained; Route chained to the source, then the partition owners;
 * Route behind the keyed exchange, where every change of a key must take one path. For every key,
 * the changes consumed from its partition must be exactly its changes in binlog order: nothing
 * lost, repeated or reordered; and the last change per key must be the table's final state in
 * MariaDB.
 *
 * <p>How the binlog order per key is known: every change of a key happens while its row in a side
 * table {@code seq} is locked, and INSERT/UPDATE set {@code version} to that row's next value in
 * the same transaction. So per key, commit (= binlog) order is version order, a DELETE carries the
 * version it deleted, and the client's log of committed changes sorted by version is the expected
 * sequence.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MixedDmlOrderITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int KEYS = 12;
    private static final int CONNECTIONS = 3;
    private static final int TRANSACTIONS_PER_CONNECTION = 200;
    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);

    /** One committed change of one key. */
    private static final class Change {
        final int id;
        final String type;
        final int version;

        Change(int id, String type, int version) {
            this.id = id;
            this.type = type;
            this.version = version;
        }

        String text() {
            return type + "@" + version;
        }
    }

    @ParameterizedTest(name = "source 2, route {0}, encode {1}, sink {2}")
    @CsvSource({"2, 2, 2", "2, 2, 3", "3, 3, 3"})
    void everyKeysChangesArriveCompleteAndInBinlogOrder(int route, int encode, int sink)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("mixed", null);
        mariaDb.execute(
                database,
                "CREATE TABLE counters (id INT NOT NULL PRIMARY KEY, version INT NOT NULL,"
                        + " note VARCHAR(32))",
                "CREATE TABLE seq (id INT NOT NULL PRIMARY KEY, v INT NOT NULL)");
        List<Change> committed = Collections.synchronizedList(new ArrayList<>());
        for (int id = 0; id < KEYS; id++) {
            mariaDb.execute(database, "INSERT INTO seq VALUES (" + id + ", 0)");
            if (id % 2 == 0) {
                mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
                committed.add(new Change(id, "INSERT", 0));
            }
        }
        String topic = "mixed-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);

        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "parallelism.source=2",
                        "parallelism.route=" + route,
                        "parallelism.encode=" + encode,
                        "parallelism.sink=" + sink);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        JobClient job = EmbeddedJobs.start(env, config, "mixed-dml-" + database);
        try {
            int seeded = committed.size();
            assertThat(KAFKA.server().drainReadCommitted(topic, seeded, WAIT))
                    .as("snapshot rows")
                    .hasSize(seeded);

            ExecutorService load = Executors.newFixedThreadPool(CONNECTIONS);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    long seed = 31L * c + 7;
                    runs.add(load.submit(() -> runLoad(mariaDb, database, seed, committed)));
                }
                for (Future<?> run : runs) {
                    run.get(5, TimeUnit.MINUTES);
                }
            } finally {
                load.shutdownNow();
            }

            List<Delivered> rows =
                    Delivered.drain(
                            KAFKA.server(),
                            topic,
                            MessageFormat.CANAL_FLAT,
                            committed.size(),
                            WAIT);

            Map<Integer, List<String>> expected = new TreeMap<>();
            List<Change> ordered = new ArrayList<>(committed);
            // Per key: version order; a DELETE follows the change that wrote its version.
            ordered.sort(
                    Comparator.<Change>comparingInt(ch -> ch.id)
                            .thenComparingInt(ch -> ch.version)
                            .thenComparing(ch -> ch.type.equals("DELETE")));
            for (Change change : ordered) {
                expected.computeIfAbsent(change.id, k -> new ArrayList<>()).add(change.text());
            }

            Map<Integer, List<String>> actual = new TreeMap<>();
            Map<Integer, Integer> partitionOf = new TreeMap<>();
            for (Delivered row : rows) {
                int id = Integer.parseInt(row.get("id"));
                assertThat(row.partition)
                        .as("Canal's $pk$ partition of %s", row)
                        .isEqualTo(Delivered.canalPartition(database, PARTITIONS, row.get("id")));
                assertThat(partitionOf.putIfAbsent(id, row.partition))
                        .as("key %s stays in one partition", id)
                        .isIn(null, row.partition);
                actual.computeIfAbsent(id, k -> new ArrayList<>())
                        .add(row.row.type + "@" + row.get("version"));
            }
            assertThat(new TreeSet<>(partitionOf.values()))
                    .as("keys spread over the partitions")
                    .hasSizeGreaterThan(1);
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            for (Integer id : expected.keySet()) {
                assertThat(actual.get(id))
                        .as("changes of key %s, in its partition's order", id)
                        .containsExactlyElementsOf(expected.get(id));
            }
            assertThat(rows).as("no row beyond the committed changes").hasSize(committed.size());

            Map<Integer, String> finalState = new TreeMap<>();
            try (Connection connection = mariaDb.connect(database);
                    Statement statement = connection.createStatement();
                    ResultSet result =
                            statement.executeQuery("SELECT id, version, note FROM counters")) {
                while (result.next()) {
                    finalState.put(result.getInt(1), result.getInt(2) + "/" + result.getString(3));
                }
            }
            Map<Integer, String> lastDelivered = new TreeMap<>();
            for (Delivered row : rows) {
                int id = Integer.parseInt(row.get("id"));
                if (row.row.type.equals("DELETE")) {
                    lastDelivered.remove(id);
                } else {
                    lastDelivered.put(id, row.get("version") + "/" + row.get("note"));
                }
            }
            assertThat(lastDelivered).as("final state per key").isEqualTo(finalState);
            assertThat(committed.stream().filter(ch -> ch.type.equals("DELETE")).count())
                    .as("the load deleted rows")
                    .isPositive();
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** One connection's transactions; appends each committed transaction's changes. */
    private static Void runLoad(
            MariaDbServer mariaDb, String database, long seed, List<Change> committed)
            throws SQLException {
        Random random = new Random(seed);
        try (Connection connection = mariaDb.connect(database)) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection.setAutoCommit(false);
            for (int t = 0; t < TRANSACTIONS_PER_CONNECTION; ) {
                TreeSet<Integer> keys = new TreeSet<>();
                int size = 1 + random.nextInt(3);
                while (keys.size() < size) {
                    keys.add(random.nextInt(KEYS));
                }
                try {
                    committed.addAll(transaction(connection, keys, random, seed + ":" + t));
                    t++;
                } catch (SQLException e) {
                    // A lock wait or deadlock: the transaction left no trace; try another.
                    connection.rollback();
                }
            }
        }
        return null;
    }

    /** Changes {@code keys} (locked in ascending order) in one transaction and commits. */
    private static List<Change> transaction(
            Connection connection, TreeSet<Integer> keys, Random random, String note)
            throws SQLException {
        List<Change> changes = new ArrayList<>();
        Map<Integer, Integer> present = new TreeMap<>();
        Map<Integer, Integer> versions = new TreeMap<>();
        for (int id : keys) {
            versions.put(id, queryInt(connection, "SELECT v FROM seq WHERE id = ? FOR UPDATE", id));
            Integer version =
                    queryInt(
                            connection, "SELECT version FROM counters WHERE id = ? FOR UPDATE", id);
            if (version != null) {
                present.put(id, version);
            }
        }
        if (present.size() == keys.size() && keys.size() > 1 && random.nextBoolean()) {
            // One multi-row statement over several keys (and partitions).
            String in = keys.toString().replace('[', '(').replace(']', ')');
            update(
                    connection,
                    "UPDATE counters SET version = version + 1, note = ? WHERE id IN " + in,
                    note);
            update(connection, "UPDATE seq SET v = v + 1 WHERE id IN " + in);
            for (int id : keys) {
                changes.add(new Change(id, "UPDATE", versions.get(id) + 1));
            }
        } else {
            for (int id : keys) {
                int next = versions.get(id) + 1;
                Integer version = present.get(id);
                if (version == null) {
                    update(connection, "INSERT INTO counters VALUES (?, ?, ?)", id, next, note);
                    changes.add(new Change(id, "INSERT", next));
                } else if (random.nextInt(5) == 0) {
                    update(connection, "DELETE FROM counters WHERE id = ?", id);
                    changes.add(new Change(id, "DELETE", version));
                    continue;
                } else {
                    update(
                            connection,
                            "UPDATE counters SET version = ?, note = ? WHERE id = ?",
                            next,
                            note,
                            id);
                    changes.add(new Change(id, "UPDATE", next));
                }
                update(connection, "UPDATE seq SET v = ? WHERE id = ?", next, id);
            }
        }
        connection.commit();
        return changes;
    }

    private static Integer queryInt(Connection connection, String sql, int id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, id);
            try (ResultSet result = statement.executeQuery()) {
                return result.next() ? result.getInt(1) : null;
            }
        }
    }

    private static void update(Connection connection, String sql, Object... args)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }
}

package io.sluice.it.sql;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.sink.rocketmq.internal.Position;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.it.server.RocketMqServer;
import io.sluice.it.server.Waits;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sluice.it.sql.SqlJobs.ROWS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code 'connector' = 'sluice-rocketmq'} through {@link io.sluice.job.SluiceSqlRunner} against
 * MariaDB and a real RocketMQ name server and broker: the {@code sql/} example routes each table to
 * its topic, Canal's queue per key, in per-key order; and exactly once across a TaskManager killed
 * while a checkpoint's messages wait in the write-ahead log, then a commit broken half-way.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlRocketMqITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    @RegisterExtension
    static final RocketMqExtension ROCKETMQ =
            RocketMqExtension.own("refuses the broker's sends", RocketMqServer.Settings.DEFAULTS);

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(6, METRICS.addToConfiguration(new Configuration()));

    private static final int QUEUES = 3;
    private static final int ROUNDS = 3;
    private static final int COUNTERS = 20;
    private static final int EO_ROUNDS = 10;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final Duration QUIET = Duration.ofSeconds(3);

    @AfterEach
    void removeFaults() {
        rocketMq().refuseSends(null);
    }

    @Test
    void exampleRoutesEachTableToItsTopicAndQueueInPerKeyOrder() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("sql_rmq", "ddl/shop.sql");
        SqlJobs.seed(mariaDb, database);
        for (String table : SqlJobs.TABLES) {
            rocketMq().createTopic(database + "_" + table, QUEUES);
        }
        Map<String, String> defines = SqlJobs.defines(mariaDb, database);
        defines.put("NAME_SERVER", rocketMq().nameServerAddress());
        JobClient job =
                SqlJobs.start(
                        SqlJobs.example("rocketmq-topic-per-table.sql"),
                        "sql-rocketmq-" + database,
                        defines);
        try {
            for (String table : SqlJobs.TABLES) {
                assertThat(rocketMq().drain(database + "_" + table, ROWS, WAIT))
                        .as("snapshot of %s", table)
                        .hasSizeGreaterThanOrEqualTo(ROWS);
            }
            for (int round = 1; round <= ROUNDS; round++) {
                SqlJobs.updateAll(mariaDb, database, round);
            }
            for (String table : SqlJobs.TABLES) {
                String topic = database + "_" + table;
                rocketMq().drain(topic, ROWS * (ROUNDS + 1), WAIT);
                List<MessageExt> messages = rocketMq().drainAll(topic, QUIET);
                List<String> seen = new ArrayList<>();
                Map<String, Integer> queueOf = new HashMap<>();
                Map<String, Integer> lastVersion = new HashMap<>();
                for (MessageExt message : messages) {
                    assertThat(message.getTags()).isEqualTo(table);
                    for (CanalMessages.Row row :
                            CanalMessages.decode(MessageFormat.CANAL_FLAT, message.getBody())) {
                        String id = row.data.get("id");
                        assertThat(message.getKeys())
                                .isEqualTo(
                                        "[\"" + database + "\",\"" + table + "\",\"" + id + "\"]");
                        seen.add(
                                SqlJobs.change(
                                        table,
                                        row.data,
                                        queueOf,
                                        lastVersion,
                                        message.getQueueId()));
                        String hashed = table.equals("order_items") ? row.data.get("order_id") : id;
                        assertThat(message.getQueueId())
                                .as("%s row %s in Canal's queue", table, id)
                                .isEqualTo(
                                        Math.abs(
                                                (database.hashCode() ^ hashed.hashCode())
                                                        % QUEUES));
                    }
                }
                assertThat(seen)
                        .as("topic of %s", table)
                        .containsExactlyInAnyOrderElementsOf(
                                SqlJobs.expected(table, SqlJobs.allIds(), ROUNDS));
            }
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void exactlyOnceAcrossAKilledTaskManagerAndABrokenCommit(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("sql_rmq_eo", "ddl/counters.sql");
        String[] inserts = new String[COUNTERS];
        for (int id = 0; id < COUNTERS; id++) {
            inserts[id] = "INSERT INTO counters VALUES (" + id + ", 0, 'seed')";
        }
        mariaDb.execute(database, inserts);
        String topic = "eo-" + database;
        rocketMq().createTopic(topic, QUEUES);
        String name = "sql-rmq-eo-" + database;
        // Long checkpoints, so the kill lands while messages wait in the write-ahead log.
        JobClient job = SqlJobs.start(script(), name, defines(database));
        try {
            assertThat(rocketMq().drain(topic, COUNTERS, WAIT))
                    .hasSizeGreaterThanOrEqualTo(COUNTERS);
            AtomicInteger round = new AtomicInteger();
            while (round.get() < EO_ROUNDS / 2) {
                updateAll(database, round.incrementAndGet());
            }
            // Committed: a checkpoint completed after these rounds.
            rocketMq().drain(topic, COUNTERS * (round.get() + 1), WAIT);
            // One more round at a time until one is caught waiting for its checkpoint.
            Waits.until(
                    "messages pending in the write-ahead log",
                    WAIT,
                    () -> {
                        if (pendingMessages(name) > 0) {
                            return true;
                        }
                        updateAll(database, round.incrementAndGet());
                        return false;
                    });
            // Index 0: the cluster's original TaskManager (MiniCluster keeps the list).
            cluster.terminateTaskManager(0).get(1, TimeUnit.MINUTES);
            cluster.startTaskManager();
            // Back and committing new rounds: the restored committables were replayed (Flink
            // commits them before any record flows), so what follows is a commit of its own.
            updateAll(database, round.incrementAndGet());
            assertThat(rocketMq().drain(topic, COUNTERS * (round.get() + 1), WAIT))
                    .hasSizeGreaterThanOrEqualTo(COUNTERS * (round.get() + 1));

            // Then a commit that breaks after its first stored batch: the broker refuses the
            // second batch send of a queue's messages, once.
            AtomicBoolean broken = new AtomicBoolean();
            rocketMq()
                    .refuseSends(
                            send ->
                                    send.topic().equals(topic)
                                            && indexOf(send.messages().get(0)) > 0
                                            && broken.compareAndSet(false, true));
            int last = round.get() + EO_ROUNDS / 2;
            while (round.get() < last) {
                updateAll(database, round.incrementAndGet());
            }
            Waits.until("the commit to break", WAIT, broken::get);
            int rounds = round.get();

            int expected = COUNTERS * (rounds + 1);
            rocketMq().drain(topic, expected, WAIT);
            List<MessageExt> messages = rocketMq().drainAll(topic, QUIET);
            List<String> seen = new ArrayList<>();
            Map<String, Integer> queueOf = new HashMap<>();
            Map<String, Integer> lastVersion = new HashMap<>();
            for (MessageExt message : messages) {
                for (CanalMessages.Row row :
                        CanalMessages.decode(MessageFormat.CANAL_FLAT, message.getBody())) {
                    seen.add(
                            SqlJobs.change(
                                    "counters",
                                    row.data,
                                    queueOf,
                                    lastVersion,
                                    message.getQueueId()));
                }
            }
            List<Integer> ids = new ArrayList<>();
            for (int id = 0; id < COUNTERS; id++) {
                ids.add(id);
            }
            assertThat(seen)
                    .containsExactlyInAnyOrderElementsOf(SqlJobs.expected("counters", ids, rounds));
            // The replay of the broken commit found its first batch there, and skipped it.
            assertThat(committerCount(name, ".sluice.numRecordsAlreadySent")).isPositive();
            assertThat(committerCount(name, ".sluice.numRecordsSendErrors")).isPositive();
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** Source, operators in between and sink at parallelism 2 / 3 / 2. */
    private static String script() {
        return "SET 'parallelism.default' = '3';\n"
                + "SET 'execution.checkpointing.interval' = '4s';\n"
                + "CREATE TABLE binlog (change "
                + ChangeColumn.SQL_TYPE
                + ", `table` STRING METADATA VIRTUAL)\n"
                + "WITH ('connector' = 'sluice-mysql', 'hostname' = '${SOURCE_HOST}',"
                + " 'port' = '${SOURCE_PORT}', 'username' = '${SOURCE_USER}',"
                + " 'password' = '${SOURCE_PASSWORD}', 'tables' = '${DATABASE}.counters',"
                + " 'scan.parallelism' = '2');\n"
                + "CREATE TABLE mq WITH ('connector' = 'sluice-rocketmq',"
                + " 'name-server' = '${NAME_SERVER}', 'producer-group' = '${DATABASE}',"
                + " 'topic' = 'eo-${DATABASE}', 'batch-max-messages' = '4',"
                + " 'sink.parallelism' = '2')\n"
                + "LIKE binlog (EXCLUDING ALL);\n"
                + "INSERT INTO mq SELECT change FROM binlog WHERE `table` = 'counters';\n";
    }

    private static Map<String, String> defines(String database) {
        Map<String, String> defines = SqlJobs.defines(MARIADB.server(), database);
        defines.put("NAME_SERVER", rocketMq().nameServerAddress());
        return defines;
    }

    private static void updateAll(String database, int version) {
        String[] updates = new String[COUNTERS];
        for (int id = 0; id < COUNTERS; id++) {
            updates[id] = "UPDATE counters SET version = " + version + " WHERE id = " + id;
        }
        MARIADB.server().execute(database, updates);
    }

    /** The writers' {@code sluice.pendingMessages} of job {@code name}, summed. */
    private static long pendingMessages(String name) {
        long total = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                METRICS.getMetricsByGroup().entrySet()) {
            for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
                String id = group.getKey().getMetricIdentifier(metric.getKey());
                if (id.contains("." + name + ".")
                        && id.endsWith(".sluice.pendingMessages")
                        && metric.getValue() instanceof Gauge) {
                    Object value = ((Gauge<?>) metric.getValue()).getValue();
                    total += value instanceof Number ? ((Number) value).longValue() : 0;
                }
            }
        }
        return total;
    }

    /** A committer counter of job {@code name}, summed over subtasks and attempts. */
    private static long committerCount(String name, String suffix) {
        long total = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                METRICS.getMetricsByGroup().entrySet()) {
            for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
                String id = group.getKey().getMetricIdentifier(metric.getKey());
                if (id.contains("." + name + ".")
                        && id.endsWith(suffix)
                        && metric.getValue() instanceof Counter) {
                    total += ((Counter) metric.getValue()).getCount();
                }
            }
        }
        return total;
    }

    /** Where a message sits in its queue's part of a committable; -1 without a position. */
    private static int indexOf(Message message) {
        Position position = Position.parse(message.getUserProperty(Position.PROPERTY));
        return position == null ? -1 : position.index();
    }

    private static RocketMqServer rocketMq() {
        return ROCKETMQ.server();
    }
}

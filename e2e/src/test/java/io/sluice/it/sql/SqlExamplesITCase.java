package io.sluice.it.sql;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.job.sql.SqlScriptException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.sql.SqlJobs.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs each {@code sql/} example through {@link io.sluice.job.SluiceSqlRunner} against MariaDB and
 * Kafka: snapshot rows, then rounds of updates; the read_committed drain must hold exactly the
 * changes the example routes, each in its topic (and partition), each row's changes in order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlExamplesITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int ROUNDS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void oneTopicPerTable() throws Exception {
        String database = database("per_table");
        for (String table : SqlJobs.TABLES) {
            kafka().createTopic(database + "_" + table, 2);
        }
        try (AutoCloseable job =
                runWithUpdates(
                        "one-topic-per-table.sql",
                        database,
                        Map.of(
                                database + "_orders", ROWS,
                                database + "_order_items", ROWS,
                                database + "_users", ROWS))) {
            for (String table : SqlJobs.TABLES) {
                List<String> seen =
                        SqlJobs.changesInOrder(
                                kafka().drainReadCommitted(
                                                database + "_" + table, ROWS * (ROUNDS + 1), WAIT));
                assertThat(seen)
                        .as("topic of %s", table)
                        .containsExactlyInAnyOrderElementsOf(
                                SqlJobs.expected(table, SqlJobs.allIds(), ROUNDS));
            }
        }
    }

    @Test
    void dynamicTopic() throws Exception {
        String database = database("dyn_topic");
        kafka().createTopic(database + "_orders", 2);
        kafka().createTopic(database + "_users", 2);
        try (AutoCloseable job =
                runWithUpdates(
                        "dynamic-topic.sql",
                        database,
                        Map.of(database + "_orders", 2 * ROWS, database + "_users", ROWS))) {

            List<String> orders =
                    SqlJobs.changesInOrder(
                            kafka().drainReadCommitted(
                                            database + "_orders", 2 * ROWS * (ROUNDS + 1), WAIT));
            List<String> want = SqlJobs.expected("orders", SqlJobs.allIds(), ROUNDS);
            want.addAll(SqlJobs.expected("order_items", SqlJobs.allIds(), ROUNDS));
            assertThat(orders).containsExactlyInAnyOrderElementsOf(want);
            assertThat(
                            SqlJobs.changesInOrder(
                                    kafka().drainReadCommitted(
                                                    database + "_users",
                                                    ROWS * (ROUNDS + 1),
                                                    WAIT)))
                    .containsExactlyInAnyOrderElementsOf(
                            SqlJobs.expected("users", SqlJobs.allIds(), ROUNDS));
        }
    }

    @Test
    void partitionHashInCanalBinary() throws Exception {
        String database = database("part_hash");
        String topic = database + "_all";
        kafka().createTopic(topic, 3);
        try (AutoCloseable job =
                runWithUpdates("partition-hash.sql", database, Map.of(topic, 3 * ROWS))) {

            List<ConsumerRecord<byte[], byte[]>> records =
                    kafka().drainReadCommitted(topic, 3 * ROWS * (ROUNDS + 1), WAIT);
            List<String> seen = new ArrayList<>();
            Map<String, Integer> partitionOf = new HashMap<>();
            Map<String, Integer> lastVersion = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                for (CanalMessages.Row row :
                        CanalMessages.decode(MessageFormat.CANAL_BINARY, record.value())) {
                    seen.add(
                            SqlJobs.change(
                                    row.table,
                                    row.data,
                                    partitionOf,
                                    lastVersion,
                                    record.partition()));
                    // Canal's hash: database hash XOR each hashed value's text hash, abs(h % n).
                    String hashed =
                            row.table.equals("order_items")
                                    ? row.data.get("order_id")
                                    : row.data.get("id");
                    assertThat(record.partition())
                            .as("%s row %s in Canal's partition", row.table, row.data)
                            .isEqualTo(Math.abs((database.hashCode() ^ hashed.hashCode()) % 3));
                }
            }
            List<String> want = new ArrayList<>();
            for (String table : SqlJobs.TABLES) {
                want.addAll(SqlJobs.expected(table, SqlJobs.allIds(), ROUNDS));
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    @Test
    void filterTablesTypesAndValuesWithOneBinlogReader(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        String database = database("filter");
        kafka().createTopic(database + "_paid_orders", 2);
        kafka().createTopic(database + "_users", 2);
        JobClient job = start("filter.sql", database);
        try {
            List<String> vertices = vertexNames(cluster, job.getJobID());
            assertThat(vertices.stream().filter(name -> name.contains("MySQL CDC source")))
                    .as("both INSERTs read from one CDC source; vertices: %s", vertices)
                    .hasSize(1);
            awaitSnapshot(Map.of(database + "_paid_orders", ROWS / 2, database + "_users", ROWS));
            updates(database);
            // Deletes of paid orders are filtered out too.
            MARIADB.server().execute(database, "DELETE FROM orders WHERE id = 0");
            List<Integer> paid = new ArrayList<>();
            for (int id = 0; id < ROWS; id += 2) {
                paid.add(id);
            }
            assertThat(
                            SqlJobs.changesInOrder(
                                    kafka().drainReadCommitted(
                                                    database + "_paid_orders",
                                                    paid.size() * (ROUNDS + 1),
                                                    WAIT)))
                    .containsExactlyInAnyOrderElementsOf(SqlJobs.expected("orders", paid, ROUNDS));
            assertThat(
                            SqlJobs.changesInOrder(
                                    kafka().drainReadCommitted(
                                                    database + "_users",
                                                    ROWS * (ROUNDS + 1),
                                                    WAIT)))
                    .containsExactlyInAnyOrderElementsOf(
                            SqlJobs.expected("users", SqlJobs.allIds(), ROUNDS));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void twoExactlyOnceKafkaTablesWithTheDefaultPrefixAreRefusedBeforeAnyJobRuns()
            throws Exception {
        String database = database("claims");
        String script =
                SqlJobs.example("one-topic-per-table.sql")
                                .replace(
                                        "    'transactional-id-prefix' = '${DATABASE}-per-table'\n",
                                        "    'partition-counts' = '.*:1'\n")
                        + "CREATE TABLE mq2 LIKE mq;\n"
                        + "INSERT INTO mq2 SELECT change, 'other' FROM cdc.${DATABASE}.changes;\n";
        assertThatThrownBy(
                        () ->
                                SqlJobs.start(
                                        script,
                                        "claims-" + database,
                                        SqlJobs.defines(
                                                MARIADB.server(), KAFKA.server(), database)))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageContaining("collides with that of statement")
                .hasMessageContaining(
                        "INSERT INTO mq2 SELECT change, 'other' FROM cdc." + database + ".changes")
                .hasMessageContaining(
                        "table 'default_catalog.default_database.mq2' has"
                                + " 'transactional-id-prefix' = 'sluice', as table"
                                + " 'default_catalog.default_database.mq' written before does")
                .hasMessageContaining("fence each other's transactions");
    }

    @Test
    void noExampleDeclaresASchemaOrCarriesTheSerializerSnapshot() throws Exception {
        for (String example :
                List.of(
                        "one-topic-per-table.sql",
                        "dynamic-topic.sql",
                        "partition-hash.sql",
                        "filter.sql",
                        "rocketmq-topic-per-table.sql")) {
            assertThat(SqlJobs.example(example))
                    .as(example)
                    .contains("'type' = 'sluice'")
                    .doesNotContain(ChangeColumn.SQL_TYPE)
                    .doesNotContain("RAW(")
                    .doesNotContain("sluice-mysql");
        }
    }

    private static KafkaServer kafka() {
        return KAFKA.server();
    }

    private static String database(String prefix) {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase(prefix, "ddl/shop.sql");
        SqlJobs.seed(mariaDb, database);
        return database;
    }

    private static JobClient start(String example, String database) throws Exception {
        return SqlJobs.start(
                SqlJobs.example(example),
                example + "-" + database,
                SqlJobs.defines(MARIADB.server(), KAFKA.server(), database));
    }

    /**
     * Starts the example, waits until each of {@code snapshotTopics} holds its share of the
     * snapshot, then runs the rounds of updates; the job runs until closed.
     */
    private static AutoCloseable runWithUpdates(
            String example, String database, Map<String, Integer> snapshotTopics) throws Exception {
        JobClient job = start(example, database);
        awaitSnapshot(snapshotTopics);
        updates(database);
        return () -> job.cancel().get(1, TimeUnit.MINUTES);
    }

    private static void awaitSnapshot(Map<String, Integer> rowsByTopic) {
        rowsByTopic.forEach(
                (topic, rows) ->
                        assertThat(kafka().drainReadCommitted(topic, rows, WAIT))
                                .as("snapshot rows in %s", topic)
                                .hasSizeGreaterThanOrEqualTo(rows));
    }

    private static void updates(String database) {
        for (int round = 1; round <= ROUNDS; round++) {
            SqlJobs.updateAll(MARIADB.server(), database, round);
        }
    }

    /** The names of the running job's vertices (each a chain of operators). */
    private static List<String> vertexNames(MiniCluster cluster, JobID job) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cluster.getJobStatus(job).get(1, TimeUnit.MINUTES) != JobStatus.RUNNING) {
            assertThat(System.nanoTime()).as("the job runs").isLessThan(deadline);
            Thread.sleep(100);
        }
        List<String> names = new ArrayList<>();
        for (AccessExecutionJobVertex vertex :
                cluster.getExecutionGraph(job)
                        .get(1, TimeUnit.MINUTES)
                        .getVerticesTopologically()) {
            names.add(vertex.getName());
        }
        return names;
    }
}

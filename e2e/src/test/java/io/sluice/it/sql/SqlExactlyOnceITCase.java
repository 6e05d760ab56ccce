package io.sluice.it.sql;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.Waits;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guarantees of the YAML pipeline, through the SQL door: a TaskManager killed while output is
 * written but not committed, and a stop-with-savepoint then a restore, each followed by a
 * read_committed drain that must hold every change exactly once, each row in Canal's partition for
 * its key, in binlog order. Source, operators in between and sink run at different parallelism.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlExactlyOnceITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(6);

    private static final int ROWS = 20;
    private static final int ROUNDS = 12;
    private static final Duration WAIT = Duration.ofMinutes(3);

    /** A routed topic per database, parallelism 2 / 3 / 2 for source / in between / sink. */
    private static String script(String database, String extra) {
        return "SET 'parallelism.default' = '3';\n"
                + extra
                + "CREATE TABLE binlog (change "
                + ChangeColumn.SQL_TYPE
                + ", `database` STRING METADATA VIRTUAL, `table` STRING METADATA VIRTUAL)\n"
                + "WITH ('connector' = 'sluice-mysql', 'hostname' = '${SOURCE_HOST}',"
                + " 'port' = '${SOURCE_PORT}', 'username' = '${SOURCE_USER}',"
                + " 'password' = '${SOURCE_PASSWORD}', 'tables' = '${DATABASE}.counters',"
                + " 'scan.parallelism' = '2');\n"
                + "CREATE TABLE mq (topic STRING METADATA)\n"
                + "WITH ('connector' = 'sluice-kafka', 'bootstrap-servers' = '${KAFKA}',"
                + " 'transactional-id-prefix' = '${DATABASE}', 'sink.parallelism' = '2')\n"
                + "LIKE binlog (EXCLUDING ALL);\n"
                + "INSERT INTO mq SELECT change, CONCAT('eo-', `database`) FROM binlog"
                + " WHERE `table` = 'counters';\n";
    }

    @Test
    void killedTaskManagerLosesAndDuplicatesNothing(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = seededDatabase("sql_eo");
        String topic = "eo-" + database;
        KAFKA.server().createTopic(topic, 3);
        // Long checkpoints: the kill must land while a transaction is open, not just after a
        // commit.
        JobClient job = start(database, "SET 'execution.checkpointing.interval' = '8s';\n");
        try {
            KAFKA.server().drainReadCommitted(topic, ROWS, WAIT);
            for (int round = 1; round <= ROUNDS; round++) {
                updateAll(mariaDb, database, round);
                if (round == ROUNDS / 2) {
                    KAFKA.server().drainReadCommitted(topic, ROWS * (round + 1), WAIT);
                    updateAll(mariaDb, database, ++round);
                    int written = ROWS * (round + 1);
                    Waits.until(
                            "uncommitted records appear",
                            WAIT,
                            () ->
                                    KAFKA.server()
                                                    .count(
                                                            topic,
                                                            "read_uncommitted",
                                                            Duration.ofMillis(100))
                                            >= written);
                    // Index 0: the cluster's original TaskManager (MiniCluster keeps the list).
                    cluster.terminateTaskManager(0).get(1, TimeUnit.MINUTES);
                    cluster.startTaskManager();
                }
            }
            assertExactlyOnceInOrder(database, topic, ROUNDS);
            assertThat(KAFKA.server().count(topic, "read_uncommitted", Duration.ofSeconds(2)))
                    .as("the failure cut an open transaction: aborted records are in the log")
                    .isGreaterThan(ROWS * (ROUNDS + 1));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void stopWithSavepointThenRestoreContinuesExactlyOnce(@TempDir Path savepoints)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = seededDatabase("sql_sp");
        String topic = "eo-" + database;
        KAFKA.server().createTopic(topic, 3);
        JobClient first = start(database, "SET 'execution.checkpointing.interval' = '2s';\n");
        // The snapshot first: updates made before it is read would be folded into it.
        assertThat(KAFKA.server().drainReadCommitted(topic, ROWS, WAIT)).hasSize(ROWS);
        for (int round = 1; round <= ROUNDS / 2; round++) {
            updateAll(mariaDb, database, round);
        }
        assertThat(KAFKA.server().drainReadCommitted(topic, ROWS * (ROUNDS / 2 + 1), WAIT))
                .as("first run's output, committed")
                .hasSize(ROWS * (ROUNDS / 2 + 1));
        String savepoint =
                first.stopWithSavepoint(
                                false, savepoints.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get(2, TimeUnit.MINUTES);
        // Changes made while no job runs are read from the savepoint's binlog offset.
        for (int round = ROUNDS / 2 + 1; round <= ROUNDS - 2; round++) {
            updateAll(mariaDb, database, round);
        }
        JobClient second =
                start(
                        database,
                        "SET 'execution.checkpointing.interval' = '2s';\n"
                                + "SET 'execution.savepoint.path' = '"
                                + savepoint
                                + "';\n");
        try {
            for (int round = ROUNDS - 1; round <= ROUNDS; round++) {
                updateAll(mariaDb, database, round);
            }
            assertExactlyOnceInOrder(database, topic, ROUNDS);
        } finally {
            second.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void assertExactlyOnceInOrder(String database, String topic, int rounds) {
        int expected = ROWS * (rounds + 1);
        List<ConsumerRecord<byte[], byte[]>> records =
                KAFKA.server().drainReadCommitted(topic, expected, WAIT);
        List<String> seen = new ArrayList<>();
        Map<String, Integer> partitionOf = new HashMap<>();
        Map<String, Integer> lastVersion = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            FlatMessage message = JSON.parseObject(record.value(), FlatMessage.class);
            Map<String, String> row = message.getData().get(0);
            String id = row.get("id");
            seen.add(SqlJobs.change("counters", row, partitionOf, lastVersion, record.partition()));
            assertThat(record.partition())
                    .as("row %s in Canal's partition for its key", id)
                    .isEqualTo(Math.abs((database.hashCode() ^ id.hashCode()) % 3));
        }
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            ids.add(id);
        }
        assertThat(seen)
                .containsExactlyInAnyOrderElementsOf(SqlJobs.expected("counters", ids, rounds));
    }

    private static String seededDatabase(String prefix) {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase(prefix, "ddl/counters.sql");
        String[] inserts = new String[ROWS];
        for (int id = 0; id < ROWS; id++) {
            inserts[id] = "INSERT INTO counters VALUES (" + id + ", 0, 'seed')";
        }
        mariaDb.execute(database, inserts);
        return database;
    }

    private static JobClient start(String database, String extra) {
        return SqlJobs.start(
                script(database, extra),
                "sql-exactly-once-" + database,
                SqlJobs.defines(MARIADB.server(), KAFKA.server(), database));
    }

    private static void updateAll(MariaDbServer mariaDb, String database, int version) {
        String[] updates = new String[ROWS];
        for (int id = 0; id < ROWS; id++) {
            updates[id] = "UPDATE counters SET version = " + version + " WHERE id = " + id;
        }
        mariaDb.execute(database, updates);
    }
}

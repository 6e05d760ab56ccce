package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly once through a real failure: the TaskManager running the job is killed in the binlog
 * phase while output is written but not yet committed, after earlier checkpoints committed, and a
 * new TaskManager takes over from the last checkpoint. The read_committed drain must hold every
 * change exactly once, each row's changes in Canal's partition for its key, in order. In each of
 * the job's three shapes (docs/pipeline.md): everything chained, each source subtask writing; Route
 * chained to the source, then the partition owners; Route behind the keyed exchange.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ExactlyOnceITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int ROWS = 20;
    private static final int ROUNDS = 16;
    private static final Duration WAIT = Duration.ofMinutes(3);

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @ParameterizedTest(name = "source 2, route {0}, encode {1}, sink {2}")
    @CsvSource({"2, 2, 2", "2, 2, 3", "3, 3, 2"})
    void killedTaskManagerInBinlogPhaseLosesAndDuplicatesNothing(
            int route, int encode, int sink, @InjectMiniCluster MiniCluster cluster)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("eo", "ddl/counters.sql");
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
        }
        String topic = "eo-" + database;
        KAFKA.server().createTopic(topic, 3);

        JobClient job = startJob(mariaDb, database, topic, route, encode, sink);
        try {
            // Snapshot rows readable under read_committed: checkpoints have committed.
            KAFKA.server().drainReadCommitted(topic, ROWS, WAIT);
            for (int round = 1; round <= ROUNDS; round++) {
                updateAll(mariaDb, database, round);
                if (round == ROUNDS / 2) {
                    // This round's output committed; the next one written but not yet committed:
                    // that is when the TaskManager dies.
                    KAFKA.server().drainReadCommitted(topic, ROWS * (round + 1), WAIT);
                    updateAll(mariaDb, database, round + 1);
                    round++;
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
                    // The new TaskManager first, so the restore finds slots at once.
                    cluster.startTaskManager();
                    cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
                    liveTaskManager++;
                }
            }

            int expected = ROWS * (ROUNDS + 1);
            List<ConsumerRecord<byte[], byte[]>> records =
                    KAFKA.server().drainReadCommitted(topic, expected, WAIT);

            List<String> seen = new ArrayList<>();
            Map<String, Integer> partitionOf = new HashMap<>();
            Map<String, Integer> lastVersion = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                FlatMessage message = JSON.parseObject(record.value(), FlatMessage.class);
                Map<String, String> row = message.getData().get(0);
                String id = row.get("id");
                int version = Integer.parseInt(row.get("version"));
                seen.add(id + "@" + version);
                assertThat(partitionOf.putIfAbsent(id, record.partition()))
                        .as("row %s stays in one partition", id)
                        .isIn(null, record.partition());
                // Canal's $pk$ partition: database hash XOR key text hash, abs(h % n).
                assertThat(record.partition())
                        .as("row %s in Canal's partition for its key", id)
                        .isEqualTo(Math.abs((database.hashCode() ^ id.hashCode()) % 3));
                Integer previous = lastVersion.put(id, version);
                assertThat(previous == null ? -1 : previous)
                        .as("row %s changes arrive in binlog order", id)
                        .isLessThan(version);
            }
            List<String> want = new ArrayList<>();
            for (int id = 0; id < ROWS; id++) {
                for (int version = 0; version <= ROUNDS; version++) {
                    want.add(id + "@" + version);
                }
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(want);
            // The failure really cut an open transaction: its aborted records are in the log.
            assertThat(KAFKA.server().count(topic, "read_uncommitted", Duration.ofSeconds(2)))
                    .as("records in the log, aborted ones included")
                    .isGreaterThan(expected);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void updateAll(MariaDbServer mariaDb, String database, int version)
            throws Exception {
        String[] updates = new String[ROWS];
        for (int id = 0; id < ROWS; id++) {
            updates[id] = "UPDATE counters SET version = " + version + " WHERE id = " + id;
        }
        mariaDb.execute(database, updates);
    }

    private static JobClient startJob(
            MariaDbServer mariaDb, String database, String topic, int route, int encode, int sink)
            throws Exception {
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=3s",
                        "parallelism.source=2",
                        "parallelism.route=" + route,
                        "parallelism.encode=" + encode,
                        "parallelism.sink=" + sink);
        return EmbeddedJobs.start(
                StreamExecutionEnvironment.getExecutionEnvironment(),
                config,
                "exactly-once-" + database);
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.job.SluiceJob;
import io.sluice.job.config.JobConfigLoader;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole pipeline with {@code sink.type: rocketmq}, exactly once: snapshot and binlog rows from
 * MariaDB reach their Canal-hashed queue in per-key order, tagged with the table and keyed by the
 * primary key, and a mid-stream ALTER reaches every queue once, between the rows before and after
 * it. Failures are injected in {@code RocketMqSinkITCase}; this proves the wiring.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RocketMqPipelineITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(6);

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int KEYS = 20;
    private static final int QUEUES = 3;

    @Test
    void rowsAndStatementsReachEveryQueueInOrder() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("rmq", null);
        List<String> seed = new ArrayList<>();
        seed.add("CREATE TABLE items (id INT PRIMARY KEY, v INT NOT NULL)");
        for (int id = 1; id <= KEYS; id++) {
            seed.add("INSERT INTO items VALUES (" + id + ", 0)");
        }
        mariaDb.execute(database, seed.toArray(String[]::new));
        String topic = "rmq-" + database;
        ROCKETMQ.server().createTopic(topic, QUEUES);

        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "source.hostname=" + mariaDb.host(),
                        "--set", "source.port=" + mariaDb.port(),
                        "--set", "source.username=" + MariaDbServer.CDC_USER,
                        "--set", "source.password=" + MariaDbServer.CDC_PASSWORD,
                        "--set", "source.tables=" + database + ".items",
                        "--set", "route.default-topic=" + topic,
                        "--set", "format=" + MessageFormat.CANAL_FLAT,
                        "--set", "sink.type=rocketmq",
                        "--set",
                                "sink.rocketmq.name-server="
                                        + ROCKETMQ.server().nameServerAddress(),
                        "--set", "sink.rocketmq.producer-group=" + topic,
                        "--set", "job.checkpoint-interval=500ms",
                        "--set", "parallelism.route=2",
                        "--set", "parallelism.encode=2",
                        "--set", "parallelism.sink=2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        SluiceJob.configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config)
                .build(env);
        JobClient job = env.executeAsync("rocketmq-pipeline-" + database);
        try {
            assertThat(ROCKETMQ.server().drain(topic, KEYS, WAIT)).hasSize(KEYS);
            List<String> first = new ArrayList<>();
            for (int id = 1; id <= KEYS; id++) {
                first.add("UPDATE items SET v = 1 WHERE id = " + id);
            }
            mariaDb.execute(database, first.toArray(String[]::new));
            assertThat(ROCKETMQ.server().drain(topic, 2 * KEYS, WAIT)).hasSize(2 * KEYS);

            List<String> second = new ArrayList<>();
            second.add("ALTER TABLE items ADD COLUMN note VARCHAR(8)");
            for (int id = 1; id <= KEYS; id++) {
                second.add("UPDATE items SET v = 2 WHERE id = " + id);
            }
            mariaDb.execute(database, second.toArray(String[]::new));

            int expected = 3 * KEYS + QUEUES;
            List<MessageExt> messages = ROCKETMQ.server().drain(topic, expected, WAIT);
            assertThat(messages).hasSize(expected);

            Map<Integer, List<MessageExt>> byQueue = new TreeMap<>();
            for (MessageExt message : messages) {
                byQueue.computeIfAbsent(message.getQueueId(), q -> new ArrayList<>()).add(message);
            }
            assertThat(byQueue).hasSize(QUEUES);
            for (Map.Entry<Integer, List<MessageExt>> queue : byQueue.entrySet()) {
                assertQueue(database, queue.getKey(), queue.getValue());
            }
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** One queue: the statement once, rows before it without the new column, rows after with it. */
    private static void assertQueue(String database, int queue, List<MessageExt> messages) {
        boolean altered = false;
        Map<String, Integer> lastVersion = new HashMap<>();
        for (MessageExt message : messages) {
            assertThat(message.getTags()).isEqualTo("items");
            List<Row> rows = CanalMessages.decode(MessageFormat.CANAL_FLAT, message.getBody());
            for (Row row : rows) {
                if (row.ddl) {
                    assertThat(altered).as("one ALTER in queue %d", queue).isFalse();
                    altered = true;
                    continue;
                }
                int version = Integer.parseInt(row.data.get("v"));
                assertThat(row.data.containsKey("note"))
                        .as("row %s in queue %d after the ALTER", row.data, queue)
                        .isEqualTo(version == 2);
                assertThat(altered)
                        .as("ALTER before version-2 rows in queue %d", queue)
                        .isEqualTo(version == 2);
                assertThat(message.getKeys())
                        .isEqualTo(
                                "[\"" + database + "\",\"items\",\"" + row.data.get("id") + "\"]");
                Integer previous = lastVersion.put(row.data.get("id"), version);
                assertThat(version)
                        .as("order of key %s", row.data.get("id"))
                        .isEqualTo(previous == null ? 0 : previous + 1);
            }
        }
        assertThat(altered).as("ALTER in queue %d", queue).isTrue();
    }
}

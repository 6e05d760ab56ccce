package io.sluice.it.sink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import io.sluice.functions.encode.LargeMessageException;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.flink.JobMetrics;
import io.sluice.it.server.CommittedMessages;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A 2 MB LONGTEXT row under each large-message policy, on a real Kafka (its default 1 MiB producer
 * and topic limits) and a real RocketMQ (limit lowered to 1 MiB with {@code
 * sink.large-message.max-bytes}; its own is 4 MiB). Without a policy, such a row failed the write,
 * and the job restarted into the same row until its restart strategy gave up. Now {@code fail}
 * stops the job once with an error naming the row; the other policies deliver the row in a form
 * that fits, exactly once, next to the small rows around it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LargeRowITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final int BIG = 2 * 1024 * 1024;
    private static final Duration WAIT = Duration.ofMinutes(2);

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @TempDir Path claims;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kafka", "rocketmq"})
    void failStopsTheJobOnceNamingTableKeySizeAndLimit(
            String broker, @InjectClusterRESTAddress URI rest) throws Exception {
        Target target = seeded(broker, "lr_fail", MessageFormat.CANAL_FLAT);
        JobClient job = start(target);

        Throwable failure =
                catchThrowable(() -> job.getJobExecutionResult().get(2, TimeUnit.MINUTES));
        assertThat(failure).isInstanceOf(ExecutionException.class);
        assertThat(ExceptionUtils.findThrowable(failure, LargeMessageException.class))
                .hasValueSatisfying(
                        e ->
                                assertThat(e.getMessage())
                                        .contains(
                                                "a row of " + target.database + ".docs (key id=2)",
                                                "bytes, above the limit of 1048576 bytes for"
                                                        + " topic '"
                                                        + target.topic,
                                                "Option 'sink.large-message.policy' is 'fail'",
                                                "'key-only', 'claim-check'",
                                                "'dead-letter'"));
        assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                .as("failed once, never restarted")
                .isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "kafka, key-only, canal-flat",
        "kafka, claim-check, canal-binary",
        "kafka, dead-letter, canal-flat",
        "rocketmq, key-only, canal-binary",
        "rocketmq, claim-check, canal-flat",
        "rocketmq, dead-letter, canal-flat"
    })
    void theLargeRowArrivesInAFormThatFits(
            String broker, String policy, String formatName, @InjectClusterRESTAddress URI rest)
            throws Exception {
        MessageFormat format =
                formatName.equals("canal-flat")
                        ? MessageFormat.CANAL_FLAT
                        : MessageFormat.CANAL_BINARY;
        Target target = seeded(broker, "lr_" + policy.replace('-', '_'), format);
        String deadLetters = target.topic + "-dl";
        if (policy.equals("dead-letter")) {
            target.createTopic(deadLetters, Map.of("max.message.bytes", "4194304"));
        }
        JobClient job =
                start(
                        target,
                        "sink.large-message.policy=" + policy,
                        "sink.large-message.claim-check.path=" + claims.toUri(),
                        "sink.large-message.dead-letter.topic=" + deadLetters,
                        // Kafka: the dead-letter topic takes 4 MiB; the others keep the broker's
                        // 1 MiB max.message.bytes, which now limits them.
                        broker.equals("kafka") && policy.equals("dead-letter")
                                ? "sink.properties.max.request.size=4194304"
                                : "job.checkpoint-interval=1s");
        try {
            List<byte[]> values = target.drain(target.topic, policy.equals("dead-letter") ? 1 : 2);
            Map<String, Row> byId = new HashMap<>();
            Map<String, byte[]> valueById = new HashMap<>();
            for (byte[] value : values) {
                for (Row row : CanalMessages.decode(format, value)) {
                    assertThat(byId.put(row.data.get("id"), row)).as("once").isNull();
                    valueById.put(row.data.get("id"), value);
                }
            }
            assertThat(byId.get("1").data).containsEntry("body", "small");
            if (policy.equals("dead-letter")) {
                assertThat(byId).containsOnlyKeys("1");
                List<byte[]> dead = target.drain(deadLetters, 1);
                assertThat(dead).hasSize(1);
                Row full = CanalMessages.decode(format, dead.get(0)).get(0);
                assertThat(full.data.get("id")).isEqualTo("2");
                assertThat(full.data.get("body")).hasSize(BIG);
            } else {
                Row cut = byId.get("2");
                assertThat(cut.data).containsOnlyKeys("id");
                JSONObject marker = marker(format, valueById.get("2"));
                assertThat(marker.getString("policy")).isEqualTo(policy);
                assertThat(marker.getLongValue("size")).isGreaterThan(BIG);
                assertThat(marker.getLongValue("limit")).isEqualTo(1048576);
                if (policy.equals("claim-check")) {
                    Path stored = Paths.get(URI.create(marker.getString("claimCheck")));
                    Row full = CanalMessages.decode(format, Files.readAllBytes(stored)).get(0);
                    assertThat(full.data.get("id")).isEqualTo("2");
                    assertThat(full.data.get("body")).hasSize(BIG);
                } else {
                    assertThat(marker.containsKey("claimCheck")).isFalse();
                }
            }
            String metric = "sluice.policy." + policy + ".oversizedMessages";
            Map<String, Long> sums = new HashMap<>();
            Waits.until(
                    "metric " + metric,
                    WAIT,
                    () -> {
                        sums.putAll(JobMetrics.sums(rest, job.getJobID()));
                        return sums.getOrDefault(metric, 0L) == 1;
                    });
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /**
     * Claim checks through a TaskManager kill while large rows are written but not committed: every
     * row arrives once, and the store holds one object per large row, each the full row, because
     * the replay wrote the same names again.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kafka", "rocketmq"})
    void claimCheckIsExactlyOnceThroughATaskManagerKill(
            String broker, @InjectMiniCluster MiniCluster cluster) throws Exception {
        Target target = seeded(broker, "lr_kill", MessageFormat.CANAL_FLAT);
        JobClient job =
                start(
                        target,
                        "job.checkpoint-interval=3s",
                        "sink.large-message.policy=claim-check",
                        "sink.large-message.claim-check.path=" + claims.toUri());
        try {
            target.drain(target.topic, 2);
            target.mariaDb.execute(
                    target.database,
                    "INSERT INTO docs VALUES (3, REPEAT('c', " + BIG + "))",
                    "INSERT INTO docs VALUES (4, 'small')",
                    "UPDATE docs SET body = REPEAT('d', " + BIG + ") WHERE id = 1");
            if (broker.equals("kafka")) {
                Waits.until(
                        "uncommitted records appear",
                        WAIT,
                        () ->
                                KAFKA.server()
                                                .count(
                                                        target.topic,
                                                        "read_uncommitted",
                                                        Duration.ofMillis(100))
                                        >= 5);
            } else {
                Thread.sleep(
                        1000); // RocketMQ shows nothing before commit: kill within the interval
            }
            cluster.startTaskManager();
            cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
            liveTaskManager++;

            List<byte[]> values = target.drain(target.topic, 5);
            List<String> seen = new ArrayList<>();
            for (byte[] value : values) {
                Row row = CanalMessages.decode(MessageFormat.CANAL_FLAT, value).get(0);
                String id = row.data.get("id");
                seen.add(row.type + " " + id);
                if (row.data.containsKey("body")) {
                    continue;
                }
                String uri = marker(MessageFormat.CANAL_FLAT, value).getString("claimCheck");
                Row full =
                        CanalMessages.decode(
                                        MessageFormat.CANAL_FLAT,
                                        Files.readAllBytes(Paths.get(URI.create(uri))))
                                .get(0);
                assertThat(full.data.get("id")).isEqualTo(id);
                assertThat(full.data.get("body")).hasSize(BIG);
            }
            assertThat(seen)
                    .containsExactlyInAnyOrder(
                            "INSERT 1", "INSERT 2", "INSERT 3", "INSERT 4", "UPDATE 1");
            if (broker.equals("kafka")) {
                assertThat(
                                KAFKA.server()
                                        .count(
                                                target.topic,
                                                "read_uncommitted",
                                                Duration.ofSeconds(2)))
                        .as("the kill cut an open transaction: its aborted records are in the log")
                        .isGreaterThan(5);
            }
            try (Stream<Path> files = Files.walk(claims)) {
                assertThat(files.filter(Files::isRegularFile))
                        .as("one object per large row (2, 3 and the update of 1)")
                        .hasSize(3);
            }
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    // ---------------------------------------------------------------------------------------

    private static JSONObject marker(MessageFormat format, byte[] value) throws Exception {
        if (format == MessageFormat.CANAL_FLAT) {
            return JSON.parseObject(value).getJSONObject("sluiceOversize");
        }
        CanalEntry.Entry entry = CanalMessageDeserializer.deserializer(value).getEntries().get(0);
        for (CanalEntry.Pair pair : entry.getHeader().getPropsList()) {
            if (pair.getKey().equals("sluiceOversize")) {
                return JSON.parseObject(pair.getValue());
            }
        }
        throw new AssertionError("no sluiceOversize header property");
    }

    /** A table docs with a small row 1 and a 2 MB row 2, and its topic on {@code broker}. */
    private static Target seeded(String broker, String prefix, MessageFormat format) {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase(prefix, null);
        mariaDb.execute(
                database,
                "CREATE TABLE docs (id INT PRIMARY KEY, body LONGTEXT)",
                "INSERT INTO docs VALUES (1, 'small')",
                "INSERT INTO docs VALUES (2, REPEAT('x', " + BIG + "))");
        Target target = new Target(broker, mariaDb, database, "lr-" + database, format);
        target.createTopic(target.topic, Map.of());
        return target;
    }

    private static JobClient start(Target target, String... extra) throws Exception {
        List<String> overrides = new ArrayList<>();
        overrides.add("job.checkpoint-interval=1s");
        overrides.add("format=" + target.format);
        if (target.broker.equals("rocketmq")) {
            overrides.add("sink.type=rocketmq");
            overrides.add("sink.rocketmq.name-server=" + ROCKETMQ.server().nameServerAddress());
            overrides.add("sink.rocketmq.producer-group=" + target.topic);
            overrides.add("sink.large-message.max-bytes=1mb");
        }
        overrides.addAll(List.of(extra));
        Configuration config =
                EmbeddedJobs.config(
                        target.mariaDb,
                        KAFKA.server(),
                        target.database + ".docs",
                        target.topic,
                        overrides.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return EmbeddedJobs.start(env, config, "large-row-" + target.database);
    }

    /** Where a test's rows go: a broker, its topic and the message format. */
    private record Target(
            String broker,
            MariaDbServer mariaDb,
            String database,
            String topic,
            MessageFormat format) {

        void createTopic(String name, Map<String, String> configs) {
            if (broker.equals("kafka")) {
                KAFKA.server().createTopic(name, 1, configs);
            } else {
                ROCKETMQ.server().createTopic(name, 1);
            }
        }

        /** The committed messages of {@code name}, once at least {@code count} arrived. */
        List<byte[]> drain(String name, int count) {
            CommittedMessages server = broker.equals("kafka") ? KAFKA.server() : ROCKETMQ.server();
            List<byte[]> values = server.committedValues(name, count, WAIT);
            assertThat(values).as("messages in %s", name).hasSizeGreaterThanOrEqualTo(count);
            return values;
        }
    }
}

package io.sluice.it.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.job.SluiceJob;
import io.sluice.job.config.JobConfigLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

/** The walking skeleton: snapshot rows, then binlog insert/update/delete, arrive in Kafka. */
class SkeletonPipelineITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
    @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void snapshotThenBinlogChangesArriveExactlyOnce() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("skeleton", "ddl/skeleton.sql");
        String topic = "skeleton-" + database;
        KAFKA.server().createTopic(topic, 1);

        JobClient job = startJob(mariaDb, database, topic);
        try {
            List<JsonNode> snapshot = changes(KAFKA.server().drainReadCommitted(topic, 3, WAIT));
            assertThat(snapshot).extracting(c -> c.path("op").asText()).containsOnly("r");
            assertThat(snapshot)
                    .extracting(c -> c.path("after").path("id").asInt())
                    .containsExactlyInAnyOrder(1, 2, 3);
            // DECIMAL keeps its declared scale (the raw text, since a JSON parser would not).
            assertThat(KAFKA.server().drainReadCommitted(topic, 3, WAIT))
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .filteredOn(v -> v.contains("\"fig\""))
                    .singleElement(STRING)
                    .contains("\"price\":10.00");

            mariaDb.execute(
                    database,
                    "INSERT INTO items VALUES (4, 'kiwi', 0.99)",
                    "UPDATE items SET name = 'green apple' WHERE id = 1",
                    "DELETE FROM items WHERE id = 2");

            List<JsonNode> all = changes(KAFKA.server().drainReadCommitted(topic, 6, WAIT));
            assertThat(all).hasSize(6);
            List<JsonNode> binlog = all.subList(3, 6);
            assertThat(binlog)
                    .extracting(c -> c.path("op").asText())
                    .containsExactly("c", "u", "d");
            assertThat(binlog.get(0).path("after").path("name").asText()).isEqualTo("kiwi");
            assertThat(binlog.get(1).path("before").path("name").asText()).isEqualTo("apple");
            assertThat(binlog.get(1).path("after").path("name").asText()).isEqualTo("green apple");
            assertThat(binlog.get(2).path("before").path("id").asInt()).isEqualTo(2);
            assertThat(binlog.get(2).path("after").isNull()).isTrue();
            assertThat(binlog)
                    .allSatisfy(
                            c -> {
                                assertThat(c.path("source").path("db").asText())
                                        .isEqualTo(database);
                                assertThat(c.path("source").path("ts_ms").asLong()).isPositive();
                            });
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static JobClient startJob(MariaDbServer mariaDb, String database, String topic)
            throws Exception {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "source.hostname=" + mariaDb.host(),
                        "--set", "source.port=" + mariaDb.port(),
                        "--set", "source.username=" + MariaDbServer.CDC_USER,
                        "--set", "source.password=" + MariaDbServer.CDC_PASSWORD,
                        "--set", "source.tables=" + database + ".items",
                        "--set",
                                "sink.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
                        "--set", "sink.topic=" + topic,
                        "--set", "sink.transactional-id-prefix=" + topic,
                        "--set", "job.checkpoint-interval=500ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        SluiceJob.configure(env, config);
        new SluiceJob(MySqlSourceFactory.jsonSource(config), KafkaSinkFactory.jsonSink(config))
                .build(env);
        return env.executeAsync("skeleton-" + database);
    }

    private static List<JsonNode> changes(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(SkeletonPipelineITCase::parse).collect(Collectors.toList());
    }

    private static JsonNode parse(ConsumerRecord<byte[], byte[]> record) {
        try {
            return JSON.readTree(new String(record.value(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

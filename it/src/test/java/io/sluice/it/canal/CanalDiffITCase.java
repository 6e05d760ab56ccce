package io.sluice.it.canal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.job.EmbeddedJobs;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.job.canal.CanalDiff;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./sluice canal-diff} on real topics: the Sluice job writes one from MariaDB (3 partitions,
 * keyed, DDL in every partition, a primary-key change as DELETE + INSERT); the Canal topic holds
 * the same changes as Canal 1.1.8 writes them (Canal's own FlatMessage class, serialized as its
 * producer does: one partition, no key, a multi-row message with Canal's accumulated {@code old},
 * DECIMAL without its trailing zero, one DDL, the key change as one UPDATE).
 */
class CanalDiffITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
    @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(2);

    /** Snapshot 3, INSERT, UPDATE, 2-row UPDATE, ALTER in 3 partitions, DELETE, DELETE + INSERT. */
    private static final int SLUICE_MESSAGES = 13;

    private static String sluiceTopic;
    private static List<ConsumerRecord<byte[], byte[]>> sluiceRecords;

    @BeforeAll
    static void sluiceWritesItsTopic() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("diff", "ddl/skeleton.sql");
        sluiceTopic = "sluice-" + database;
        KAFKA.server().createTopic(sluiceTopic, 3);
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".items",
                        sluiceTopic,
                        "job.checkpoint-interval=500ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        JobClient job = EmbeddedJobs.start(env, config, "canal-diff-" + database);
        try {
            KAFKA.server().drainReadCommitted(sluiceTopic, 3, WAIT); // The snapshot: reading.
            mariaDb.execute(
                    database,
                    "INSERT INTO items VALUES (4, 'kiwi', 5.00)",
                    "UPDATE items SET name = 'green apple' WHERE id = 1",
                    // One statement, two rows: row 4's price does not change, row 1's does.
                    "UPDATE items SET name = 'bulk', price = 5.00 WHERE id IN (1, 4)",
                    "ALTER TABLE items ADD COLUMN note VARCHAR(8) NULL",
                    "DELETE FROM items WHERE id = 2",
                    "UPDATE items SET id = 30 WHERE id = 3");
            sluiceRecords = KAFKA.server().drainReadCommitted(sluiceTopic, SLUICE_MESSAGES, WAIT);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
        assertThat(sluiceRecords).hasSize(SLUICE_MESSAGES);
    }

    @Test
    void canalsOwnShapeDiffersOnlyInDocumentedWays() throws Exception {
        String canalTopic = writeCanalTopic("canal-clean", UnaryOperator.identity());

        Result text = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceTopic);
        assertThat(text.exit).as(text.out + text.err).isZero();
        assertThat(text.out)
                .contains("pairs matched: 10")
                .contains("documented: DECIMAL scale")
                .contains("documented: primary-key change")
                .contains("documented: DDL placement")
                .contains("documented: message key")
                .contains("documented: flat `old` in multi-row messages")
                .contains("documented: tables no `partitionHash` rule matches")
                .contains("documented: message `id`")
                .contains("result: every difference is a documented one")
                .doesNotContain("NOT DOCUMENTED");
        // A price example (which rows the report shows depends on the partitions' order): Canal's
        // one decimal against Sluice's declared scale.
        assertThat(text.out)
                .containsPattern("Canal \"\\d+\\.0\" \\([^)]*\\), Sluice \"\\d+\\.00\"");
        assertThat(text.err)
                .contains("canal-diff: Canal: read 9 messages (10 rows and statements)");

        Result json = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceTopic, "--json");
        assertThat(json.exit).isZero();
        JsonNode report = new ObjectMapper().readTree(json.out);
        assertThat(report.path("undocumented").asLong()).isZero();
        assertThat(report.path("pairs").asLong()).isEqualTo(10);
        assertThat(report.path("sluice").path("messages").asLong()).isEqualTo(SLUICE_MESSAGES);
    }

    @Test
    void anUndocumentedDifferenceFailsWithExamples() throws Exception {
        String canalTopic =
                writeCanalTopic(
                        "canal-drift",
                        flat -> {
                            if ("DELETE".equals(flat.getType())) {
                                return null; // Canal lost the DELETE.
                            }
                            if ("INSERT".equals(flat.getType())
                                    && "kiwi".equals(flat.getData().get(0).get("name"))) {
                                flat.getData().get(0).put("name", "KIWI");
                            }
                            return flat;
                        });

        Result text = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceTopic);
        assertThat(text.exit).as(text.out + text.err).isEqualTo(1);
        assertThat(text.out)
                .containsPattern("data\\.name +1  NOT DOCUMENTED")
                .contains("id=4: Canal \"KIWI\"")
                .contains("Sluice \"kiwi\"")
                .containsPattern("only in Sluice +1  NOT DOCUMENTED")
                .contains("result: 2 undocumented difference(s)");
        Result json = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceTopic, "--json");
        assertThat(json.exit).isEqualTo(1);
        assertThat(new ObjectMapper().readTree(json.out).path("undocumented").asLong())
                .isEqualTo(2);
    }

    @Test
    void badInputIsNamed() {
        Result missing = diff("--canal-topic", "no-such-topic", "--sluice-topic", sluiceTopic);
        assertThat(missing.exit).isEqualTo(2);
        assertThat(missing.err).contains("Canal topic 'no-such-topic' does not exist");

        String notJson = "canal-not-json";
        KAFKA.server().createTopic(notJson, 1);
        produce(notJson, List.of(new byte[] {0x0a, 0x01, 0x02}));
        Result binary = diff("--canal-topic", notJson, "--sluice-topic", sluiceTopic);
        assertThat(binary.exit).isEqualTo(2);
        assertThat(binary.err)
                .contains("Canal message at " + notJson + "-0@0 is not a Canal FlatMessage");

        Result usage = diff("--canal-topic", notJson);
        assertThat(usage.exit).isEqualTo(2);
        assertThat(usage.err).contains("--sluice-topic are required");
    }

    /**
     * Sluice's messages as Canal writes them, through {@code alter} (null drops a message), into a
     * new topic of one partition (Canal's partition 0, no partitionHash).
     */
    private static String writeCanalTopic(String name, UnaryOperator<FlatMessage> alter) {
        String topic = name + "-" + sluiceTopic;
        KAFKA.server().createTopic(topic, 1);
        List<FlatMessage> sluice = new ArrayList<>();
        sluiceRecords.stream()
                .sorted(Comparator.comparingInt(r -> r.partition()))
                .forEach(r -> sluice.add(JSON.parseObject(r.value(), FlatMessage.class)));
        List<FlatMessage> canal = new ArrayList<>();
        boolean ddlSeen = false;
        FlatMessage bulk = null;
        Map<Long, FlatMessage> deletes = new LinkedHashMap<>();
        Map<Long, FlatMessage> keyChangeInserts = new LinkedHashMap<>();
        for (FlatMessage flat : sluice) {
            if (flat.getIsDdl()) {
                if (!ddlSeen) { // Canal writes the statement once, to partition 0.
                    canal.add(flat);
                }
                ddlSeen = true;
                continue;
            }
            flat.getData().forEach(CanalDiffITCase::canalDecimal);
            if (flat.getOld() != null) {
                flat.getOld().forEach(CanalDiffITCase::canalDecimal);
            }
            String rowName = flat.getData().get(0).get("name");
            if ("bulk".equals(rowName) && "UPDATE".equals(flat.getType())) {
                if (bulk == null) {
                    bulk = flat;
                    canal.add(flat);
                } else { // One message for the statement; Canal's old spans its rows.
                    canal.remove(bulk); // After both rows' earlier changes.
                    canal.add(bulk);
                    bulk.getData().addAll(flat.getData());
                    bulk.getOld().addAll(flat.getOld());
                    for (Map<String, String> old : bulk.getOld()) {
                        old.putIfAbsent("price", "5.0");
                    }
                }
            } else if ("DELETE".equals(flat.getType()) && "fig".equals(rowName)) {
                deletes.put(flat.getEs(), flat); // The first half of the key change.
            } else if ("INSERT".equals(flat.getType())
                    && "fig".equals(rowName)
                    && !"3".equals(flat.getData().get(0).get("id"))) {
                // The second half, in whichever partition's turn it comes.
                keyChangeInserts.put(flat.getEs(), flat);
            } else {
                canal.add(flat);
            }
        }
        // Canal writes a key change as one UPDATE with the old key in old.
        deletes.forEach(
                (es, delete) -> {
                    FlatMessage insert = keyChangeInserts.remove(es);
                    if (insert == null) {
                        canal.add(delete);
                        return;
                    }
                    delete.setType("UPDATE");
                    delete.setData(insert.getData());
                    Map<String, String> old = new LinkedHashMap<>();
                    old.put("id", "3");
                    delete.setOld(new ArrayList<>(List.of(old)));
                    canal.add(delete);
                });
        canal.addAll(keyChangeInserts.values());
        List<byte[]> values = new ArrayList<>();
        long id = 1000;
        for (FlatMessage flat : canal) {
            FlatMessage altered = alter.apply(flat);
            if (altered != null) {
                altered.setId(id++);
                values.add(
                        JSON.toJSONBytes(
                                altered,
                                JSONWriter.Feature.WriteNulls,
                                JSONWriter.Feature.LargeObject));
            }
        }
        produce(topic, values);
        return topic;
    }

    /** Canal's DECIMAL text: an all-zero last fraction group is written as one zero. */
    private static void canalDecimal(Map<String, String> row) {
        row.replaceAll(
                (column, value) ->
                        "price".equals(column) && value != null && value.endsWith(".00")
                                ? value.substring(0, value.length() - 1)
                                : value);
    }

    private static void produce(String topic, List<byte[]> values) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.server().bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
        }
    }

    private static Result diff(String... args) {
        List<String> all =
                new ArrayList<>(List.of("--bootstrap-servers", KAFKA.server().bootstrapServers()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit =
                CanalDiff.run(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        all.toArray(new String[0]));
        return new Result(
                exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final class Result {
        final int exit;
        final String out;
        final String err;

        Result(int exit, String out, String err) {
            this.exit = exit;
            this.out = out;
            this.err = err;
        }
    }
}

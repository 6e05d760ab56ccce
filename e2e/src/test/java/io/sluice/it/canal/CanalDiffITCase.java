package io.sluice.it.canal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.CanalPacket;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.job.canal.CanalDiff;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
 * DECIMAL without its trailing zero, one DDL, the key change as one UPDATE). A second job writes
 * the same changes in canal-binary to RocketMQ; Canal's binary topic is built from it with Canal's
 * own protobuf classes the same way (and a 2-row entry of rowsCount 2).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CanalDiffITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(2);

    /** Snapshot 3, INSERT, UPDATE, 2-row UPDATE, ALTER in 3 partitions, DELETE, DELETE + INSERT. */
    private static final int SLUICE_MESSAGES = 13;

    private static String sluiceTopic;
    private static List<ConsumerRecord<byte[], byte[]>> sluiceRecords;

    /** The same changes in canal-binary, as Sluice's RocketMQ sink wrote them (3 queues). */
    private static String sluiceBinaryTopic;

    private static List<MessageExt> sluiceBinaryMessages;
    private static boolean sluiceBinaryCopied;

    @BeforeAll
    static void sluiceWritesItsTopics() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("diff", "ddl/skeleton.sql");
        sluiceTopic = "sluice-" + database;
        sluiceBinaryTopic = "sluice-binary-" + database;
        KAFKA.server().createTopic(sluiceTopic, 3);
        ROCKETMQ.server().createTopic(sluiceBinaryTopic, 3);
        JobClient flat =
                start(
                        EmbeddedJobs.config(
                                mariaDb,
                                KAFKA.server(),
                                database + ".items",
                                sluiceTopic,
                                "job.checkpoint-interval=500ms"),
                        "canal-diff-" + database);
        JobClient binary =
                start(
                        EmbeddedJobs.config(
                                mariaDb,
                                KAFKA.server(),
                                database + ".items",
                                sluiceBinaryTopic,
                                "job.checkpoint-interval=500ms",
                                "source.server-id=5500-5508",
                                "format=canal-binary",
                                "sink.type=rocketmq",
                                "sink.rocketmq.name-server="
                                        + ROCKETMQ.server().nameServerAddress(),
                                "sink.rocketmq.producer-group=" + sluiceBinaryTopic),
                        "canal-diff-binary-" + database);
        try {
            // The snapshots: both are reading.
            KAFKA.server().drainReadCommitted(sluiceTopic, 3, WAIT);
            ROCKETMQ.server().drain(sluiceBinaryTopic, 3, WAIT);
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
            sluiceBinaryMessages =
                    ROCKETMQ.server().drain(sluiceBinaryTopic, SLUICE_MESSAGES, WAIT);
        } finally {
            flat.cancel().get(1, TimeUnit.MINUTES);
            binary.cancel().get(1, TimeUnit.MINUTES);
        }
        assertThat(sluiceRecords).hasSize(SLUICE_MESSAGES);
        assertThat(sluiceBinaryMessages).hasSize(SLUICE_MESSAGES);
    }

    private static JobClient start(Configuration config, String name) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        return EmbeddedJobs.start(env, config, name);
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
    void binaryOnBothSidesDiffersOnlyInDocumentedWays() throws Exception {
        String canalTopic = writeCanalBinaryTopic("canal-binary-clean", UnaryOperator.identity());

        Result text = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceBinaryInKafka());
        assertThat(text.exit).as(text.out + text.err).isZero();
        assertThat(text.out)
                .contains("pairs matched: 10")
                .contains("documented: binary `rowsCount`")
                .contains("documented: primary-key change")
                .contains("documented: DDL placement")
                .contains("documented: message key")
                .contains("documented: message `id`")
                .contains("result: every difference is a documented one")
                .doesNotContain("NOT DOCUMENTED");
        // Canal's 2-row entry against Sluice's entry per row.
        assertThat(text.out).contains("Canal \"[rowsCount=2]\"");
        assertThat(text.err)
                .contains("canal-diff: Canal: read 9 messages (10 rows and statements)");
    }

    @Test
    void binaryColumnFieldsThatDriftAreUndocumented() throws Exception {
        String canalTopic =
                writeCanalBinaryTopic(
                        "canal-binary-drift",
                        entry -> {
                            CanalEntry.RowChange change = rowChange(entry);
                            if (change.getEventType() != CanalEntry.EventType.INSERT
                                    || !"kiwi".equals(value(change.getRowDatas(0), "name"))) {
                                return entry;
                            }
                            CanalEntry.RowData.Builder row = change.getRowDatas(0).toBuilder();
                            for (CanalEntry.Column.Builder c : row.getAfterColumnsBuilderList()) {
                                if (c.getName().equals("name")) {
                                    c.setValue("KIWI").setUpdated(!c.getUpdated());
                                } else if (c.getName().equals("price")) {
                                    c.setMysqlType("decimal(12,2)");
                                }
                            }
                            return entry.toBuilder()
                                    .setStoreValue(
                                            change.toBuilder()
                                                    .setRowDatas(0, row)
                                                    .build()
                                                    .toByteString())
                                    .build();
                        });

        Result text = diff("--canal-topic", canalTopic, "--sluice-topic", sluiceBinaryInKafka());
        assertThat(text.exit).as(text.out + text.err).isEqualTo(1);
        assertThat(text.out)
                .containsPattern("after\\.name\\.value +1  NOT DOCUMENTED")
                .containsPattern("after\\.name\\.updated +1  NOT DOCUMENTED")
                .containsPattern("after\\.price\\.mysqlType +1  NOT DOCUMENTED")
                .contains("id=4: Canal \"KIWI\"")
                .contains("result: 3 undocumented difference(s)");
    }

    @Test
    void readsSluicesRocketMqTopicAgainstCanalsFlatOne() throws Exception {
        // Binary on Sluice's side only: its rows compare as Canal's converter makes them flat.
        String canalTopic = writeCanalTopic("canal-flat-rmq", UnaryOperator.identity());

        Result json =
                diff(
                        "--canal-topic",
                        canalTopic,
                        "--sluice-topic",
                        "rocketmq://"
                                + ROCKETMQ.server().nameServerAddress()
                                + "/"
                                + sluiceBinaryTopic,
                        "--json");
        assertThat(json.exit).as(json.out + json.err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.out);
        assertThat(report.path("undocumented").asLong()).isZero();
        assertThat(report.path("pairs").asLong()).isEqualTo(10);
        assertThat(report.path("sluice").path("messages").asLong()).isEqualTo(SLUICE_MESSAGES);
    }

    @Test
    void holdsRowsOnlyWhileTheOtherSideCatchesUp() throws Exception {
        // A long shadow run: the same changes again and again, an hour of binlog time apart (no
        // snapshot rows: Canal has none).
        int rounds = 20;
        String canalTopic = "canal-long-" + sluiceTopic;
        String sluiceLong = "sluice-long-" + sluiceTopic;
        KAFKA.server().createTopic(canalTopic, 1);
        KAFKA.server().createTopic(sluiceLong, 3);
        List<byte[]> canalRound = canalValues(UnaryOperator.identity());
        List<ProducerRecord<byte[], byte[]>> canal = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> sluice = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            long later = Duration.ofHours(round).toMillis();
            for (byte[] value : canalRound) {
                byte[] moved = later(value, later);
                if (moved != null) {
                    canal.add(new ProducerRecord<>(canalTopic, 0, null, moved));
                }
            }
            for (ConsumerRecord<byte[], byte[]> r : sluiceRecords) {
                byte[] moved = later(r.value(), later);
                if (moved != null) {
                    sluice.add(new ProducerRecord<>(sluiceLong, r.partition(), r.key(), moved));
                }
            }
        }
        send(canal);
        send(sluice);

        Result json =
                diff(
                        "--canal-topic",
                        canalTopic,
                        "--sluice-topic",
                        sluiceLong,
                        "--property",
                        "max.poll.records=5",
                        "--json");
        assertThat(json.exit).as(json.out + json.err).isZero();
        JsonNode report = new ObjectMapper().readTree(json.out);
        assertThat(report.path("pairs").asLong()).isEqualTo(7L * rounds);
        // A round is 7 + 10 rows; the topics hold 20 rounds.
        assertThat(report.path("heldAtMost").asLong()).as(json.out).isLessThanOrEqualTo(2 * 17);
    }

    @Test
    void badInputIsNamed() {
        Result missing = diff("--canal-topic", "no-such-topic", "--sluice-topic", sluiceTopic);
        assertThat(missing.exit).isEqualTo(2);
        assertThat(missing.err).contains("Canal topic 'no-such-topic' does not exist");

        String notJson = "canal-not-json";
        KAFKA.server().createTopic(notJson, 1);
        produce(notJson, List.of(new byte[] {0x0a, 0x01, 0x02}));
        Result neither = diff("--canal-topic", notJson, "--sluice-topic", sluiceTopic);
        assertThat(neither.exit).isEqualTo(2);
        assertThat(neither.err)
                .contains(
                        "Canal message at "
                                + notJson
                                + "-0@0 is neither a Canal FlatMessage (JSON) nor a Canal binary"
                                + " message (protobuf): a Canal packet of type 0, not MESSAGES");

        Result usage = diff("--canal-topic", notJson);
        assertThat(usage.exit).isEqualTo(2);
        assertThat(usage.err).contains("--sluice-topic are required");

        Result window =
                diff("--canal-topic", notJson, "--sluice-topic", sluiceTopic, "--window", "soon");
        assertThat(window.exit).isEqualTo(2);
        assertThat(window.err)
                .contains("'--window' (canal-diff.window) takes a duration")
                .contains("but got 'soon'");

        Result system = diff("--canal-topic", "pulsar://host/t", "--sluice-topic", sluiceTopic);
        assertThat(system.exit).isEqualTo(2);
        assertThat(system.err)
                .contains("--canal-topic: 'pulsar://host/t' names an unknown system 'pulsar'");

        String absent = "rocketmq://" + ROCKETMQ.server().nameServerAddress() + "/no-such-topic";
        Result rocketMq = diff("--canal-topic", sluiceTopic, "--sluice-topic", absent);
        assertThat(rocketMq.exit).isEqualTo(2);
        assertThat(rocketMq.err).contains("Sluice topic '" + absent + "' cannot be read");
    }

    /**
     * Sluice's messages as Canal writes them, through {@code alter} (null drops a message), into a
     * new topic of one partition (Canal's partition 0, no partitionHash).
     */
    private static String writeCanalTopic(String name, UnaryOperator<FlatMessage> alter) {
        String topic = name + "-" + sluiceTopic;
        KAFKA.server().createTopic(topic, 1);
        produce(topic, canalValues(alter));
        return topic;
    }

    /** Sluice's flat messages as Canal writes them, through {@code alter}, in Canal's order. */
    private static List<byte[]> canalValues(UnaryOperator<FlatMessage> alter) {
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
        return values;
    }

    /** A FlatMessage {@code millis} later in binlog time; null for a snapshot row (es 0). */
    private static byte[] later(byte[] value, long millis) {
        FlatMessage flat = JSON.parseObject(value, FlatMessage.class);
        if (flat.getEs() == 0) {
            return null;
        }
        flat.setEs(flat.getEs() + millis);
        return JSON.toJSONBytes(
                flat, JSONWriter.Feature.WriteNulls, JSONWriter.Feature.LargeObject);
    }

    /**
     * Sluice's binary messages as Canal writes them (decoded and built with Canal's own classes),
     * through {@code alter}: one partition, no key, the 2-row UPDATE as one entry of rowsCount 2,
     * the DDL once, the key change as one UPDATE.
     */
    private static String writeCanalBinaryTopic(String name, UnaryOperator<CanalEntry.Entry> alter)
            throws Exception {
        String topic = name + "-" + sluiceTopic;
        KAFKA.server().createTopic(topic, 1);
        List<CanalEntry.Entry> canal = new ArrayList<>();
        boolean ddlSeen = false;
        CanalEntry.Entry bulk = null;
        Map<Long, CanalEntry.Entry> deletes = new LinkedHashMap<>();
        Map<Long, CanalEntry.Entry> keyChangeInserts = new LinkedHashMap<>();
        for (MessageExt message : sluiceBinaryMessages) {
            for (CanalEntry.Entry entry :
                    CanalMessageDeserializer.deserializer(message.getBody()).getEntries()) {
                CanalEntry.RowChange change = rowChange(entry);
                long es = entry.getHeader().getExecuteTime();
                if (change.getIsDdl()) {
                    if (!ddlSeen) {
                        canal.add(entry);
                    }
                    ddlSeen = true;
                    continue;
                }
                CanalEntry.RowData row = change.getRowDatas(0);
                String rowName = value(row, "name");
                CanalEntry.EventType type = change.getEventType();
                if ("bulk".equals(rowName) && type == CanalEntry.EventType.UPDATE) {
                    if (bulk == null) {
                        bulk = entry;
                        canal.add(entry);
                    } else {
                        canal.remove(bulk); // After both rows' earlier changes.
                        canal.add(
                                entry(
                                        bulk.getHeader().toBuilder()
                                                .clearProps()
                                                .addProps(pair("rowsCount", "2")),
                                        rowChange(bulk).toBuilder().addRowDatas(row)));
                    }
                } else if (type == CanalEntry.EventType.DELETE && "fig".equals(rowName)) {
                    deletes.put(es, entry);
                } else if (type == CanalEntry.EventType.INSERT
                        && "fig".equals(rowName)
                        && !"3".equals(value(row, "id"))) {
                    keyChangeInserts.put(es, entry);
                } else {
                    canal.add(entry);
                }
            }
        }
        deletes.forEach(
                (es, delete) -> {
                    CanalEntry.Entry insert = keyChangeInserts.remove(es);
                    if (insert == null) {
                        canal.add(delete);
                        return;
                    }
                    CanalEntry.RowData.Builder row =
                            CanalEntry.RowData.newBuilder()
                                    .addAllBeforeColumns(
                                            rowChange(delete)
                                                    .getRowDatas(0)
                                                    .getBeforeColumnsList());
                    for (CanalEntry.Column c :
                            rowChange(insert).getRowDatas(0).getAfterColumnsList()) {
                        row.addAfterColumns(
                                c.toBuilder().setUpdated(c.getName().equals("id")).build());
                    }
                    canal.add(
                            entry(
                                    delete.getHeader().toBuilder()
                                            .setEventType(CanalEntry.EventType.UPDATE),
                                    rowChange(delete).toBuilder()
                                            .setEventType(CanalEntry.EventType.UPDATE)
                                            .clearRowDatas()
                                            .addRowDatas(row)));
                });
        canal.addAll(keyChangeInserts.values());
        List<byte[]> values = new ArrayList<>();
        long id = 1000;
        for (CanalEntry.Entry entry : canal) {
            CanalEntry.Entry altered = alter.apply(entry);
            if (altered != null) {
                values.add(
                        CanalPacket.Packet.newBuilder()
                                .setType(CanalPacket.PacketType.MESSAGES)
                                .setBody(
                                        CanalPacket.Messages.newBuilder()
                                                .setBatchId(id++)
                                                .addMessages(altered.toByteString())
                                                .build()
                                                .toByteString())
                                .build()
                                .toByteArray());
            }
        }
        produce(topic, values);
        return topic;
    }

    /** Sluice's binary messages copied byte for byte, key and queue, into a Kafka topic. */
    private static String sluiceBinaryInKafka() {
        String topic = "kafka-" + sluiceBinaryTopic;
        if (sluiceBinaryCopied) {
            return topic;
        }
        sluiceBinaryCopied = true;
        KAFKA.server().createTopic(topic, 3);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (MessageExt m : sluiceBinaryMessages) {
            records.add(
                    new ProducerRecord<>(
                            topic,
                            m.getQueueId(),
                            m.getKeys() == null
                                    ? null
                                    : m.getKeys().getBytes(StandardCharsets.UTF_8),
                            m.getBody()));
        }
        send(records);
        return topic;
    }

    private static CanalEntry.RowChange rowChange(CanalEntry.Entry entry) {
        try {
            return CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A column's value in the row's after image (before for a DELETE). */
    private static String value(CanalEntry.RowData row, String column) {
        List<CanalEntry.Column> image =
                row.getAfterColumnsCount() > 0
                        ? row.getAfterColumnsList()
                        : row.getBeforeColumnsList();
        return image.stream()
                .filter(c -> c.getName().equals(column))
                .map(CanalEntry.Column::getValue)
                .findFirst()
                .orElse(null);
    }

    private static CanalEntry.Entry entry(
            CanalEntry.Header.Builder header, CanalEntry.RowChange.Builder change) {
        return CanalEntry.Entry.newBuilder()
                .setHeader(header)
                .setEntryType(CanalEntry.EntryType.ROWDATA)
                .setStoreValue(change.build().toByteString())
                .build();
    }

    private static CanalEntry.Pair pair(String key, String value) {
        return CanalEntry.Pair.newBuilder().setKey(key).setValue(value).build();
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
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        values.forEach(value -> records.add(new ProducerRecord<>(topic, 0, null, value)));
        send(records);
    }

    private static void send(List<ProducerRecord<byte[], byte[]>> records) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.server().bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            records.forEach(producer::send);
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

package io.sluice.it.server;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Proves the embedded Kafka runs transactions and read_committed drains see only commits. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaServerITCase {

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    private static final int PARTITIONS = 3;
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void readCommittedDrainReturnsExactlyTheCommittedRecordsInPartitionOrder() {
        KafkaServer server = KAFKA.server();
        String topic = "server-check-" + UUID.randomUUID();
        server.createTopic(topic, PARTITIONS);

        List<String> committed = new ArrayList<>();
        try (KafkaProducer<String, String> producer =
                transactionalProducer(server, "server-check-" + UUID.randomUUID())) {
            producer.initTransactions();
            // Committed, aborted, committed: the aborted batch sits between committed ones.
            producer.beginTransaction();
            sendRange(producer, topic, "committed", 0, 15, committed);
            producer.commitTransaction();
            producer.beginTransaction();
            sendRange(producer, topic, "aborted", 0, 10, new ArrayList<>());
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            sendRange(producer, topic, "committed", 15, 30, committed);
            producer.commitTransaction();
        }

        List<String> expected = new ArrayList<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            for (int i = partition; i < committed.size(); i += PARTITIONS) {
                expected.add(partition + ":key-" + i + ":" + committed.get(i));
            }
        }
        assertThat(describe(server.drainReadCommitted(topic, 30, DRAIN_TIMEOUT)))
                .containsExactlyElementsOf(expected);
        assertThat(describe(server.drainReadCommitted(topic, Duration.ofSeconds(1))))
                .containsExactlyElementsOf(expected);
    }

    /** Sends "label-i" for i in [from, to) to partition i % PARTITIONS, keyed "key-i". */
    private static void sendRange(
            KafkaProducer<String, String> producer,
            String topic,
            String label,
            int from,
            int to,
            List<String> sent) {
        for (int i = from; i < to; i++) {
            String value = label + "-" + i;
            producer.send(new ProducerRecord<>(topic, i % PARTITIONS, "key-" + i, value));
            sent.add(value);
        }
    }

    private static KafkaProducer<String, String> transactionalProducer(
            KafkaServer server, String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, server.bootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        return new KafkaProducer<>(props);
    }

    /** "partition:key:value" per record, keeping the drain's order. */
    private static List<String> describe(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream()
                .map(
                        record ->
                                record.partition()
                                        + ":"
                                        + new String(record.key(), StandardCharsets.UTF_8)
                                        + ":"
                                        + new String(record.value(), StandardCharsets.UTF_8))
                .collect(Collectors.toList());
    }
}

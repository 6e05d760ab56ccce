package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Reads Kafka topics from their start to the end they have when reading starts, with {@code
 * read_committed}, decoding each value as a Canal FlatMessage. Prints progress on {@code progress}
 * about every two seconds.
 */
final class TopicReader {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Properties client;
    private final PrintStream progress;

    TopicReader(Properties client, PrintStream progress) {
        this.client = client;
        this.progress = progress;
    }

    /** The rows of every message of {@code topics}; counts messages into {@code counts[0]}. */
    List<FlatRow> read(String side, List<String> topics, long[] counts) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        List<FlatRow> rows = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) {
                    throw new IllegalArgumentException(
                            side + " topic '" + topic + "' does not exist (or has no partitions)");
                }
                infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long total = 0;
            for (TopicPartition p : partitions) {
                total += ends.get(p) - consumer.beginningOffsets(List.of(p)).get(p);
            }
            long next = System.nanoTime() + PROGRESS_EVERY.toNanos();
            while (!done(consumer, partitions, ends)) {
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset()
                            >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    counts[0]++;
                    rows.addAll(decode(side, record));
                }
                if (System.nanoTime() > next) {
                    progress.printf(
                            "canal-diff: %s: read %d of about %d messages%n",
                            side, counts[0], total);
                    next = System.nanoTime() + PROGRESS_EVERY.toNanos();
                }
            }
        }
        progress.printf(
                "canal-diff: %s: read %d messages (%d rows and statements) from %s%n",
                side, counts[0], rows.size(), String.join(",", topics));
        return rows;
    }

    private static boolean done(
            KafkaConsumer<?, ?> consumer,
            List<TopicPartition> partitions,
            Map<TopicPartition, Long> ends) {
        // A transaction's commit marker takes an offset too, so position, not the last record.
        return partitions.stream().allMatch(p -> consumer.position(p) >= ends.get(p));
    }

    private static List<FlatRow> decode(String side, ConsumerRecord<byte[], byte[]> record) {
        JsonNode message;
        try {
            message = record.value() == null ? null : JSON.readTree(record.value());
        } catch (IOException e) {
            message = null;
        }
        if (message == null || !message.isObject() || !message.has("type")) {
            throw new IllegalArgumentException(
                    side
                            + " message at "
                            + record.topic()
                            + "-"
                            + record.partition()
                            + "@"
                            + record.offset()
                            + " is not a Canal FlatMessage (JSON); canal-diff reads"
                            + " canal.mq.flatMessage=true / format: canal-flat topics");
        }
        return FlatRow.of(
                record.topic(), record.partition(), record.offset(), record.key() != null, message);
    }
}

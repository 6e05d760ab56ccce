package io.sluice.tools.bench;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.KafkaClientProperties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The Kafka {@link SinkReader}: a read_committed consumer of the benchmark's topics (created with
 * LogAppendTime). It counts the messages, and notes the broker's append time of the first one and
 * the wall time at which the last expected one became readable: the run's end-to-end window. With
 * {@link LoadStats} tracking commits, each insert's first message gives one latency sample.
 */
final class TopicReader extends SinkReader {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<String> topics;

    /**
     * @param client the job's Kafka client settings ({@link KafkaClientProperties#common})
     */
    TopicReader(
            Properties client, List<String> topics, int partitions, LoadStats commits, int keep) {
        super(commits, keep);
        this.topics = List.copyOf(topics);
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(props);
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topics) {
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        start("bench-reader");
    }

    @Override
    void poll() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
        if (records.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        long batchBytes = 0;
        int batchRows = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            batchRows += rowsOf(record.value());
            batchBytes +=
                    Math.max(0, record.serializedKeySize())
                            + Math.max(0, record.serializedValueSize());
            read(record.key(), record.timestamp(), now);
            if (keeping()) {
                keep(
                        new SinkMessage(
                                record.topic(),
                                record.partition(),
                                record.key(),
                                record.value(),
                                record.timestamp()));
            }
        }
        tally(records.count(), batchRows, batchBytes, now);
    }

    @Override
    void release() {
        consumer.close(Duration.ofSeconds(5));
    }

    @Override
    void wakeup() {
        consumer.wakeup();
    }

    /** {@code table/id} of a Sluice message key {@code ["db","table","id"]}. */
    static String tableAndId(byte[] key) {
        String text = new String(key, StandardCharsets.UTF_8);
        int afterDb = text.indexOf("\",\"");
        int tableEnd = text.indexOf('"', afterDb + 3);
        String table = text.substring(afterDb + 3, tableEnd);
        StringBuilder id = new StringBuilder();
        for (int i = tableEnd + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                id.append(c);
            }
        }
        return table + '/' + id;
    }

    /** The topics read. */
    List<String> topics() {
        return topics;
    }
}

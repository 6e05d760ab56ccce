package io.sluice.job.canal;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/** Kafka topics read with {@code read_committed}, from their start to their end at start. */
final class KafkaSource implements MessageSource {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, TopicPartition> partitions = new LinkedHashMap<>();
    private final Map<TopicPartition, Long> ends;
    private final long total;

    /** {@code client}: the consumer's settings, over this tool's defaults. */
    KafkaSource(String side, Properties client, List<String> topics) {
        Properties props = new Properties();
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        this.consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) {
                    throw new IllegalArgumentException(
                            side + " topic '" + topic + "' does not exist (or has no partitions)");
                }
                infos.forEach(
                        i ->
                                partitions.put(
                                        MessageSource.partition(i.topic(), i.partition()),
                                        new TopicPartition(i.topic(), i.partition())));
            }
            consumer.assign(partitions.values());
            consumer.seekToBeginning(partitions.values());
            this.ends = consumer.endOffsets(partitions.values());
            Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions.values());
            this.total =
                    partitions.values().stream().mapToLong(p -> ends.get(p) - starts.get(p)).sum();
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    @Override
    public List<String> partitions() {
        return new ArrayList<>(partitions.keySet());
    }

    @Override
    public long total() {
        return total;
    }

    @Override
    public List<Message> poll(Set<String> paused) {
        consumer.pause(paused.stream().map(partitions::get).collect(Collectors.toList()));
        consumer.resume(
                partitions.entrySet().stream()
                        .filter(e -> !paused.contains(e.getKey()))
                        .map(Map.Entry::getValue)
                        .collect(Collectors.toList()));
        List<Message> messages = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
            if (record.offset()
                    < ends.get(new TopicPartition(record.topic(), record.partition()))) {
                messages.add(
                        new Message(
                                record.topic(),
                                record.partition(),
                                record.offset(),
                                record.key() != null,
                                record.value()));
            }
        }
        return messages;
    }

    @Override
    public boolean finished(String partition) {
        TopicPartition p = partitions.get(partition);
        // A transaction's commit marker takes an offset too, so position, not the last record.
        return consumer.position(p) >= ends.get(p);
    }

    @Override
    public void close() {
        consumer.close();
    }
}

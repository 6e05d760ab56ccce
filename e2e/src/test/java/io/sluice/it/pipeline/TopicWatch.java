package io.sluice.it.pipeline;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.pipeline.VersionedWriter.Key;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Follows a topic of {@link VersionedWriter} rows from its beginning, as a consumer with one
 * isolation level sees it: {@code read_uncommitted} shows what the job has written, {@code
 * read_committed} what its checkpoints have committed. Snapshot rows are INSERTs only (Flink CDC
 * merges a chunk's backfill into its rows), so the first UPDATE or DELETE marks the binlog phase.
 */
final class TopicWatch implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KeyKind keys;
    private final List<Delivered> rows = new ArrayList<>();
    private final Set<Key> inserted = new HashSet<>();
    private boolean changes;

    TopicWatch(String bootstrapServers, String topic, String isolation, KeyKind keys) {
        consumer = fromBeginning(bootstrapServers, topic, isolation, "watch");
        this.keys = keys;
    }

    /** A consumer of every partition of {@code topic}, from its beginning, at one isolation. */
    static KafkaConsumer<byte[], byte[]> fromBeginning(
            String bootstrapServers, String topic, String isolation, String client) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, client + "-" + isolation + "-" + topic);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 20_000);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic, Duration.ofSeconds(15))
                .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    /** Reads what arrived since the last call, waiting at most 100 ms for it. */
    TopicWatch poll() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        consumer.poll(POLL).forEach(records::add);
        for (Delivered row : Delivered.decode(records, MessageFormat.CANAL_FLAT)) {
            rows.add(row);
            if (row.row.type.equals("INSERT")) {
                inserted.add(new Key(row.row.table, keys.id(row.get("id"))));
            } else {
                changes = true;
            }
        }
        return this;
    }

    /** Every row read so far, each partition's in offset order. */
    List<Delivered> rows() {
        return rows;
    }

    /** The seed rows among the INSERTs read so far: those of ids below {@code seedRows}. */
    int seedRows(int seedRows) {
        return (int) inserted.stream().filter(key -> key.id() < seedRows).count();
    }

    /** How many keys of {@code keys} were not read as an INSERT. */
    int missing(Set<Key> keys) {
        return (int) keys.stream().filter(key -> !inserted.contains(key)).count();
    }

    /** Whether an UPDATE or DELETE was read: the binlog phase has begun. */
    boolean binlogPhase() {
        return changes;
    }

    @Override
    public void close() {
        consumer.close();
    }
}

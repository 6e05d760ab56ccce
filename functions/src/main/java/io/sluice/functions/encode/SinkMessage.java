package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded message on its way to a broker: topic, partition (or -1 to let the producer pick by
 * key), key, value (null for a Kafka tombstone), the binlog execute time as the record timestamp (0
 * when none), and the table it came from ({@code tag}, RocketMQ's tag). What the partition owners
 * order messages by travels beside it, in {@link OrderedMessage}, and never reaches the sink.
 */
@Internal
public final class SinkMessage {

    /** Partition value that lets the producer choose. */
    public static final int ANY_PARTITION = -1;

    private final String topic;
    private final int partition;
    private final byte[] key;
    private final byte[] value;
    private final long timestamp;
    private final String tag;

    /** An ordinary message with no tag. */
    public SinkMessage(String topic, int partition, byte[] key, byte[] value, long timestamp) {
        this(topic, partition, key, value, timestamp, null);
    }

    public SinkMessage(
            String topic, int partition, byte[] key, byte[] value, long timestamp, String tag) {
        this.topic = Objects.requireNonNull(topic, "topic must not be null");
        this.partition = partition;
        this.key = key;
        this.value = value;
        this.timestamp = timestamp;
        this.tag = tag;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    /** The key bytes, or null. Shared, not copied. */
    public byte[] key() {
        return key;
    }

    /** The value bytes, or null for a tombstone (debezium-json). Shared, not copied. */
    public byte[] value() {
        return value;
    }

    /** The value's size in bytes, 0 for a tombstone. */
    public int valueSize() {
        return value == null ? 0 : value.length;
    }

    public long timestamp() {
        return timestamp;
    }

    /** The source table's name (RocketMQ's message tag), or null. */
    public String tag() {
        return tag;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SinkMessage)) {
            return false;
        }
        SinkMessage that = (SinkMessage) o;
        return partition == that.partition
                && timestamp == that.timestamp
                && Objects.equals(tag, that.tag)
                && topic.equals(that.topic)
                && Arrays.equals(key, that.key)
                && Arrays.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(topic, partition, timestamp) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return topic
                + "/"
                + partition
                + (value == null ? " (tombstone)" : " (" + value.length + " bytes)");
    }
}

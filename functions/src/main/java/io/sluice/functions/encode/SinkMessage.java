package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * An encoded message on its way to a broker: topic, partition (or -1 to let the producer pick by
 * key), key, value, the binlog execute time as the record timestamp (0 when none), and the table it
 * came from ({@code tag}, RocketMQ's tag).
 *
 * <p>Three fields serve ordering, not the broker: {@code origin} is the index of the encoding
 * subtask that made the message, and {@code copies} is, for a statement, how many copies of it (one
 * per encoding subtask) reach the partition's owner, which merges them into one once every copy has
 * arrived; 0 for an ordinary message. {@code rank} is the SQL door's way to the same order: the
 * statements its path had passed when it was encoded (see {@code StatementOrderOperator}); 0 for
 * messages that need not wait.
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
    private final int origin;
    private final int copies;
    private final long rank;

    /** An ordinary message with no tag and no known origin. */
    public SinkMessage(String topic, int partition, byte[] key, byte[] value, long timestamp) {
        this(topic, partition, key, value, timestamp, null, -1, 0);
    }

    public SinkMessage(
            String topic,
            int partition,
            byte[] key,
            byte[] value,
            long timestamp,
            String tag,
            int origin,
            int copies) {
        this(topic, partition, key, value, timestamp, tag, origin, copies, 0);
    }

    public SinkMessage(
            String topic,
            int partition,
            byte[] key,
            byte[] value,
            long timestamp,
            String tag,
            int origin,
            int copies,
            long rank) {
        this.topic = Objects.requireNonNull(topic, "topic must not be null");
        this.partition = partition;
        this.key = key;
        this.value = Objects.requireNonNull(value, "value must not be null");
        this.timestamp = timestamp;
        this.tag = tag;
        this.origin = origin;
        if (copies < 0 || (copies > 0 && origin < 0)) {
            throw new IllegalArgumentException(
                    "copies must be 0, or positive with a known origin, but was "
                            + copies
                            + " from origin "
                            + origin);
        }
        this.copies = copies;
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative, but was " + rank);
        }
        this.rank = rank;
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

    /** The value bytes. Shared, not copied. */
    public byte[] value() {
        return value;
    }

    public long timestamp() {
        return timestamp;
    }

    /** The source table's name (RocketMQ's message tag), or null. */
    public String tag() {
        return tag;
    }

    /** The index of the encoding subtask that made this message, or -1 when unknown. */
    public int origin() {
        return origin;
    }

    /**
     * For one copy of a statement: how many copies its partition's owner waits for before it writes
     * the statement once. 0 for an ordinary message.
     */
    public int copies() {
        return copies;
    }

    /** The message's place among the SQL door's statements, or 0 when it need not wait. */
    public long rank() {
        return rank;
    }

    /** Whether this is one of several copies of a statement, merged by the partition's owner. */
    public boolean isCopy() {
        return copies > 0;
    }

    /** This message as the single one its owner writes: same content, no copy bookkeeping. */
    public SinkMessage merged() {
        return copies == 0
                ? this
                : new SinkMessage(topic, partition, key, value, timestamp, tag, origin, 0, rank);
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
                && origin == that.origin
                && copies == that.copies
                && rank == that.rank
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
        return topic + "/" + partition + " (" + value.length + " bytes)";
    }
}

package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;

import java.util.Arrays;
import java.util.Objects;

/**
 * A change on its way from the source to the encoders: the change, the hash of its table and
 * primary key (computed once, used by every exchange), its rank among the source's statements
 * ({@link StatementRank}, taken once, on the source subtask that read it), and, once routed, its
 * topic, partition and message key.
 */
@Internal
public final class RoutedChange {

    private final ChangeEvent change;
    private final int keyHash;
    private final long rank;
    private final String topic;
    private final int partition;
    private final byte[] key;

    public RoutedChange(
            ChangeEvent change, int keyHash, long rank, String topic, int partition, byte[] key) {
        this.change = Objects.requireNonNull(change, "change must not be null");
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative, but was " + rank);
        }
        this.keyHash = keyHash;
        this.rank = rank;
        this.topic = topic;
        this.partition = partition;
        this.key = key;
    }

    /** A change before routing. */
    public static RoutedChange unrouted(ChangeEvent change, int keyHash, long rank) {
        return new RoutedChange(change, keyHash, rank, null, -1, null);
    }

    /** This change with its routing decided. */
    public RoutedChange routed(String topic, int partition, byte[] key) {
        return new RoutedChange(change, keyHash, rank, topic, partition, key);
    }

    public ChangeEvent change() {
        return change;
    }

    public int keyHash() {
        return keyHash;
    }

    /** The change's place among the source's statements ({@link StatementRank}). */
    public long rank() {
        return rank;
    }

    /** The routed topic, or null before routing. */
    public String topic() {
        return topic;
    }

    /** The routed partition, or -1 before routing. */
    public int partition() {
        return partition;
    }

    /** The message key, or null (statements, tables without primary key, before routing). */
    public byte[] key() {
        return key;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RoutedChange)) {
            return false;
        }
        RoutedChange that = (RoutedChange) o;
        return keyHash == that.keyHash
                && rank == that.rank
                && partition == that.partition
                && change.equals(that.change)
                && Objects.equals(topic, that.topic)
                && Arrays.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(change, keyHash, rank, topic, partition) + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return change.type()
                + " "
                + change.database()
                + "."
                + change.table()
                + (topic == null ? "" : " -> " + topic + "/" + partition)
                + " rank "
                + rank;
    }
}

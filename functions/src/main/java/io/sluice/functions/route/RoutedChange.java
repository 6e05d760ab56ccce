package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;

import java.util.Arrays;
import java.util.Objects;

/**
 * A change on its way from the source to the encoders: the change, the hash of its table and
 * primary key (computed once, used by every exchange), and, once routed, its topic, partition and
 * message key.
 *
 * <p>A statement (DDL) travels as one copy per downstream subtask, so that it follows every row of
 * its table sent earlier on each path: {@code target} is the subtask a copy is meant for, {@code
 * origin} identifies the path the copy took so far, and {@code copies} counts all paths. Rows carry
 * {@code target} -1 and {@code copies} 0, and the origin of the path they took.
 */
@Internal
public final class RoutedChange {

    public static final int NO_TARGET = -1;

    private final ChangeEvent change;
    private final int keyHash;
    private final int target;
    private final int origin;
    private final int copies;
    private final String topic;
    private final int partition;
    private final byte[] key;

    public RoutedChange(
            ChangeEvent change,
            int keyHash,
            int target,
            int origin,
            int copies,
            String topic,
            int partition,
            byte[] key) {
        this.change = Objects.requireNonNull(change, "change must not be null");
        this.keyHash = keyHash;
        this.target = target;
        this.origin = origin;
        this.copies = copies;
        this.topic = topic;
        this.partition = partition;
        this.key = key;
    }

    /** A row, or a statement bound for {@code target}, before routing. */
    public static RoutedChange unrouted(ChangeEvent change, int keyHash, int target, int copies) {
        return new RoutedChange(change, keyHash, target, 0, copies, null, -1, null);
    }

    /** This change with its routing decided, on a path identified by {@code origin}. */
    public RoutedChange routed(
            String topic, int partition, byte[] key, int target, int origin, int copies) {
        return new RoutedChange(change, keyHash, target, origin, copies, topic, partition, key);
    }

    public ChangeEvent change() {
        return change;
    }

    public int keyHash() {
        return keyHash;
    }

    public int target() {
        return target;
    }

    public int origin() {
        return origin;
    }

    public int copies() {
        return copies;
    }

    /** The routed topic, or null before routing. */
    public String topic() {
        return topic;
    }

    /** The routed partition; for a statement, chosen later, once per partition of the topic. */
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
                && target == that.target
                && origin == that.origin
                && copies == that.copies
                && partition == that.partition
                && change.equals(that.change)
                && Objects.equals(topic, that.topic)
                && Arrays.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(change, keyHash, target, origin, copies, topic, partition)
                + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return change.type()
                + " "
                + change.database()
                + "."
                + change.table()
                + (topic == null ? "" : " -> " + topic + "/" + partition)
                + (copies > 0 ? " (copy from " + origin + " of " + copies + ")" : "");
    }
}

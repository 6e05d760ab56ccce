package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * Where a message sits in the sink's write-ahead log: writer run, committable number within the
 * run, index within that committable's queue batch. Stamped on each message as a user property so a
 * restored committer can tell, from a queue's tail, which of a replayed batch already arrived.
 */
@Internal
public record Position(long run, long batch, int index) {

    /** The user property holding the position. */
    public static final String PROPERTY = "SLUICE_POS";

    /** Whether this comes at or before {@code other} within the same run (false across runs). */
    public boolean notAfter(Position other) {
        return run == other.run
                && (batch < other.batch || (batch == other.batch && index <= other.index));
    }

    public String format() {
        return prefix(run, batch) + index;
    }

    /** What every position of one committable begins with: add the index to get its text. */
    public static String prefix(long run, long batch) {
        return Long.toHexString(run) + ":" + batch + ":";
    }

    /** The position in {@code text}, or null if it is absent or not one of ours. */
    public static Position parse(String text) {
        if (text == null) {
            return null;
        }
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            return null;
        }
        try {
            return new Position(
                    Long.parseUnsignedLong(parts[0], 16),
                    Long.parseLong(parts[1]),
                    Integer.parseInt(parts[2]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // Written out: the generated ones would keep the job's class loader alive in a
    // session cluster on Java 17 (JDK-8078641).
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Position)) {
            return false;
        }
        Position other = (Position) o;
        return run == other.run && batch == other.batch && index == other.index;
    }

    @Override
    public int hashCode() {
        return Objects.hash(run, batch, index);
    }

    @Override
    public String toString() {
        return "Position[run=" + run + ", batch=" + batch + ", index=" + index + "]";
    }
}

package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import java.util.Objects;

/**
 * A message on its way from an encoder to its partition's owner, with what the owner orders it by.
 * Only the owners read these fields; they pass the {@link #message()} alone to the sink.
 *
 * <p>{@code origin} is the path the message took (counted among the copies of a statement), and
 * {@code copies} is, for a copy of a statement, how many copies of it reach the partition's owner,
 * which writes it once when every copy has arrived (0 for any other message). {@code rank} is the
 * SQL door's place among statements: the statements its path had passed when it was encoded (0 for
 * a message that need not wait).
 */
@Internal
public final class OrderedMessage {

    private final SinkMessage message;
    private final int origin;
    private final int copies;
    private final long rank;

    public OrderedMessage(SinkMessage message, int origin, int copies, long rank) {
        this.message = Objects.requireNonNull(message, "message must not be null");
        if (copies < 0 || (copies > 0 && origin < 0)) {
            throw new IllegalArgumentException(
                    "copies must be 0, or positive with a known origin, but was "
                            + copies
                            + " from origin "
                            + origin);
        }
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative, but was " + rank);
        }
        this.origin = origin;
        this.copies = copies;
        this.rank = rank;
    }

    /** The message the sink writes. */
    public SinkMessage message() {
        return message;
    }

    /** The index of the path that brought this message, or -1 when unknown. */
    public int origin() {
        return origin;
    }

    /** For one copy of a statement: how many copies its owner waits for; 0 for anything else. */
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

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof OrderedMessage)) {
            return false;
        }
        OrderedMessage that = (OrderedMessage) o;
        return origin == that.origin
                && copies == that.copies
                && rank == that.rank
                && message.equals(that.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(message, origin, copies, rank);
    }

    @Override
    public String toString() {
        return message + " from path " + origin + (copies > 0 ? " (1 of " + copies + ")" : "");
    }
}

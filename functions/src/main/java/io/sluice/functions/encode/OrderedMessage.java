package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.normalize.StatementRank;

import java.util.Objects;

/**
 * A message on its way from an encoder to its partition's owner, with its {@link #rank()}, which
 * the owner orders it by ({@link StatementRank}); the owner passes the {@link #message()} alone to
 * the sink.
 */
@Internal
public final class OrderedMessage {

    private final SinkMessage message;
    private final long rank;

    public OrderedMessage(SinkMessage message, long rank) {
        this.message = Objects.requireNonNull(message, "message must not be null");
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative, but was " + rank);
        }
        this.rank = rank;
    }

    /** The message the sink writes. */
    public SinkMessage message() {
        return message;
    }

    /** The message's place among the source's statements, or 0 when it need not wait. */
    public long rank() {
        return rank;
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
        return rank == that.rank && message.equals(that.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(message, rank);
    }

    @Override
    public String toString() {
        return message + " rank " + rank;
    }
}

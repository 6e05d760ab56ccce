package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;

/**
 * What an encoder emits for each message: the message alone, when the sink's writers write the
 * encoders' output in place, or an {@link OrderedMessage} with the rank its partition's owner
 * orders by, when owners follow.
 *
 * @param <OUT> {@link SinkMessage} or {@link OrderedMessage}
 */
@Internal
public interface MessageOut<OUT> extends Serializable {

    /** Messages written in place: the rank is not needed and dropped. */
    MessageOut<SinkMessage> IN_PLACE = new InPlace();

    /** Messages for the partition owners. */
    MessageOut<OrderedMessage> TO_OWNERS = new ToOwners();

    /** What to emit for {@code message} of {@code rank}. */
    OUT of(SinkMessage message, long rank);

    /** {@link #IN_PLACE}. */
    final class InPlace implements MessageOut<SinkMessage> {
        private static final long serialVersionUID = 1L;

        private InPlace() {}

        @Override
        public SinkMessage of(SinkMessage message, long rank) {
            return message;
        }
    }

    /** {@link #TO_OWNERS}. */
    final class ToOwners implements MessageOut<OrderedMessage> {
        private static final long serialVersionUID = 1L;

        private ToOwners() {}

        @Override
        public OrderedMessage of(SinkMessage message, long rank) {
            return new OrderedMessage(message, rank);
        }
    }
}

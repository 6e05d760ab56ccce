package io.sluice.serializers.canal;

import io.sluice.serializers.event.ChangeEvent;

import java.util.List;

/**
 * Writes changes as one broker message. Implementations reuse their buffers between calls, so an
 * instance serves one thread.
 */
public interface ChangeEncoder {

    /**
     * Encodes {@code changes} as one message, as Canal writes one binlog rows event: every change
     * has the same table schema and type, and rows keep their order. A statement (DDL) is encoded
     * alone.
     *
     * @param changes at least one change
     * @param messageId Canal's message id ({@code id} in flat JSON, {@code batch_id} in protobuf)
     * @param buildTime Canal's {@code ts}: when the message is built, in epoch milliseconds
     * @return a new array that the caller owns
     */
    byte[] encode(List<ChangeEvent> changes, long messageId, long buildTime);
}

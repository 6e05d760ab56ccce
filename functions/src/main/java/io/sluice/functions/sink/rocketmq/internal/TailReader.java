package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;

/**
 * Reads the {@link Position} stamped on the last message of a queue: where the sink's previous
 * sends to that queue stopped ({@link PullTailReader}).
 */
@Internal
public interface TailReader extends AutoCloseable {

    /**
     * The position on the last message of {@code queue}, or null when the queue is empty or its
     * last message carries none (not written by this sink).
     */
    Position lastPosition(MessageQueue queue) throws IOException, InterruptedException;

    @Override
    void close();
}

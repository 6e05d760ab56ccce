package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/**
 * Sends messages to one queue at a time, in order, synchronously: what the writer and the committer
 * need from RocketMQ's producer ({@link ProducerQueueSender}).
 */
@Internal
public interface QueueSender extends AutoCloseable {

    /** Queues of {@code topic} as the name server routes them; fails clearly if there are none. */
    List<MessageQueue> queuesOf(String topic) throws IOException;

    /** The {@code index}-th queue of {@code topic}; fails clearly if the topic has fewer. */
    default MessageQueue queue(String topic, int index) throws IOException {
        List<MessageQueue> all = queuesOf(topic);
        if (index < 0 || index >= all.size()) {
            throw new IOException(
                    "Topic '"
                            + topic
                            + "' has "
                            + all.size()
                            + " queues, but a message is routed to queue "
                            + index
                            + ". Keep route.partition-counts in line with the topic.");
        }
        return all.get(index);
    }

    /**
     * Sends {@code messages} to {@code queue} in order, in batches; after each batch the broker
     * stored, {@code stored} hears how many messages of the list are stored so far. A send cut
     * short by the task's cancellation throws {@link InterruptedException}, any other failure
     * {@link IOException}.
     */
    void send(MessageQueue queue, List<Message> messages, Progress stored)
            throws IOException, InterruptedException;

    @Override
    void close();

    /** Hears of each stored batch. */
    @FunctionalInterface
    interface Progress {
        /**
         * @param storedSoFar messages of the list stored so far
         * @param bytes body bytes of the last batch
         * @param count messages in the last batch
         */
        void stored(int storedSoFar, long bytes, int count) throws IOException;
    }

    /**
     * Opens the sink's senders on the task managers, so it travels with the sink: serializable.
     * {@code role} names the client instance (one per writer or committer).
     */
    @FunctionalInterface
    interface Factory extends Serializable {
        QueueSender open(ClientSettings settings, String role) throws IOException;
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;
import java.util.List;

/** Reads a queue's last message with a pull consumer of group {@code <producerGroup>-tail}. */
@Internal
@SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client that pulls a given offset.
public final class PullTailReader implements TailReader {

    private final DefaultMQPullConsumer consumer;

    public PullTailReader(ClientSettings settings, String role) throws IOException {
        this.consumer = settings.newTailConsumer(role);
        try {
            consumer.start();
        } catch (MQClientException | RuntimeException e) {
            // A start that failed half-way may have started the client's threads.
            consumer.shutdown();
            throw new IOException(
                    "Cannot start a RocketMQ consumer for name server " + settings.nameServer(), e);
        }
    }

    @Override
    public Position lastPosition(MessageQueue queue) throws IOException, InterruptedException {
        try {
            long end = consumer.maxOffset(queue);
            if (end <= 0) {
                return null;
            }
            PullResult result = consumer.pull(queue, "*", end - 1, 1);
            if (result.getPullStatus() != PullStatus.FOUND) {
                throw new IOException(
                        "Cannot read the last message of "
                                + queue
                                + " at offset "
                                + (end - 1)
                                + ": "
                                + result.getPullStatus());
            }
            List<MessageExt> found = result.getMsgFoundList();
            MessageExt last = found.get(found.size() - 1);
            return Position.parse(last.getUserProperty(Position.PROPERTY));
        } catch (InterruptedException | IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot read the tail of " + queue + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}

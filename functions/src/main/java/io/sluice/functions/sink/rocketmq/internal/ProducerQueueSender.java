package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.ExceptionUtils;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends messages to one queue at a time through a RocketMQ producer, synchronously, in batches
 * within the configured limits: a batch lands whole and in order, and the next starts only after
 * the broker stored the previous one, so per-queue order holds without relying on how the broker
 * schedules concurrent requests.
 *
 * <p>Queue {@code i} of a topic is the {@code i}-th of the producer's publish queues (sorted by
 * broker), the list Canal's own producer selects from. The list is read once per topic: a queue
 * count that changed under a running job would move keys between queues.
 */
@Internal
public final class ProducerQueueSender implements QueueSender {

    private final ClientSettings settings;
    private final DefaultMQProducer producer;
    private final Map<String, List<MessageQueue>> queues = new HashMap<>();

    public ProducerQueueSender(ClientSettings settings, String role) throws IOException {
        this.settings = settings;
        this.producer = settings.newProducer(role);
        try {
            producer.start();
        } catch (MQClientException | RuntimeException e) {
            // A start that failed half-way may have started the client's threads.
            producer.shutdown();
            throw new IOException(
                    "Cannot start a RocketMQ producer for name server " + settings.nameServer(), e);
        }
    }

    @Override
    public List<MessageQueue> queuesOf(String topic) throws IOException {
        List<MessageQueue> known = queues.get(topic);
        if (known == null) {
            known = fetchQueues(producer, topic, settings.nameServer());
            queues.put(topic, known);
        }
        return known;
    }

    @Override
    public void send(MessageQueue queue, List<Message> messages, Progress stored)
            throws IOException, InterruptedException {
        int from = 0;
        while (from < messages.size()) {
            int to = from;
            long bytes = 0;
            while (to < messages.size()
                    && to - from < settings.batchMaxMessages()
                    && (to == from
                            || bytes + messages.get(to).getBody().length
                                    <= settings.batchMaxBytes())) {
                bytes += messages.get(to).getBody().length;
                to++;
            }
            List<Message> batch = messages.subList(from, to);
            SendResult result;
            try {
                result =
                        batch.size() == 1
                                ? producer.send(batch.get(0), queue)
                                : producer.send(new ArrayList<>(batch), queue);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (ExceptionUtils.findThrowable(e, InterruptedException.class).isPresent()) {
                    // A cancelled task, not a failed send: the client wraps the interrupt.
                    InterruptedException cancelled =
                            new InterruptedException("Sending to " + queue + " was interrupted");
                    cancelled.initCause(e);
                    throw cancelled;
                }
                throw new IOException(
                        "Sending "
                                + batch.size()
                                + " messages ("
                                + bytes
                                + " bytes) to "
                                + queue
                                + " failed: "
                                + e.getMessage(),
                        e);
            }
            if (result.getSendStatus() != SendStatus.SEND_OK) {
                // Stored, but not as durably as asked; the job restarts and replays.
                throw new IOException(
                        "Broker answered " + result.getSendStatus() + " for a batch to " + queue);
            }
            stored.stored(to, bytes, batch.size());
            from = to;
        }
    }

    @Override
    public void close() {
        producer.shutdown();
    }

    /** Reads the publish queues of {@code topic} through a started producer. */
    static List<MessageQueue> fetchQueues(
            DefaultMQProducer producer, String topic, String nameServer) throws IOException {
        try {
            List<MessageQueue> found = producer.fetchPublishMessageQueues(topic);
            if (found == null || found.isEmpty()) {
                throw new IOException(noTopic(topic, nameServer));
            }
            return List.copyOf(found);
        } catch (MQClientException e) {
            throw new IOException(noTopic(topic, nameServer), e);
        }
    }

    private static String noTopic(String topic, String nameServer) {
        return "Topic '"
                + topic
                + "' has no writable queues at name server "
                + nameServer
                + ". Create it, or route the table elsewhere (route.dynamic-topic,"
                + " route.topic-template).";
    }
}

package io.sluice.job.canal;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * RocketMQ topics read through a name server, queue by queue from the first offset to the end each
 * queue has at start. A plain pull sees only committed messages: a transactional producer's (as
 * Canal's and Sluice's sinks may be) half messages are not in the topic until committed.
 */
@SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client that pulls a given offset.
final class RocketMqSource implements MessageSource {

    private static final int PULL_BATCH = 256;

    private final DefaultMQPullConsumer consumer;
    private final Map<String, MessageQueue> queues = new LinkedHashMap<>();
    private final Map<String, Long> next = new LinkedHashMap<>();
    private final Map<String, Long> ends = new LinkedHashMap<>();
    private final long total;

    RocketMqSource(String side, String nameServer, List<String> topics) {
        String group = "sluice-canal-diff-" + UUID.randomUUID();
        this.consumer = new DefaultMQPullConsumer(group);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(group);
        consumer.setVipChannelEnabled(false);
        long sum = 0;
        try {
            consumer.start();
            for (String topic : topics) {
                List<MessageQueue> ofTopic;
                try {
                    ofTopic = new ArrayList<>(consumer.fetchSubscribeMessageQueues(topic));
                } catch (MQClientException e) {
                    throw new IllegalArgumentException(
                            side
                                    + " topic 'rocketmq://"
                                    + nameServer
                                    + "/"
                                    + topic
                                    + "' cannot be read (no such topic, or the name server does"
                                    + " not answer): "
                                    + firstLine(e.getErrorMessage()));
                }
                Collections.sort(ofTopic);
                for (MessageQueue queue : ofTopic) {
                    String id = MessageSource.partition(topic, queue.getQueueId());
                    long start = consumer.minOffset(queue);
                    long end = consumer.maxOffset(queue);
                    queues.put(id, queue);
                    next.put(id, start);
                    ends.put(id, end);
                    sum += end - start;
                }
            }
        } catch (MQClientException e) {
            consumer.shutdown();
            throw new IllegalArgumentException(
                    side
                            + " topics "
                            + topics
                            + " via name server "
                            + nameServer
                            + ": "
                            + firstLine(e.getErrorMessage()));
        } catch (RuntimeException e) {
            consumer.shutdown();
            throw e;
        }
        this.total = sum;
    }

    @Override
    public List<String> partitions() {
        return new ArrayList<>(queues.keySet());
    }

    @Override
    public long total() {
        return total;
    }

    @Override
    public List<Message> poll(Set<String> paused) {
        List<Message> messages = new ArrayList<>();
        for (Map.Entry<String, MessageQueue> queue : queues.entrySet()) {
            String id = queue.getKey();
            if (paused.contains(id) || finished(id)) {
                continue;
            }
            long offset = next.get(id);
            PullResult result;
            try {
                result = consumer.pull(queue.getValue(), "*", offset, PULL_BATCH);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("cannot pull " + id + "@" + offset + ": " + e, e);
            }
            if (result.getPullStatus() == PullStatus.FOUND) {
                for (MessageExt m : result.getMsgFoundList()) {
                    if (m.getQueueOffset() < ends.get(id)) {
                        messages.add(
                                new Message(
                                        m.getTopic(),
                                        m.getQueueId(),
                                        m.getQueueOffset(),
                                        m.getKeys() != null,
                                        m.getBody()));
                    }
                }
            }
            if (result.getPullStatus() != PullStatus.FOUND
                    && result.getNextBeginOffset() <= offset) {
                throw new IllegalStateException(
                        "cannot pull " + id + "@" + offset + ": " + result.getPullStatus());
            }
            next.put(id, Math.max(offset, result.getNextBeginOffset()));
        }
        return messages;
    }

    @Override
    public boolean finished(String partition) {
        return next.get(partition) >= ends.get(partition);
    }

    @Override
    public void close() {
        consumer.shutdown();
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}

package io.sluice.tools.bench;

import io.sluice.functions.encode.SinkMessage;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * The RocketMQ {@link SinkReader}: a pull consumer that reads every queue of the run's topics from
 * offset 0 and keeps each queue's next offset itself, so every stored message is read once. The
 * window starts at the earliest store timestamp and ends at the wall time at which the expected
 * count was read. The sink sends plain messages once their checkpoint completed (write-ahead), so
 * everything stored is what a consumer may read. With {@link LoadStats} tracking commits, each
 * insert's first message gives one latency sample (the key is the primary key, as in Kafka).
 */
@SuppressWarnings("deprecation") // DefaultMQPullConsumer: the client that pulls a given offset.
final class RocketMqReader extends SinkReader {

    private static final int PULL_BATCH = 256;

    private final DefaultMQPullConsumer consumer;
    private final List<MessageQueue> queues = new ArrayList<>();
    private final long[] offsets;

    RocketMqReader(
            String nameServer, List<String> topics, int queuesPerTopic, LoadStats commits, int keep)
            throws MQClientException {
        super(commits, keep);
        String group = "sluice-bench-reader-" + UUID.randomUUID();
        this.consumer = new DefaultMQPullConsumer(group);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(group);
        // The broker's fast port is OS-assigned (see RocketMqServer).
        consumer.setVipChannelEnabled(false);
        consumer.start();
        try {
            for (String topic : topics) {
                List<MessageQueue> ofTopic =
                        new ArrayList<>(consumer.fetchSubscribeMessageQueues(topic));
                if (ofTopic.size() != queuesPerTopic) {
                    throw new IllegalStateException(
                            "Expected "
                                    + queuesPerTopic
                                    + " queue(s) of "
                                    + topic
                                    + ", the name server routes "
                                    + ofTopic);
                }
                Collections.sort(ofTopic);
                queues.addAll(ofTopic);
            }
        } catch (MQClientException | RuntimeException e) {
            consumer.shutdown();
            throw e;
        }
        this.offsets = new long[queues.size()];
        start("bench-rocketmq-reader");
    }

    @Override
    void poll() throws Exception {
        boolean found = false;
        for (int q = 0; q < queues.size() && running(); q++) {
            PullResult result = consumer.pull(queues.get(q), "*", offsets[q], PULL_BATCH);
            if (result.getPullStatus() == PullStatus.OFFSET_ILLEGAL) {
                throw new IllegalStateException(
                        "Offset " + offsets[q] + " of " + queues.get(q) + " is illegal");
            }
            if (result.getPullStatus() == PullStatus.FOUND) {
                found = true;
                add(result.getMsgFoundList());
            }
            offsets[q] = result.getNextBeginOffset();
        }
        if (!found) {
            Thread.sleep(5);
        }
    }

    @Override
    void release() {
        consumer.shutdown();
    }

    private void add(List<MessageExt> messages) {
        long now = System.currentTimeMillis();
        long batchBytes = 0;
        int batchRows = 0;
        for (MessageExt message : messages) {
            batchRows += rowsOf(message.getBody());
            String key = message.getKeys();
            byte[] keyBytes = key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
            batchBytes +=
                    keyBytes.length + (message.getBody() == null ? 0 : message.getBody().length);
            read(keyBytes, message.getStoreTimestamp(), now);
            if (keeping()) {
                keep(
                        new SinkMessage(
                                message.getTopic(),
                                message.getQueueId(),
                                key == null ? null : keyBytes,
                                message.getBody(),
                                message.getStoreTimestamp(),
                                message.getTags()));
            }
        }
        tally(messages.size(), batchRows, batchBytes, now);
    }
}

package io.sluice.it.bench;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RocketMQ {@link SinkReader}: a lite pull consumer in a fresh group, assigned every queue of
 * the run's topics from offset 0. It counts each (topic, queue, offset) once (one broker), takes
 * the earliest store timestamp as the start of the window and the wall time at which the expected
 * count was reached as its end. The sink sends plain messages only after a checkpoint completed
 * (write-ahead), so everything stored is what a consumer may read. With {@link LoadStats} tracking
 * commits, each insert's first message gives one latency sample (the key is the primary key, as in
 * Kafka).
 */
final class RocketMqReader implements SinkReader {

    private static final long POLL_MILLIS = 100;

    private final DefaultLitePullConsumer consumer;
    private final Thread thread;
    private final LoadStats commits;
    private final Map<String, Long> nextOffsets = new HashMap<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong firstStored = new AtomicLong(Long.MAX_VALUE);
    private final List<Long> latencies = new ArrayList<>();
    private volatile long expected = Long.MAX_VALUE;
    private volatile long doneMillis;
    private volatile boolean running = true;
    private volatile Exception failure;

    RocketMqReader(String nameServer, List<String> topics, int queues, LoadStats commits)
            throws MQClientException {
        this.commits = commits;
        String group = "sluice-bench-reader-" + UUID.randomUUID();
        this.consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(group);
        // The broker's fast port is OS-assigned (see RocketMqServer).
        consumer.setVipChannelEnabled(false);
        consumer.setAutoCommit(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPullThreadNums(2);
        consumer.setPullBatchSize(256);
        consumer.setPollTimeoutMillis(POLL_MILLIS);
        consumer.start();
        List<MessageQueue> all = new ArrayList<>();
        for (String topic : topics) {
            all.addAll(consumer.fetchMessageQueues(topic));
        }
        if (all.size() != topics.size() * queues) {
            consumer.shutdown();
            throw new IllegalStateException(
                    "Expected "
                            + queues
                            + " queue(s) per topic of "
                            + topics
                            + ", the name server routes "
                            + all);
        }
        // A fresh group from the first offset starts every queue at 0; no seek() (it races
        // with the pull assign() starts, see RocketMqServer).
        consumer.assign(all);
        this.thread = new Thread(this::run, "bench-rocketmq-reader");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        try {
            while (running) {
                List<MessageExt> messages = consumer.poll(POLL_MILLIS);
                if (messages.isEmpty()) {
                    continue;
                }
                long now = System.currentTimeMillis();
                long batchBytes = 0;
                long fresh = 0;
                for (MessageExt message : messages) {
                    String queue = message.getTopic() + '#' + message.getQueueId();
                    long next = nextOffsets.getOrDefault(queue, 0L);
                    if (message.getQueueOffset() < next) {
                        continue; // pulled again: counted once
                    }
                    nextOffsets.put(queue, message.getQueueOffset() + 1);
                    fresh++;
                    String key = message.getKeys();
                    batchBytes +=
                            (message.getBody() == null ? 0 : message.getBody().length)
                                    + (key == null
                                            ? 0
                                            : key.getBytes(StandardCharsets.UTF_8).length);
                    firstStored.accumulateAndGet(message.getStoreTimestamp(), Math::min);
                    if (commits != null && key != null) {
                        Long committed =
                                commits.takeCommit(
                                        TopicReader.tableAndId(
                                                key.getBytes(StandardCharsets.UTF_8)));
                        if (committed != null) {
                            latencies.add(now - committed);
                        }
                    }
                }
                bytes.addAndGet(batchBytes);
                if (count.addAndGet(fresh) >= expected && doneMillis == 0) {
                    doneMillis = now;
                }
            }
        } catch (Exception e) {
            if (running) {
                failure = e;
            }
        } finally {
            consumer.shutdown();
        }
    }

    @Override
    public boolean await(long n, Duration timeout) throws InterruptedException {
        expected = n;
        if (count.get() >= n && doneMillis == 0) {
            doneMillis = System.currentTimeMillis();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count.get() < n && System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException(
                        "The benchmark's RocketMQ consumer failed", failure);
            }
            Thread.sleep(20);
        }
        return count.get() >= n;
    }

    @Override
    public long count() {
        return count.get();
    }

    @Override
    public long bytes() {
        return bytes.get();
    }

    @Override
    public long firstAppendMillis() {
        return firstStored.get();
    }

    @Override
    public long doneMillis() {
        return doneMillis;
    }

    @Override
    public List<Long> latencies() {
        return latencies;
    }

    @Override
    public void close() throws InterruptedException {
        if (!running) {
            return;
        }
        running = false;
        thread.join(10_000);
    }
}

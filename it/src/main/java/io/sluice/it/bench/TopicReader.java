package io.sluice.it.bench;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka {@link SinkReader}: a read_committed consumer of the benchmark's topics (created with
 * LogAppendTime). It counts the messages, and notes the broker's append time of the first one and
 * the wall time at which the last expected one became readable: the run's end-to-end window. With
 * {@link LoadStats} tracking commits, each insert's first message gives one latency sample. It can
 * keep the first messages read, as pre-encoded input for the producer-limit baseline.
 */
final class TopicReader implements SinkReader {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final LoadStats commits;
    private final int keep;
    private final List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong firstAppend = new AtomicLong(Long.MAX_VALUE);
    private final List<Long> latencies = new ArrayList<>();
    private volatile long expected = Long.MAX_VALUE;
    private volatile long doneMillis;
    private volatile boolean running = true;
    private volatile Exception failure;

    TopicReader(
            String bootstrapServers,
            List<String> topics,
            int partitions,
            LoadStats commits,
            int keep) {
        this.commits = commits;
        this.keep = keep;
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(props);
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topics) {
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
        this.thread = new Thread(this::run, "bench-reader");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        try {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (records.isEmpty()) {
                    continue;
                }
                long now = System.currentTimeMillis();
                long batchBytes = 0;
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    batchBytes +=
                            Math.max(0, record.serializedKeySize())
                                    + Math.max(0, record.serializedValueSize());
                    if (firstAppend.get() == Long.MAX_VALUE) {
                        firstAppend.set(record.timestamp());
                    }
                    if (commits != null && record.key() != null) {
                        Long committed = commits.takeCommit(tableAndId(record.key()));
                        if (committed != null) {
                            latencies.add(now - committed);
                        }
                    }
                    if (kept.size() < keep) {
                        kept.add(record);
                    }
                }
                bytes.addAndGet(batchBytes);
                if (count.addAndGet(records.count()) >= expected && doneMillis == 0) {
                    doneMillis = now;
                }
            }
        } catch (Exception e) {
            if (running) {
                failure = e;
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** {@code table/id} of a Sluice message key {@code ["db","table","id"]}. */
    static String tableAndId(byte[] key) {
        String text = new String(key, StandardCharsets.UTF_8);
        int afterDb = text.indexOf("\",\"");
        int tableEnd = text.indexOf('"', afterDb + 3);
        String table = text.substring(afterDb + 3, tableEnd);
        StringBuilder id = new StringBuilder();
        for (int i = tableEnd + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                id.append(c);
            }
        }
        return table + '/' + id;
    }

    /**
     * Waits until {@code n} messages are readable, the reader fails, or {@code timeout} passes;
     * returns whether they all are.
     */
    @Override
    public boolean await(long n, Duration timeout) throws InterruptedException {
        expected = n;
        if (count.get() >= n && doneMillis == 0) {
            doneMillis = System.currentTimeMillis();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count.get() < n && System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException("The benchmark's consumer failed", failure);
            }
            Thread.sleep(20);
        }
        return count.get() >= n;
    }

    @Override
    public long count() {
        return count.get();
    }

    /** Key and value bytes of the messages read. */
    @Override
    public long bytes() {
        return bytes.get();
    }

    /** Broker append time of the first message read. */
    @Override
    public long firstAppendMillis() {
        return firstAppend.get();
    }

    /** Wall time at which the expected count was reached. */
    @Override
    public long doneMillis() {
        return doneMillis;
    }

    /** Latency samples in ms; read after {@link #close()}. */
    @Override
    public List<Long> latencies() {
        return latencies;
    }

    /** The first messages read; read after {@link #close()}. */
    List<ConsumerRecord<byte[], byte[]>> kept() {
        return kept;
    }

    @Override
    public void close() throws InterruptedException {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        thread.join(10_000);
    }
}

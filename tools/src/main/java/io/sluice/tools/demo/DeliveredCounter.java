package io.sluice.tools.demo;

import io.sluice.functions.sink.KafkaClientProperties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Counts what a read_committed consumer can read of a topic, and how fresh the newest record is.
 */
final class DeliveredCounter implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong newestTimestamp = new AtomicLong();
    private volatile boolean running = true;
    private volatile Exception failure;

    /**
     * @param client the job's Kafka client settings ({@link KafkaClientProperties#common})
     */
    DeliveredCounter(Properties client, String topic, int partitions) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(props);
        List<TopicPartition> all =
                IntStream.range(0, partitions)
                        .mapToObj(p -> new TopicPartition(topic, p))
                        .collect(Collectors.toList());
        consumer.assign(all);
        consumer.seekToBeginning(all);
        this.thread = new Thread(this::run, "demo-delivered-counter");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(200))) {
                    delivered.incrementAndGet();
                    newestTimestamp.accumulateAndGet(record.timestamp(), Math::max);
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

    long delivered() {
        if (failure != null) {
            throw new IllegalStateException("The delivery counter failed", failure);
        }
        return delivered.get();
    }

    /** Milliseconds between now and the binlog time of the newest delivered change. */
    long lagMillis() {
        long newest = newestTimestamp.get();
        return newest == 0 ? -1 : Math.max(0, System.currentTimeMillis() - newest);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(10_000);
    }
}

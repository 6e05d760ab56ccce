package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.encode.MessageLimits;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Kafka's limits on one record: the producer's {@code max.request.size}, and each topic's {@code
 * max.message.bytes} when the brokers tell it (asked once per topic, when it is first written). A
 * record counts its value, its key and the record batch's framing.
 */
@Internal
public final class KafkaMessageLimits implements MessageLimits {

    /**
     * A record batch's header (61 bytes) and one record's own framing (at most 21), rounded up:
     * what the producer adds to key and value before it compares with max.request.size.
     */
    static final int RECORD_OVERHEAD = 128;

    private static final Logger LOG = LoggerFactory.getLogger(KafkaMessageLimits.class);
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final long maxRequest;
    private final KafkaTopicAdmin admin;
    private final Map<String, Long> topics = new HashMap<>();

    KafkaMessageLimits(long maxRequest, Properties client) {
        this.maxRequest = maxRequest;
        this.admin = new KafkaTopicAdmin(client, LOOKUP_TIMEOUT);
    }

    /** The limits of the producer and topics {@code producer} and {@code client} describe. */
    public static MessageLimits.Factory factory(Map<String, String> producer, Properties client) {
        long maxRequest = KafkaTopicAdmin.maxRequestSize(producer);
        Properties copy = new Properties();
        copy.putAll(client);
        return () -> new KafkaMessageLimits(maxRequest, copy);
    }

    @Override
    public long limitOf(String topic) {
        Long topicMax = topics.get(topic);
        if (topicMax == null) {
            topicMax = topicMaxOf(topic);
            topics.put(topic, topicMax);
        }
        return Math.min(maxRequest, topicMax);
    }

    @Override
    public long sizeOf(byte[] key, byte[] value) {
        return (long) value.length + (key == null ? 0 : key.length) + RECORD_OVERHEAD;
    }

    @Override
    public String describe(String topic) {
        Long topicMax = topics.get(topic);
        return topicMax != null && topicMax < maxRequest
                ? "topic '" + topic + "' max.message.bytes=" + topicMax
                : "producer max.request.size=" + maxRequest;
    }

    /** The topic's max.message.bytes, or Long.MAX_VALUE when the brokers do not tell. */
    private long topicMaxOf(String topic) {
        try {
            return admin.maxMessageBytes(topic).orElse(Long.MAX_VALUE);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn(
                    "Cannot read {} of topic '{}' ({}); large rows are judged by the producer's"
                            + " max.request.size={} alone. To have it read, allow the job's"
                            + " principal DESCRIBE_CONFIGS on the topic.",
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    topic,
                    e.getCause() == null ? e : e.getCause(),
                    maxRequest);
            return Long.MAX_VALUE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted reading topic '" + topic + "'", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}

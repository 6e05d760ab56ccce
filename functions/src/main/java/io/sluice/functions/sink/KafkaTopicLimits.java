package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Whether a topic takes every message the producer may send: a message above the topic's {@code
 * max.message.bytes} but within the producer's {@code max.request.size} fails its write. For {@code
 * ./sluice validate}; a topic that does not exist yet or cannot be described is not judged.
 */
@Internal
public final class KafkaTopicLimits {

    private KafkaTopicLimits() {}

    /** The problem with {@code topic}'s size limit, if any. */
    public static Optional<String> check(
            Properties client, Map<String, String> producer, String topic, Duration wait) {
        long request = KafkaTopicAdmin.maxRequestSize(producer);
        OptionalLong max;
        try (KafkaTopicAdmin admin = new KafkaTopicAdmin(client, wait)) {
            max = admin.maxMessageBytes(topic);
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty(); // Not there yet, or not ours to describe: nothing to judge.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        if (max.isEmpty() || max.getAsLong() >= request) {
            return Optional.empty();
        }
        return Optional.of(
                String.format(
                        "Topic '%s' takes messages of at most %s bytes (%s), but the producer"
                                + " may send %s (sink.properties.%s): a larger row fails its"
                                + " write. Raise the topic's %s, or lower the producer's.",
                        topic,
                        max.getAsLong(),
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                        request,
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        TopicConfig.MAX_MESSAGE_BYTES_CONFIG));
    }
}

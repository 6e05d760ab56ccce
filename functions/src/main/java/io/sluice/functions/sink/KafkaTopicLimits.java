package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a topic takes every message the producer may send: a message above the topic's {@code
 * max.message.bytes} but within the producer's {@code max.request.size} fails its write. For {@code
 * ./sluice validate}; a topic that does not exist yet or cannot be described is not judged.
 */
@Internal
public final class KafkaTopicLimits {

    private static final long PRODUCER_DEFAULT_MAX_REQUEST = 1_048_576L;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private KafkaTopicLimits() {}

    /** The problem with {@code topic}'s size limit, if any. */
    public static Optional<String> check(
            Properties client, Map<String, String> producer, String topic, Duration wait) {
        long request =
                Long.parseLong(
                        producer.getOrDefault(
                                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                                Long.toString(PRODUCER_DEFAULT_MAX_REQUEST)));
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Admin admin = Admin.create(client);
        try {
            Config config =
                    admin.describeConfigs(List.of(resource))
                            .all()
                            .get(wait.toMillis(), TimeUnit.MILLISECONDS)
                            .get(resource);
            ConfigEntry max =
                    config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (max == null || max.value() == null || Long.parseLong(max.value()) >= request) {
                return Optional.empty();
            }
            return Optional.of(
                    String.format(
                            "Topic '%s' takes messages of at most %s bytes (%s), but the producer"
                                    + " may send %s (sink.properties.%s): a larger row fails its"
                                    + " write. Raise the topic's %s, or lower the producer's.",
                            topic,
                            max.value(),
                            TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                            request,
                            ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                            TopicConfig.MAX_MESSAGE_BYTES_CONFIG));
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty(); // Not there yet, or not ours to describe: nothing to judge.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            // Not the default close, which waits for calls that timed out here.
            admin.close(CLOSE_WAIT);
        }
    }
}

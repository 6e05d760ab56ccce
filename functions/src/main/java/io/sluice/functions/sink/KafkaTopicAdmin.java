package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The questions the Kafka sink asks the brokers about topics and themselves, through one admin
 * client opened at the first question. Each answer is awaited at most {@code wait}; a failed or
 * late one is thrown as it came ({@link ExecutionException}, {@link TimeoutException}), so each
 * caller decides whether that stops the job, warns or is not judged.
 */
@Internal
final class KafkaTopicAdmin implements AutoCloseable {

    /** Kafka's default {@code max.request.size}. */
    static final long PRODUCER_DEFAULT_MAX_REQUEST = 1_048_576L;

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Properties client;
    private final Duration wait;
    private Admin admin;

    /**
     * @param client the admin client's settings ({@link KafkaClientProperties#common})
     * @param wait how long one answer may take
     */
    KafkaTopicAdmin(Properties client, Duration wait) {
        this.client = new Properties();
        this.client.putAll(client);
        this.wait = wait;
    }

    /** The producer's {@code max.request.size} in {@code producer}, else Kafka's default. */
    static long maxRequestSize(Map<String, String> producer) {
        return Long.parseLong(
                producer.getOrDefault(
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        Long.toString(PRODUCER_DEFAULT_MAX_REQUEST)));
    }

    /** The topic's {@code max.message.bytes}; empty when the brokers leave it out. */
    OptionalLong maxMessageBytes(String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = await(admin().describeConfigs(List.of(resource)).all()).get(resource);
        ConfigEntry max = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        return max == null || max.value() == null
                ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(max.value()));
    }

    /** How many partitions the topic has. */
    int partitionCount(String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        return await(admin().describeTopics(List.of(topic)).allTopicNames())
                .get(topic)
                .partitions()
                .size();
    }

    /** Every broker's configuration, by broker. */
    Map<ConfigResource, Config> brokerConfigs()
            throws ExecutionException, TimeoutException, InterruptedException {
        Collection<Node> brokers = await(admin().describeCluster().nodes());
        List<ConfigResource> resources =
                brokers.stream()
                        .map(b -> new ConfigResource(ConfigResource.Type.BROKER, b.idString()))
                        .collect(Collectors.toList());
        return await(admin().describeConfigs(resources).all());
    }

    @Override
    public void close() {
        if (admin != null) {
            // Not the default close, which waits for calls that timed out here.
            admin.close(CLOSE_WAIT);
        }
    }

    private Admin admin() {
        if (admin == null) {
            admin = Admin.create(client);
        }
        return admin;
    }

    private <T> T await(KafkaFuture<T> answer)
            throws ExecutionException, TimeoutException, InterruptedException {
        return answer.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    }
}

package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Kafka client settings of a job, for every Kafka client Sluice opens: the producers, the admin
 * clients (partition counts, the broker check) and the consumers of the benchmark and the demo. All
 * come from {@link KafkaSinkOptions#BOOTSTRAP_SERVERS} and the {@code properties.*} keys (YAML:
 * {@code sink.kafka.properties.*}), so a cluster that wants SASL or SSL is reached the same way by
 * each of them.
 */
@Internal
public final class KafkaClientProperties {

    /**
     * Keys every Kafka client knows, producer, consumer and admin alike: the connection, the
     * security protocol, SASL, SSL, the client id, timeouts, metrics. Producer-only keys ({@code
     * batch.size}, {@code linger.ms}, ...) are not among them: an admin client would only warn
     * about them.
     */
    private static final Set<String> SHARED = shared();

    private KafkaClientProperties() {}

    /**
     * For admin clients and consumers: the bootstrap servers and every {@code properties.*} key
     * that is a setting of every Kafka client.
     */
    public static Properties common(ReadableConfig job) {
        return common(PipelineSections.of(job).kafka());
    }

    /** {@link #common(ReadableConfig)} from the Kafka sink's own options. */
    public static Properties common(OptionSection config) {
        Properties properties = new Properties();
        passThrough(config)
                .forEach(
                        (key, value) -> {
                            if (SHARED.contains(key)) {
                                properties.put(key, value);
                            }
                        });
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(config));
        return properties;
    }

    /**
     * For the producers, besides what the sink's own options set: throughput defaults, then every
     * {@code properties.*} key, which wins over them, and the bootstrap servers. A superset of
     * {@link #common}.
     */
    public static Map<String, String> producer(OptionSection config) {
        Map<String, String> properties = new LinkedHashMap<>();
        // One producer writes a whole partition's stream, so fuller batches mean fewer requests
        // for the producer and the broker; 5 ms is small next to a checkpoint interval.
        properties.put(
                ProducerConfig.BATCH_SIZE_CONFIG,
                Integer.toString(KafkaSinkOptions.DEFAULT_BATCH_SIZE));
        properties.put(
                ProducerConfig.LINGER_MS_CONFIG,
                Integer.toString(KafkaSinkOptions.DEFAULT_LINGER_MS));
        properties.put(
                ProducerConfig.COMPRESSION_TYPE_CONFIG, KafkaSinkOptions.DEFAULT_COMPRESSION_TYPE);
        properties.putAll(passThrough(config));
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(config));
        return properties;
    }

    /** {@link KafkaSinkOptions#BOOTSTRAP_SERVERS}, which is required. */
    public static String bootstrapServers(OptionSection config) {
        return config.getOptional(KafkaSinkOptions.BOOTSTRAP_SERVERS)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "Option '"
                                                + config.key(KafkaSinkOptions.BOOTSTRAP_SERVERS)
                                                + "' is required but missing"));
    }

    /** Every {@code properties.*} key, the prefix cut off. */
    private static Map<String, String> passThrough(OptionSection config) {
        Map<String, String> properties = new LinkedHashMap<>();
        config.toMap()
                .forEach(
                        (key, value) -> {
                            if (key.startsWith(KafkaSinkOptions.PROPERTIES_PREFIX)) {
                                properties.put(
                                        key.substring(KafkaSinkOptions.PROPERTIES_PREFIX.length()),
                                        value);
                            }
                        });
        return properties;
    }

    private static Set<String> shared() {
        Set<String> keys = new TreeSet<>(AdminClientConfig.configNames());
        keys.retainAll(ConsumerConfig.configNames());
        keys.retainAll(ProducerConfig.configNames());
        return Set.copyOf(keys);
    }
}

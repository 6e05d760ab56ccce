package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.apache.flink.util.Preconditions.checkArgument;

/** Builds the Kafka sink from {@link KafkaSinkOptions}. */
@Internal
public final class KafkaSinkFactory {

    private KafkaSinkFactory() {}

    /** Partition counts of the sink's topics: configured, else read from the brokers. */
    public static PartitionCounts.Factory partitionCounts(ReadableConfig config) {
        return KafkaPartitionCounts.factory(
                PartitionOptions.counts(config), bootstrapServers(config));
    }

    /** A sink of encoded messages, each to its own topic and partition. */
    public static KafkaSink<SinkMessage> sink(ReadableConfig config) {
        String servers = bootstrapServers(config);
        long timeoutMs = config.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis();
        checkArgument(
                timeoutMs > 0,
                "Option '%s' must be positive, but is %s",
                KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
                config.get(KafkaSinkOptions.TRANSACTION_TIMEOUT));
        if (config.get(KafkaSinkOptions.DELIVERY_GUARANTEE) == DeliveryGuarantee.EXACTLY_ONCE) {
            // Checked now, so the job is never started only to fail every transaction.
            KafkaBrokerLimits.checkTransactionTimeout(servers, timeoutMs);
        }
        KafkaSinkBuilder<SinkMessage> builder = KafkaSink.<SinkMessage>builder();
        producerProperties(config).forEach(builder::setProperty);
        return builder.setBootstrapServers(servers)
                .setDeliveryGuarantee(config.get(KafkaSinkOptions.DELIVERY_GUARANTEE))
                .setTransactionalIdPrefix(config.get(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX))
                .setProperty("transaction.timeout.ms", Long.toString(timeoutMs))
                .setRecordSerializer(new SinkMessageKafkaSerializationSchema())
                .build();
    }

    /**
     * The producer properties besides those Sluice's own options set: throughput defaults, then
     * every {@code sink.properties.*} key, which wins over them.
     */
    @VisibleForTesting
    static Map<String, String> producerProperties(ReadableConfig config) {
        Map<String, String> properties = new LinkedHashMap<>();
        // One producer writes a whole partition's stream, so fuller batches mean fewer requests
        // for the producer and the broker; 5 ms is small next to a checkpoint interval.
        properties.put("batch.size", Integer.toString(KafkaSinkOptions.DEFAULT_BATCH_SIZE));
        properties.put("linger.ms", Integer.toString(KafkaSinkOptions.DEFAULT_LINGER_MS));
        properties.put("compression.type", KafkaSinkOptions.DEFAULT_COMPRESSION_TYPE);
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

    private static String bootstrapServers(ReadableConfig config) {
        return config.getOptional(KafkaSinkOptions.BOOTSTRAP_SERVERS)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "Option '"
                                                + KafkaSinkOptions.BOOTSTRAP_SERVERS.key()
                                                + "' is required but missing"));
    }
}

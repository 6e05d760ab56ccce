package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;

import java.time.Duration;
import java.util.Optional;

import static org.apache.flink.util.Preconditions.checkArgument;

/**
 * Builds the Kafka sink from {@link KafkaSinkOptions}. Building reaches no broker: what only the
 * brokers can tell is asked at run time ({@link KafkaBrokerLimits}, {@link KafkaPartitionCounts}).
 */
@Internal
public final class KafkaSinkFactory {

    private KafkaSinkFactory() {}

    /** Partition counts of the sink's topics: configured, else read from the brokers. */
    public static PartitionCounts.Factory partitionCounts(ReadableConfig config) {
        return KafkaPartitionCounts.factory(
                PartitionOptions.counts(config), KafkaClientProperties.common(config));
    }

    /**
     * What the writers check as they open, asked now: the brokers reachable with the job's client
     * settings, and the transaction timeout within their limit. For {@code ./sluice validate}.
     */
    public static void checkBrokers(ReadableConfig config, Duration askTimeout) {
        new KafkaBrokerLimits(
                        KafkaClientProperties.common(config),
                        config.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis(),
                        askTimeout)
                .check(0);
    }

    /** Whether the default topic takes every message the producer may send, for validate. */
    public static Optional<String> checkTopicSize(ReadableConfig config, Duration wait) {
        return KafkaTopicLimits.check(
                KafkaClientProperties.common(config),
                KafkaClientProperties.producer(config),
                config.get(RouteOptions.DEFAULT_TOPIC),
                wait);
    }

    /** A sink of encoded messages, each to its own topic and partition. */
    public static KafkaSink<SinkMessage> sink(ReadableConfig config) {
        long timeoutMs = config.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis();
        checkArgument(
                timeoutMs > 0,
                "Option '%s' must be positive, but is %s",
                KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
                config.get(KafkaSinkOptions.TRANSACTION_TIMEOUT));
        DeliveryGuarantee guarantee = config.get(KafkaSinkOptions.DELIVERY_GUARANTEE);
        // Checked as each writer opens, before its first transaction.
        KafkaBrokerLimits limits =
                guarantee == DeliveryGuarantee.EXACTLY_ONCE
                        ? new KafkaBrokerLimits(KafkaClientProperties.common(config), timeoutMs)
                        : null;
        KafkaSinkBuilder<SinkMessage> builder = KafkaSink.<SinkMessage>builder();
        KafkaClientProperties.producer(config).forEach(builder::setProperty);
        return builder.setDeliveryGuarantee(guarantee)
                .setTransactionalIdPrefix(config.get(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX))
                .setProperty("transaction.timeout.ms", Long.toString(timeoutMs))
                .setRecordSerializer(new SinkMessageKafkaSerializationSchema(limits))
                .build();
    }
}

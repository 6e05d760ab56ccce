package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.internal.ProducerClosingSink;

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
    public static PartitionCounts.Factory partitionCounts(PipelineSections config) {
        return KafkaPartitionCounts.factory(
                PartitionOptions.counts(config.route()),
                KafkaClientProperties.common(config.kafka()));
    }

    /**
     * What the writers check as they open, asked now: the brokers reachable with the job's client
     * settings, and the transaction timeout within their limit. For {@code ./sluice validate}.
     */
    public static void checkBrokers(OptionSection kafka, Duration askTimeout) {
        new KafkaBrokerLimits(
                        KafkaClientProperties.common(kafka),
                        kafka.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis(),
                        kafka.prefix(),
                        askTimeout)
                .check(0);
    }

    /** Whether the default topic takes every message the producer may send, for validate. */
    public static Optional<String> checkTopicSize(PipelineSections config, Duration wait) {
        return KafkaTopicLimits.check(
                KafkaClientProperties.common(config.kafka()),
                KafkaClientProperties.producer(config.kafka()),
                config.route().get(RouteOptions.DEFAULT_TOPIC),
                wait);
    }

    /** A sink of encoded messages, each to its own topic and partition. */
    public static Sink<SinkMessage> sink(OptionSection kafka) {
        long timeoutMs = kafka.get(KafkaSinkOptions.TRANSACTION_TIMEOUT).toMillis();
        checkArgument(
                timeoutMs > 0,
                "Option '%s' must be positive, but is %s",
                kafka.key(KafkaSinkOptions.TRANSACTION_TIMEOUT),
                kafka.get(KafkaSinkOptions.TRANSACTION_TIMEOUT));
        DeliveryGuarantee guarantee = kafka.get(KafkaSinkOptions.DELIVERY_GUARANTEE);
        // Checked as each writer opens, before its first transaction.
        KafkaBrokerLimits limits =
                guarantee == DeliveryGuarantee.EXACTLY_ONCE
                        ? new KafkaBrokerLimits(
                                KafkaClientProperties.common(kafka), timeoutMs, kafka.prefix())
                        : null;
        KafkaSinkBuilder<SinkMessage> builder = KafkaSink.<SinkMessage>builder();
        KafkaClientProperties.producer(kafka).forEach(builder::setProperty);
        return ProducerClosingSink.of(
                builder.setDeliveryGuarantee(guarantee)
                        .setTransactionalIdPrefix(
                                kafka.get(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX))
                        .setProperty("transaction.timeout.ms", Long.toString(timeoutMs))
                        .setRecordSerializer(new SinkMessageKafkaSerializationSchema(limits))
                        .build());
    }
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;

import io.sluice.functions.sink.KafkaSinkOptions;

import java.time.Duration;

/**
 * Options of the RocketMQ sink. The delivery guarantee is the key both sinks share, {@code
 * sink.delivery-guarantee}; queue counts come from {@code route.partition-counts} or the name
 * server.
 */
@PublicEvolving
public final class RocketMqSinkOptions {

    public static final ConfigOption<String> NAME_SERVER =
            ConfigOptions.key("sink.rocketmq.name-server")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("RocketMQ name server(s), 'host:port[;host:port]'. Required.");

    public static final ConfigOption<String> PRODUCER_GROUP =
            ConfigOptions.key("sink.rocketmq.producer-group")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription(
                            "Producer group of the sink. Must be unique per job and stable across"
                                    + " its restarts; '<group>-tail' is the consumer group that"
                                    + " reads queue tails back after a restore.");

    /** The same key and values as the Kafka sink's. */
    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            KafkaSinkOptions.DELIVERY_GUARANTEE;

    public static final ConfigOption<Duration> SEND_TIMEOUT =
            ConfigOptions.key("sink.rocketmq.send-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest time one (batch) send may take; a send that fails or times"
                                    + " out fails the job, which restarts from its last"
                                    + " checkpoint.");

    public static final ConfigOption<Integer> BATCH_MAX_MESSAGES =
            ConfigOptions.key("sink.rocketmq.batch-max-messages")
                    .intType()
                    .defaultValue(512)
                    .withDescription(
                            "Most messages in one batch send to a queue. Batches are sent"
                                    + " synchronously, queue by queue, which keeps per-key order.");

    public static final ConfigOption<Integer> BATCH_MAX_BYTES =
            ConfigOptions.key("sink.rocketmq.batch-max-bytes")
                    .intType()
                    .defaultValue(1024 * 1024)
                    .withDescription(
                            "Most body bytes in one batch send; must stay below the broker's"
                                    + " maxMessageSize (4 MiB by default).");

    private RocketMqSinkOptions() {}
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;

import java.time.Duration;

/**
 * Options of the RocketMQ sink: YAML section {@code sink.rocketmq.}, the {@code sluice-rocketmq}
 * table's own keys in SQL. Queue counts come from the route's {@code partition-counts} or the name
 * server.
 */
@PublicEvolving
public final class RocketMqSinkOptions {

    public static final ConfigOption<String> NAME_SERVER =
            ConfigOptions.key("name-server")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("RocketMQ name server(s), 'host:port[;host:port]'. Required.");

    public static final ConfigOption<String> PRODUCER_GROUP =
            ConfigOptions.key("producer-group")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription(
                            "Producer group of the sink. Must be unique per job (per exactly-once"
                                    + " table in SQL) and stable across its restarts;"
                                    + " '<group>-tail' is the consumer group that reads queue"
                                    + " tails back after a restore.");

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(DeliveryGuarantee.EXACTLY_ONCE)
                    .withDescription(
                            "exactly-once keeps each checkpoint's messages in the checkpoint and"
                                    + " sends them once it completed (a write-ahead log);"
                                    + " at-least-once sends as it goes and on every checkpoint;"
                                    + " none behaves as at-least-once.");

    public static final ConfigOption<Duration> SEND_TIMEOUT =
            ConfigOptions.key("send-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest time one (batch) send may take; a send that fails or times"
                                    + " out fails the job, which restarts from its last"
                                    + " checkpoint.");

    public static final ConfigOption<Integer> BATCH_MAX_MESSAGES =
            ConfigOptions.key("batch-max-messages")
                    .intType()
                    .defaultValue(512)
                    .withDescription(
                            "Most messages in one batch send to a queue. Batches are sent"
                                    + " synchronously, queue by queue, which keeps per-key order.");

    public static final ConfigOption<Integer> BATCH_MAX_BYTES =
            ConfigOptions.key("batch-max-bytes")
                    .intType()
                    .defaultValue(1024 * 1024)
                    .withDescription(
                            "Most body bytes in one batch send; must stay below the broker's"
                                    + " maxMessageSize (4 MiB by default).");

    private RocketMqSinkOptions() {}
}

package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.route.DdlPartitions;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;

import java.time.Duration;

/**
 * Options of the {@code sluice-rocketmq} table: the YAML pipeline's {@code sink.rocketmq.*} keys
 * without {@code sink.rocketmq.}, and the format, route and partition keys of {@code sluice-kafka}
 * ({@link KafkaTableOptions}), with the same meaning, defaults and checks. A queue is a partition:
 * {@code partition-hash} picks a row's queue, {@code partition-counts} gives queue counts (else the
 * name server's).
 */
@PublicEvolving
public final class RocketMqTableOptions {

    public static final ConfigOption<String> NAME_SERVER =
            ConfigOptions.key("name-server")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(RocketMqSinkOptions.NAME_SERVER.description());

    public static final ConfigOption<String> PRODUCER_GROUP =
            ConfigOptions.key("producer-group")
                    .stringType()
                    .defaultValue(RocketMqSinkOptions.PRODUCER_GROUP.defaultValue())
                    .withDescription(
                            RocketMqSinkOptions.PRODUCER_GROUP.description()
                                    + " Two exactly-once sluice-rocketmq tables of one job need"
                                    + " different groups.");

    public static final ConfigOption<Duration> SEND_TIMEOUT =
            ConfigOptions.key("send-timeout")
                    .durationType()
                    .defaultValue(RocketMqSinkOptions.SEND_TIMEOUT.defaultValue())
                    .withDescription(RocketMqSinkOptions.SEND_TIMEOUT.description());

    public static final ConfigOption<Integer> BATCH_MAX_MESSAGES =
            ConfigOptions.key("batch-max-messages")
                    .intType()
                    .defaultValue(RocketMqSinkOptions.BATCH_MAX_MESSAGES.defaultValue())
                    .withDescription(RocketMqSinkOptions.BATCH_MAX_MESSAGES.description());

    public static final ConfigOption<Integer> BATCH_MAX_BYTES =
            ConfigOptions.key("batch-max-bytes")
                    .intType()
                    .defaultValue(RocketMqSinkOptions.BATCH_MAX_BYTES.defaultValue())
                    .withDescription(RocketMqSinkOptions.BATCH_MAX_BYTES.description());

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(RocketMqSinkOptions.DELIVERY_GUARANTEE.defaultValue())
                    .withDescription(
                            "exactly-once keeps each checkpoint's messages in the checkpoint and"
                                    + " sends them once it completed (a write-ahead log);"
                                    + " at-least-once sends as it goes and on every checkpoint;"
                                    + " none behaves as at-least-once.");

    public static final ConfigOption<MessageFormat> FORMAT = KafkaTableOptions.FORMAT;
    public static final ConfigOption<String> TOPIC = KafkaTableOptions.TOPIC;
    public static final ConfigOption<String> DYNAMIC_TOPIC = KafkaTableOptions.DYNAMIC_TOPIC;
    public static final ConfigOption<String> TOPIC_TEMPLATE = KafkaTableOptions.TOPIC_TEMPLATE;
    public static final ConfigOption<String> PARTITION_HASH = KafkaTableOptions.PARTITION_HASH;
    public static final ConfigOption<Boolean> DATABASE_HASH = KafkaTableOptions.DATABASE_HASH;
    public static final ConfigOption<Unmatched> PARTITION_UNMATCHED =
            KafkaTableOptions.PARTITION_UNMATCHED;
    public static final ConfigOption<DdlPartitions> DDL_PARTITIONS =
            KafkaTableOptions.DDL_PARTITIONS;
    public static final ConfigOption<String> PARTITION_COUNTS = KafkaTableOptions.PARTITION_COUNTS;

    /**
     * Flink's own {@code sink.parallelism}: the encoders' and the RocketMQ writers' parallelism.
     */
    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    private RocketMqTableOptions() {}
}

package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.GroupRows;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.encode.LargeMessagePolicy;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.route.DdlPartitions;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.KafkaSinkOptions;

import java.time.Duration;

/**
 * Options of the {@code sluice-kafka} table: the YAML pipeline's sink, route and format keys, with
 * the same meaning, defaults and checks. A row's {@code topic} and {@code key} metadata, when not
 * NULL, take the place of the routed topic and the primary-key message key.
 */
@PublicEvolving
public final class KafkaTableOptions {

    /**
     * Keys under this prefix go to the Kafka producer as they are, and the client settings among
     * them to the table's admin clients too, as {@code sink.properties.*} do.
     */
    public static final String PROPERTIES_PREFIX = "properties.";

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            ConfigOptions.key("bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(KafkaSinkOptions.BOOTSTRAP_SERVERS.description());

    public static final ConfigOption<MessageFormat> FORMAT = EncodeOptions.FORMAT;

    public static final ConfigOption<GroupRows> GROUP_ROWS = EncodeOptions.GROUP_ROWS;

    public static final ConfigOption<MemorySize> GROUP_ROWS_MAX_BYTES =
            EncodeOptions.GROUP_ROWS_MAX_BYTES;

    public static final ConfigOption<Duration> GROUP_ROWS_IDLE_FLUSH =
            EncodeOptions.GROUP_ROWS_IDLE_FLUSH;

    public static final ConfigOption<String> TOPIC =
            ConfigOptions.key("topic")
                    .stringType()
                    .defaultValue(RouteOptions.DEFAULT_TOPIC.defaultValue())
                    .withDescription(
                            "Topic of rows whose 'topic' metadata is NULL (or not declared) and"
                                    + " that neither 'dynamic-topic' nor 'topic-template' places.");

    public static final ConfigOption<String> DYNAMIC_TOPIC =
            ConfigOptions.key("dynamic-topic")
                    .stringType()
                    .defaultValue("")
                    .withDescription(RouteOptions.DYNAMIC_TOPIC.description());

    public static final ConfigOption<String> TOPIC_TEMPLATE =
            ConfigOptions.key("topic-template")
                    .stringType()
                    .defaultValue("")
                    .withDescription(RouteOptions.TOPIC_TEMPLATE.description());

    public static final ConfigOption<String> PARTITION_HASH =
            ConfigOptions.key("partition-hash")
                    .stringType()
                    .defaultValue("")
                    .withDescription(PartitionOptions.PARTITION_HASH.description());

    public static final ConfigOption<Boolean> DATABASE_HASH =
            ConfigOptions.key("database-hash")
                    .booleanType()
                    .defaultValue(PartitionOptions.DATABASE_HASH.defaultValue())
                    .withDescription(PartitionOptions.DATABASE_HASH.description());

    public static final ConfigOption<Unmatched> PARTITION_UNMATCHED =
            ConfigOptions.key("partition-unmatched")
                    .enumType(Unmatched.class)
                    .defaultValue(PartitionOptions.UNMATCHED.defaultValue())
                    .withDescription(PartitionOptions.UNMATCHED.description());

    public static final ConfigOption<DdlPartitions> DDL_PARTITIONS =
            ConfigOptions.key("ddl-partitions")
                    .enumType(DdlPartitions.class)
                    .defaultValue(PartitionOptions.DDL_PARTITIONS.defaultValue())
                    .withDescription(PartitionOptions.DDL_PARTITIONS.description());

    public static final ConfigOption<String> PARTITION_COUNTS =
            ConfigOptions.key("partition-counts")
                    .stringType()
                    .defaultValue("")
                    .withDescription(PartitionOptions.PARTITION_COUNTS.description());

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(KafkaSinkOptions.DELIVERY_GUARANTEE.defaultValue())
                    .withDescription(KafkaSinkOptions.DELIVERY_GUARANTEE.description());

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("transactional-id-prefix")
                    .stringType()
                    .defaultValue(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX.defaultValue())
                    .withDescription(
                            KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX.description()
                                    + " Two sluice-kafka tables of one job need different"
                                    + " prefixes.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT =
            ConfigOptions.key("transaction-timeout")
                    .durationType()
                    .defaultValue(KafkaSinkOptions.TRANSACTION_TIMEOUT.defaultValue())
                    .withDescription(KafkaSinkOptions.TRANSACTION_TIMEOUT.description());

    public static final ConfigOption<LargeMessagePolicy> LARGE_MESSAGE_POLICY =
            ConfigOptions.key("large-message.policy")
                    .enumType(LargeMessagePolicy.class)
                    .defaultValue(LargeMessageOptions.POLICY.defaultValue())
                    .withDescription(LargeMessageOptions.POLICY.description());

    public static final ConfigOption<MemorySize> LARGE_MESSAGE_MAX_BYTES =
            ConfigOptions.key("large-message.max-bytes")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(LargeMessageOptions.MAX_BYTES.description());

    public static final ConfigOption<String> LARGE_MESSAGE_CLAIM_CHECK_PATH =
            ConfigOptions.key("large-message.claim-check.path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(LargeMessageOptions.CLAIM_CHECK_PATH.description());

    public static final ConfigOption<String> LARGE_MESSAGE_DEAD_LETTER_TOPIC =
            ConfigOptions.key("large-message.dead-letter.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(LargeMessageOptions.DEAD_LETTER_TOPIC.description());

    public static final ConfigOption<String> COLUMNS_INCLUDE =
            ConfigOptions.key("columns.include")
                    .stringType()
                    .defaultValue("")
                    .withDescription(FilterOptions.COLUMNS_INCLUDE.description());

    public static final ConfigOption<String> COLUMNS_EXCLUDE =
            ConfigOptions.key("columns.exclude")
                    .stringType()
                    .defaultValue("")
                    .withDescription(FilterOptions.COLUMNS_EXCLUDE.description());

    public static final ConfigOption<String> COLUMNS_MASK =
            ConfigOptions.key("columns.mask")
                    .stringType()
                    .defaultValue("")
                    .withDescription(FilterOptions.COLUMNS_MASK.description());

    public static final ConfigOption<String> MASK_SALT =
            ConfigOptions.key("mask-salt")
                    .stringType()
                    .defaultValue("")
                    .withDescription(FilterOptions.MASK_SALT.description());

    public static final ConfigOption<Boolean> DROP_EMPTY_UPDATES =
            ConfigOptions.key("drop-empty-updates")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(FilterOptions.DROP_EMPTY_UPDATES.description());

    /** Flink's own {@code sink.parallelism}: the encoders' and the Kafka writers' parallelism. */
    public static final ConfigOption<Integer> SINK_PARALLELISM = FactoryUtil.SINK_PARALLELISM;

    private KafkaTableOptions() {}
}

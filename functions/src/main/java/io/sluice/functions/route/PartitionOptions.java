package io.sluice.functions.route;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.route.PartitionRules.Unmatched;

/**
 * Options that pick each change's partition: YAML section {@code route.}; the sink tables' keys in
 * SQL.
 */
@PublicEvolving
public final class PartitionOptions {

    public static final ConfigOption<String> PARTITION_HASH =
            ConfigOptions.key("partition-hash")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Canal's canal.mq.partitionHash syntax: items"
                                    + " 'tablePattern[:$pk$|:col1^col2]' separated by ',' or ';',"
                                    + " first match wins; no column spec hashes the table name.");

    public static final ConfigOption<Boolean> DATABASE_HASH =
            ConfigOptions.key("database-hash")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether column hashes start from the database name's hash, as"
                                    + " Canal's canal.mq.database.hash (true by default there too).");

    public static final ConfigOption<Unmatched> UNMATCHED =
            ConfigOptions.key("partition-unmatched")
                    .enumType(Unmatched.class)
                    .defaultValue(Unmatched.PRIMARY_KEY)
                    .withDescription(
                            "Partition of tables no partition-hash rule matches: primary-key"
                                    + " hashes the key (Sluice's default), table the table name,"
                                    + " zero sends them to partition 0 as Canal does.");

    public static final ConfigOption<DdlPartitions> DDL_PARTITIONS =
            ConfigOptions.key("ddl-partitions")
                    .enumType(DdlPartitions.class)
                    .defaultValue(DdlPartitions.EVERY)
                    .withDescription(
                            "Partitions of its topic a table's DDL is written to, in order with"
                                    + " the table's rows there: every (Sluice's default) or zero,"
                                    + " partition 0 only, as Canal does.");

    public static final ConfigOption<String> PARTITION_COUNTS =
            ConfigOptions.key("partition-counts")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Canal's canal.mq.dynamicTopicPartitionNum syntax: items"
                                    + " 'topicPattern:N'. Topics no item names have their count"
                                    + " read from the broker when first written.");

    private PartitionOptions() {}

    /**
     * The partition rules the route section {@code config} describes; fails on a bad rule, naming
     * it.
     */
    public static PartitionRules rules(OptionSection config) {
        return PartitionRules.create(
                config.get(PARTITION_HASH),
                config.get(DATABASE_HASH),
                config.get(UNMATCHED),
                config.key(PARTITION_HASH));
    }

    /** The configured partition counts; fails on a bad item, naming it. */
    public static PartitionCountRules counts(OptionSection config) {
        return PartitionCountRules.create(
                config.get(PARTITION_COUNTS), config.key(PARTITION_COUNTS));
    }
}

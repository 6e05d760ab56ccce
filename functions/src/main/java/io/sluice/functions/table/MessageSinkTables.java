package io.sluice.functions.table;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.table.internal.MessageTableSink;
import io.sluice.functions.table.internal.OptionTranslation;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The checks and translation both Sluice sink tables ({@code sluice-kafka}, ...) share. */
final class MessageSinkTables {

    /** The encoding, routing and partitioning options every Sluice sink table takes. */
    static final List<ConfigOption<?>> ENCODE_AND_ROUTE =
            List.of(
                    KafkaTableOptions.FORMAT,
                    KafkaTableOptions.GROUP_ROWS,
                    KafkaTableOptions.GROUP_ROWS_MAX_BYTES,
                    KafkaTableOptions.GROUP_ROWS_IDLE_FLUSH,
                    KafkaTableOptions.TOPIC,
                    KafkaTableOptions.DYNAMIC_TOPIC,
                    KafkaTableOptions.TOPIC_TEMPLATE,
                    KafkaTableOptions.PARTITION_HASH,
                    KafkaTableOptions.DATABASE_HASH,
                    KafkaTableOptions.PARTITION_UNMATCHED,
                    KafkaTableOptions.DDL_PARTITIONS,
                    KafkaTableOptions.PARTITION_COUNTS,
                    KafkaTableOptions.LARGE_MESSAGE_POLICY,
                    KafkaTableOptions.LARGE_MESSAGE_MAX_BYTES,
                    KafkaTableOptions.LARGE_MESSAGE_CLAIM_CHECK_PATH,
                    KafkaTableOptions.LARGE_MESSAGE_DEAD_LETTER_TOPIC,
                    KafkaTableOptions.COLUMNS_INCLUDE,
                    KafkaTableOptions.COLUMNS_EXCLUDE,
                    KafkaTableOptions.COLUMNS_MASK,
                    KafkaTableOptions.MASK_SALT,
                    KafkaTableOptions.DROP_EMPTY_UPDATES,
                    KafkaTableOptions.SINK_PARALLELISM);

    private MessageSinkTables() {}

    /** {@code options} plus the YAML keys of {@link #ENCODE_AND_ROUTE}. */
    static OptionTranslation withEncodeAndRoute(OptionTranslation options) {
        return options.map(KafkaTableOptions.FORMAT, EncodeOptions.FORMAT)
                .map(KafkaTableOptions.GROUP_ROWS, EncodeOptions.GROUP_ROWS)
                .map(KafkaTableOptions.GROUP_ROWS_MAX_BYTES, EncodeOptions.GROUP_ROWS_MAX_BYTES)
                .map(KafkaTableOptions.GROUP_ROWS_IDLE_FLUSH, EncodeOptions.GROUP_ROWS_IDLE_FLUSH)
                .map(KafkaTableOptions.TOPIC, RouteOptions.DEFAULT_TOPIC)
                .map(KafkaTableOptions.DYNAMIC_TOPIC, RouteOptions.DYNAMIC_TOPIC)
                .map(KafkaTableOptions.TOPIC_TEMPLATE, RouteOptions.TOPIC_TEMPLATE)
                .map(KafkaTableOptions.PARTITION_HASH, PartitionOptions.PARTITION_HASH)
                .map(KafkaTableOptions.DATABASE_HASH, PartitionOptions.DATABASE_HASH)
                .map(KafkaTableOptions.PARTITION_UNMATCHED, PartitionOptions.UNMATCHED)
                .map(KafkaTableOptions.DDL_PARTITIONS, PartitionOptions.DDL_PARTITIONS)
                .map(KafkaTableOptions.PARTITION_COUNTS, PartitionOptions.PARTITION_COUNTS)
                .map(KafkaTableOptions.LARGE_MESSAGE_POLICY, LargeMessageOptions.POLICY)
                .map(KafkaTableOptions.LARGE_MESSAGE_MAX_BYTES, LargeMessageOptions.MAX_BYTES)
                .map(
                        KafkaTableOptions.LARGE_MESSAGE_CLAIM_CHECK_PATH,
                        LargeMessageOptions.CLAIM_CHECK_PATH)
                .map(
                        KafkaTableOptions.LARGE_MESSAGE_DEAD_LETTER_TOPIC,
                        LargeMessageOptions.DEAD_LETTER_TOPIC)
                .map(KafkaTableOptions.COLUMNS_INCLUDE, FilterOptions.COLUMNS_INCLUDE)
                .map(KafkaTableOptions.COLUMNS_EXCLUDE, FilterOptions.COLUMNS_EXCLUDE)
                .map(KafkaTableOptions.COLUMNS_MASK, FilterOptions.COLUMNS_MASK)
                .map(KafkaTableOptions.MASK_SALT, FilterOptions.MASK_SALT)
                .map(KafkaTableOptions.DROP_EMPTY_UPDATES, FilterOptions.DROP_EMPTY_UPDATES);
    }

    /** {@code own} options plus {@link #ENCODE_AND_ROUTE}. */
    static Set<ConfigOption<?>> withEncodeAndRoute(ConfigOption<?>... own) {
        Set<ConfigOption<?>> all = new LinkedHashSet<>(Arrays.asList(own));
        all.addAll(ENCODE_AND_ROUTE);
        return all;
    }

    /**
     * Validates the table of {@code context} (options, the one physical column, parallelism, route
     * and partition rules) and creates its sink, writing to {@code type}.
     *
     * @param passThroughPrefix a prefix of keys passed on unchecked, or null
     */
    static MessageTableSink create(
            DynamicTableSinkFactory factory,
            DynamicTableFactory.Context context,
            OptionTranslation options,
            String passThroughPrefix,
            SinkType type) {
        FactoryUtil.TableFactoryHelper helper =
                FactoryUtil.createTableFactoryHelper(factory, context);
        if (passThroughPrefix == null) {
            helper.validate();
        } else {
            helper.validateExcept(passThroughPrefix);
        }
        String connector = factory.factoryIdentifier();
        ObjectIdentifier table = context.getObjectIdentifier();
        checkPhysicalColumns(connector, table, context.getCatalogTable().getResolvedSchema());

        Integer parallelism =
                helper.getOptions().getOptional(FactoryUtil.SINK_PARALLELISM).orElse(null);
        if (parallelism != null && parallelism < 1) {
            throw new ValidationException(
                    String.format(
                            "Invalid options of table '%s' ('connector' = '%s'): option '%s' must"
                                    + " be at least 1, but is %s",
                            table.asSummaryString(),
                            connector,
                            FactoryUtil.SINK_PARALLELISM.key(),
                            parallelism));
        }
        Configuration config = options.toPipelineConfig(context.getCatalogTable().getOptions());
        config.set(SinkOptions.TYPE, type);
        try {
            // Parsed now so a bad rule fails the statement, not the running job.
            RouteOptions.router(config);
            PartitionOptions.rules(config);
            PartitionOptions.counts(config);
        } catch (IllegalArgumentException e) {
            throw options.failure(table, connector, e);
        }
        return new MessageTableSink(
                connector,
                config,
                parallelism,
                table,
                options,
                SinkClaim.of(table, context.getCatalogTable().getOptions()));
    }

    /** The one physical column is the change, typed {@link ChangeColumn}. */
    static void checkPhysicalColumns(
            String connector, ObjectIdentifier table, ResolvedSchema schema) {
        List<Column> physical =
                schema.getColumns().stream()
                        .filter(Column::isPhysical)
                        .collect(Collectors.toList());
        if (physical.size() != 1
                || !ChangeColumn.isChangeType(physical.get(0).getDataType().getLogicalType())) {
            throw new ValidationException(
                    String.format(
                            "Table '%s' ('connector' = '%s') must have exactly one physical"
                                    + " column, the change (%s), but has %s; copy it from a"
                                    + " change table with LIKE cdc.<database>.changes (EXCLUDING"
                                    + " ALL), and declare 'topic' STRING and 'key' BYTES as"
                                    + " METADATA",
                            table.asSummaryString(),
                            connector,
                            ChangeColumn.DESCRIPTION,
                            physical.stream()
                                    .map(
                                            c ->
                                                    c.getName()
                                                            + " "
                                                            + c.getDataType()
                                                                    .getLogicalType()
                                                                    .asSummaryString())
                                    .collect(Collectors.toList())));
        }
    }
}

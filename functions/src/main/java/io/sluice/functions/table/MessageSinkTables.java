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

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.table.internal.InvalidTableOptions;
import io.sluice.functions.table.internal.MessageTableSink;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The options and checks both Sluice sink tables ({@code sluice-kafka}, ...) share. A table's
 * options are the pipeline's own, under the same keys; the checks the YAML door makes on them name
 * the SQL keys, as the table has no prefix.
 */
final class MessageSinkTables {

    /** The encoding, routing, filtering and large-message options every Sluice sink table takes. */
    static final List<ConfigOption<?>> ENCODE_AND_ROUTE =
            List.of(
                    EncodeOptions.FORMAT,
                    EncodeOptions.DEBEZIUM_TOPIC_PREFIX,
                    EncodeOptions.DEBEZIUM_SCHEMAS,
                    EncodeOptions.DEBEZIUM_TOMBSTONES,
                    // debezium-json: the zone of the source table's TIMESTAMP text, to match it.
                    MySqlSourceOptions.TIMESTAMP_TIME_ZONE,
                    EncodeOptions.GROUP_ROWS,
                    EncodeOptions.GROUP_ROWS_MAX_BYTES,
                    EncodeOptions.GROUP_ROWS_IDLE_FLUSH,
                    SinkTableOptions.TOPIC,
                    RouteOptions.DYNAMIC_TOPIC,
                    RouteOptions.TOPIC_TEMPLATE,
                    PartitionOptions.PARTITION_HASH,
                    PartitionOptions.DATABASE_HASH,
                    PartitionOptions.UNMATCHED,
                    PartitionOptions.DDL_PARTITIONS,
                    PartitionOptions.PARTITION_COUNTS,
                    LargeMessageOptions.POLICY,
                    LargeMessageOptions.MAX_BYTES,
                    LargeMessageOptions.CLAIM_CHECK_PATH,
                    LargeMessageOptions.DEAD_LETTER_TOPIC,
                    FilterOptions.COLUMNS_INCLUDE,
                    FilterOptions.COLUMNS_EXCLUDE,
                    FilterOptions.COLUMNS_MASK,
                    FilterOptions.MASK_SALT,
                    FilterOptions.DROP_EMPTY_UPDATES,
                    FactoryUtil.SINK_PARALLELISM);

    private MessageSinkTables() {}

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
        Configuration config = Configuration.fromMap(context.getCatalogTable().getOptions());
        // The SQL-only 'topic' is the pipeline's default topic; the connector names the broker.
        config.set(RouteOptions.DEFAULT_TOPIC, helper.getOptions().get(SinkTableOptions.TOPIC));
        config.set(SinkOptions.TYPE, type);
        PipelineSections sections = PipelineSections.unprefixed(config);
        try {
            // Parsed now so a bad rule fails the statement, not the running job.
            RouteOptions.router(sections.route());
            PartitionOptions.rules(sections.route());
            PartitionOptions.counts(sections.route());
        } catch (IllegalArgumentException e) {
            throw InvalidTableOptions.of(table, connector, e);
        }
        return new MessageTableSink(
                connector,
                sections,
                parallelism,
                table,
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

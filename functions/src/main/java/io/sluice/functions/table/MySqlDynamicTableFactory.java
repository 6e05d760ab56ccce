package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RawType;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.SourceHosts;
import io.sluice.functions.table.internal.InvalidTableOptions;
import io.sluice.functions.table.internal.MySqlTableSource;
import io.sluice.serializers.event.ChangeEvent;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.sluice.functions.source.MySqlSourceOptions.*;

/**
 * {@code 'connector' = 'sluice-mysql'}: every table the {@code tables} regexes match, read by one
 * binlog reader, one row per change. The physical column is the change itself ({@link
 * ChangeColumn}); everything else is metadata ({@code database}, {@code table}, {@code type},
 * {@code es}, {@code gtid}, {@code pk_names}, {@code data}, ...). Its options are the pipeline
 * source's own ({@link MySqlSourceOptions}), under the same keys.
 */
@Internal
public final class MySqlDynamicTableFactory implements DynamicTableSourceFactory {

    public static final String IDENTIFIER = "sluice-mysql";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(PASSWORD, TABLES);
    }

    /** Flink's own {@code scan.parallelism}: the CDC source's parallelism. */
    static final ConfigOption<Integer> SCAN_PARALLELISM = FactoryUtil.SOURCE_PARALLELISM;

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(
                HOSTNAME,
                PORT,
                FAILOVER_ALLOW_REPLICA,
                USERNAME,
                SERVER_ID,
                SERVER_TIME_ZONE,
                HEARTBEAT_INTERVAL,
                STALL_TIMEOUT,
                TIMESTAMP_TIME_ZONE,
                INCLUDE_SCHEMA_CHANGES,
                STARTUP_MODE,
                READER,
                STATEMENT_LOGGED_CHANGES,
                STARTUP_TIMESTAMP,
                STARTUP_BINLOG_FILE,
                STARTUP_BINLOG_POSITION,
                STARTUP_GTID_SET,
                SNAPSHOT_CHUNK_SIZE,
                SNAPSHOT_CHUNK_KEY_COLUMNS,
                SSL_MODE,
                SSL_TRUSTSTORE,
                SSL_TRUSTSTORE_PASSWORD,
                SCAN_PARALLELISM);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        String table = context.getObjectIdentifier().asSummaryString();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        checkPhysicalColumns(table, schema);
        checkNoWatermark(table, schema);

        Integer parallelism = helper.getOptions().getOptional(SCAN_PARALLELISM).orElse(null);
        if (parallelism != null && parallelism < 1) {
            throw new ValidationException(
                    String.format(
                            "Invalid options of table '%s': option '%s' must be at least 1, but"
                                    + " is %s",
                            table, SCAN_PARALLELISM.key(), parallelism));
        }
        OptionSection config = OptionSection.unprefixed(helper.getOptions());
        Source<ChangeEvent, ?, ?> source;
        try {
            source = MySqlSourceFactory.changeEventSource(config);
        } catch (IllegalArgumentException e) {
            throw InvalidTableOptions.of(context.getObjectIdentifier(), IDENTIFIER, e);
        }
        return new MySqlTableSource(
                source,
                parallelism,
                table,
                SourceHosts.from(config).describe(),
                config.getOptional(MySqlSourceOptions.SERVER_ID).orElse(null),
                context.getPhysicalRowDataType());
    }

    /** The only physical column a change table has is the change, typed {@link ChangeColumn}. */
    static void checkPhysicalColumns(String table, ResolvedSchema schema) {
        List<Column> physical =
                schema.getColumns().stream()
                        .filter(Column::isPhysical)
                        .collect(Collectors.toList());
        boolean seenChange = false;
        for (Column column : physical) {
            boolean change = ChangeColumn.isChangeType(column.getDataType().getLogicalType());
            if (!change || seenChange) {
                throw new ValidationException(
                        String.format(
                                "Table '%s' ('connector' = '%s') declares the physical column"
                                        + " %s %s; its only physical column is the change (%s),"
                                        + " and every other column is METADATA (%s). A Sluice"
                                        + " catalog's tables declare all of them for you: CREATE"
                                        + " CATALOG cdc WITH ('type' = 'sluice', ...)",
                                table,
                                IDENTIFIER,
                                column.getName(),
                                typeName(column),
                                ChangeColumn.DESCRIPTION,
                                metadataKeys()));
            }
            seenChange = true;
        }
    }

    /**
     * The source's watermarks count statements for the Sluice sinks ({@code StatementWatermarks});
     * a declared WATERMARK would replace them and hold statements back.
     */
    static void checkNoWatermark(String table, ResolvedSchema schema) {
        if (!schema.getWatermarkSpecs().isEmpty()) {
            throw new ValidationException(
                    String.format(
                            "Table '%s' ('connector' = '%s') declares WATERMARK %s; a change table"
                                    + " takes no WATERMARK: its watermarks count statements so"
                                    + " that the Sluice sinks keep each statement in place among"
                                    + " its table's rows",
                            table, IDENTIFIER, schema.getWatermarkSpecs().get(0)));
        }
    }

    /** A column's type, without the long serializer snapshot of a RAW type. */
    private static String typeName(Column column) {
        return column.getDataType().getLogicalType() instanceof RawType
                ? "RAW('"
                        + ((RawType<?>) column.getDataType().getLogicalType())
                                .getOriginatingClass()
                                .getName()
                        + "', ...)"
                : column.getDataType().toString();
    }

    private static String metadataKeys() {
        StringBuilder keys = new StringBuilder();
        for (io.sluice.functions.table.internal.SourceMetadata m :
                io.sluice.functions.table.internal.SourceMetadata.values()) {
            if (keys.length() > 0) {
                keys.append(", ");
            }
            keys.append(m.key()).append(' ').append(m.type());
        }
        return keys.toString();
    }
}

package io.sluice.functions.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.cdc.debezium.JsonDebeziumDeserializationSchema;
import org.apache.flink.configuration.ReadableConfig;

import java.util.List;
import java.util.Map;

import static org.apache.flink.util.Preconditions.checkArgument;

/** Builds the Flink CDC MySQL source from {@link MySqlSourceOptions}. */
@Internal
public final class MySqlSourceFactory {

    private MySqlSourceFactory() {}

    /**
     * A source that snapshots the selected tables in parallel chunks, then follows the binlog,
     * emitting each change as Debezium JSON (DECIMAL rendered as numbers, not base64).
     */
    public static MySqlSource<String> jsonSource(ReadableConfig config) {
        String password =
                config.getOptional(MySqlSourceOptions.PASSWORD)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "Option '"
                                                        + MySqlSourceOptions.PASSWORD.key()
                                                        + "' is required but missing"));
        List<String> tables =
                config.getOptional(MySqlSourceOptions.TABLES)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "Option '"
                                                        + MySqlSourceOptions.TABLES.key()
                                                        + "' is required but missing"));
        checkArgument(
                !tables.isEmpty(),
                "Option '%s' must name at least one table, but is empty",
                MySqlSourceOptions.TABLES.key());
        String[] databases =
                tables.stream()
                        .map(MySqlSourceFactory::databaseOf)
                        .distinct()
                        .toArray(String[]::new);
        return MySqlSource.<String>builder()
                .hostname(config.get(MySqlSourceOptions.HOSTNAME))
                .port(config.get(MySqlSourceOptions.PORT))
                .username(config.get(MySqlSourceOptions.USERNAME))
                .password(password)
                .databaseList(databases)
                .tableList(tables.toArray(String[]::new))
                .serverId(config.get(MySqlSourceOptions.SERVER_ID))
                .serverTimeZone(config.get(MySqlSourceOptions.SERVER_TIME_ZONE))
                .heartbeatInterval(config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL))
                .startupOptions(StartupOptions.initial())
                .deserializer(
                        new JsonDebeziumDeserializationSchema(
                                false, Map.of("decimal.format", "numeric")))
                .build();
    }

    private static String databaseOf(String qualifiedTable) {
        int dot = qualifiedTable.indexOf('.');
        checkArgument(
                dot > 0 && dot < qualifiedTable.length() - 1,
                "Option '%s' takes 'database.table' entries, but one is '%s'",
                MySqlSourceOptions.TABLES.key(),
                qualifiedTable);
        return qualifiedTable.substring(0, dot);
    }
}

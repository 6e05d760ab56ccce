package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.StartupMode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Options of the {@code sluice-mysql} table: the YAML pipeline's {@code source.*} keys without the
 * {@code source.} prefix, with the same meaning, defaults and checks.
 */
@PublicEvolving
public final class MySqlTableOptions {

    public static final ConfigOption<String> HOSTNAME =
            ConfigOptions.key("hostname")
                    .stringType()
                    .defaultValue(MySqlSourceOptions.HOSTNAME.defaultValue())
                    .withDescription(MySqlSourceOptions.HOSTNAME.description());

    public static final ConfigOption<Integer> PORT =
            ConfigOptions.key("port")
                    .intType()
                    .defaultValue(MySqlSourceOptions.PORT.defaultValue())
                    .withDescription(MySqlSourceOptions.PORT.description());

    public static final ConfigOption<String> USERNAME =
            ConfigOptions.key("username")
                    .stringType()
                    .defaultValue(MySqlSourceOptions.USERNAME.defaultValue())
                    .withDescription(MySqlSourceOptions.USERNAME.description());

    public static final ConfigOption<String> PASSWORD =
            ConfigOptions.key("password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(MySqlSourceOptions.PASSWORD.description());

    public static final ConfigOption<List<String>> TABLES =
            ConfigOptions.key("tables")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "Tables to capture as 'database.table' regular expressions, separated"
                                    + " by ';'; every match is read by the one binlog reader."
                                    + " Required.");

    public static final ConfigOption<String> SERVER_ID =
            ConfigOptions.key("server-id")
                    .stringType()
                    .defaultValue(MySqlSourceOptions.SERVER_ID.defaultValue())
                    .withDescription(MySqlSourceOptions.SERVER_ID.description());

    public static final ConfigOption<String> SERVER_TIME_ZONE =
            ConfigOptions.key("server-time-zone")
                    .stringType()
                    .defaultValue(MySqlSourceOptions.SERVER_TIME_ZONE.defaultValue())
                    .withDescription(MySqlSourceOptions.SERVER_TIME_ZONE.description());

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("heartbeat-interval")
                    .durationType()
                    .defaultValue(MySqlSourceOptions.HEARTBEAT_INTERVAL.defaultValue())
                    .withDescription(MySqlSourceOptions.HEARTBEAT_INTERVAL.description());

    public static final ConfigOption<Duration> STALL_TIMEOUT =
            ConfigOptions.key("stall-timeout")
                    .durationType()
                    .defaultValue(MySqlSourceOptions.STALL_TIMEOUT.defaultValue())
                    .withDescription(
                            "How long a source subtask that holds splits may read nothing from"
                                    + " them (no rows, snapshot chunks or binlog heartbeats)"
                                    + " before it fails with its splits named, so that Flink's"
                                    + " restart strategy restores it. At least three times"
                                    + " 'heartbeat-interval'. 0 turns the check off.");

    public static final ConfigOption<String> TIMESTAMP_TIME_ZONE =
            ConfigOptions.key("timestamp-time-zone")
                    .stringType()
                    .defaultValue(MySqlSourceOptions.TIMESTAMP_TIME_ZONE.defaultValue())
                    .withDescription(MySqlSourceOptions.TIMESTAMP_TIME_ZONE.description());

    public static final ConfigOption<Boolean> INCLUDE_SCHEMA_CHANGES =
            ConfigOptions.key("include-schema-changes")
                    .booleanType()
                    .defaultValue(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES.defaultValue())
                    .withDescription(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES.description());

    public static final ConfigOption<StartupMode> STARTUP_MODE =
            ConfigOptions.key("startup.mode")
                    .enumType(StartupMode.class)
                    .defaultValue(MySqlSourceOptions.STARTUP_MODE.defaultValue())
                    .withDescription(MySqlSourceOptions.STARTUP_MODE.description());

    public static final ConfigOption<Long> STARTUP_TIMESTAMP =
            ConfigOptions.key("startup.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription(MySqlSourceOptions.STARTUP_TIMESTAMP.description());

    public static final ConfigOption<String> STARTUP_BINLOG_FILE =
            ConfigOptions.key("startup.binlog-file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(MySqlSourceOptions.STARTUP_BINLOG_FILE.description());

    public static final ConfigOption<Long> STARTUP_BINLOG_POSITION =
            ConfigOptions.key("startup.binlog-position")
                    .longType()
                    .noDefaultValue()
                    .withDescription(MySqlSourceOptions.STARTUP_BINLOG_POSITION.description());

    public static final ConfigOption<String> STARTUP_GTID_SET =
            ConfigOptions.key("startup.gtid-set")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(MySqlSourceOptions.STARTUP_GTID_SET.description());

    public static final ConfigOption<Integer> SNAPSHOT_CHUNK_SIZE =
            ConfigOptions.key("snapshot.chunk-size")
                    .intType()
                    .defaultValue(MySqlSourceOptions.SNAPSHOT_CHUNK_SIZE.defaultValue())
                    .withDescription(MySqlSourceOptions.SNAPSHOT_CHUNK_SIZE.description());

    public static final ConfigOption<Map<String, String>> SNAPSHOT_CHUNK_KEY_COLUMNS =
            ConfigOptions.key("snapshot.chunk-key-columns")
                    .mapType()
                    .defaultValue(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS.defaultValue())
                    .withDescription(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS.description());

    /** Flink's own {@code scan.parallelism}: the CDC source's parallelism. */
    public static final ConfigOption<Integer> SCAN_PARALLELISM = FactoryUtil.SOURCE_PARALLELISM;

    private MySqlTableOptions() {}
}

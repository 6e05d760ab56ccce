package io.sluice.functions.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSourceBuilder;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ObjectPath;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.source.binlog.BinlogSource;
import io.sluice.functions.source.internal.CheckedSource;
import io.sluice.functions.source.internal.DrawnServerIds;
import io.sluice.functions.source.internal.HeartbeatWritingSource;
import io.sluice.functions.source.internal.HookedMySqlSource;
import io.sluice.functions.source.internal.MySqlDrivers;
import io.sluice.functions.source.internal.SnapshotQueryDriver;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.SourceServerCheck;
import io.sluice.functions.source.internal.SourceTls;
import io.sluice.serializers.event.ChangeEvent;

import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.apache.flink.util.Preconditions.checkArgument;

/**
 * Builds the Flink CDC MySQL source from {@link MySqlSourceOptions}: from a job's configuration
 * (its {@code source.} section) or from the source's own options (a SQL table's).
 */
@Internal
public final class MySqlSourceFactory {

    /**
     * The longest a Debezium queue's poll waits for a full batch: short, so a snapshot chunk's
     * reader never idles for long (see {@link #debeziumProperties}).
     */
    static final Duration QUEUE_POLL_INTERVAL = Duration.ofMillis(5);

    private MySqlSourceFactory() {}

    /**
     * A source that snapshots the selected tables in parallel chunks, then follows the binlog,
     * emitting each change as a {@link ChangeEvent} whose values are Canal's text (see {@link
     * ChangeEventDeserializationSchema}); DDL too, if {@link
     * MySqlSourceOptions#INCLUDE_SCHEMA_CHANGES} is on. With {@link
     * MySqlSourceOptions#HEARTBEAT_TABLE} set, it also captures that table, which it creates here
     * if missing, and its enumerator writes it every heartbeat interval. When the job starts it
     * checks the database ({@link SourceServerCheck}) and fails the job, without restarts, if the
     * source cannot read as configured. With {@link MySqlSourceOptions#READER} {@code sluice}, the
     * binlog split is read by Sluice's own reader ({@link BinlogSource}).
     */
    public static Source<ChangeEvent, ?, ?> changeEventSource(ReadableConfig job) {
        return changeEventSource(PipelineSections.of(job).source());
    }

    /** {@link #changeEventSource(ReadableConfig)} from the source's own options. */
    public static Source<ChangeEvent, ?, ?> changeEventSource(OptionSection config) {
        HookedMySqlSource<ChangeEvent> flinkCdc =
                source(
                        config,
                        new ChangeEventDeserializationSchema(
                                timestampZone(config),
                                config.get(MySqlSourceOptions.INCLUDE_QUERIES),
                                SourceJdbc.from(config)));
        if (config.get(MySqlSourceOptions.READER) != SourceReaderKind.SLUICE
                && config.getOptional(MySqlSourceOptions.SIGNAL_TABLE).isPresent()) {
            // Signals are read by Sluice's binlog reader alone: refused rather than ignored.
            throw new IllegalArgumentException(
                    String.format(
                            "'%s' needs '%s' = 'sluice' (on-demand snapshots are Sluice's reader's),"
                                    + " but it is '%s'",
                            config.key(MySqlSourceOptions.SIGNAL_TABLE),
                            config.key(MySqlSourceOptions.READER),
                            config.get(MySqlSourceOptions.READER)));
        }
        Source<ChangeEvent, ?, ?> reading =
                config.get(MySqlSourceOptions.READER) == SourceReaderKind.SLUICE
                        ? sluiceReader(config, flinkCdc)
                        : flinkCdc;
        Source<ChangeEvent, ?, ?> checked = CheckedSource.of(reading, serverCheck(config));
        return HeartbeatTable.from(config)
                .<Source<ChangeEvent, ?, ?>>map(table -> HeartbeatWritingSource.of(checked, table))
                .orElse(checked);
    }

    /**
     * Flink CDC's enumerator with Sluice's binlog reader ({@link BinlogSource}); with startup mode
     * initial Flink CDC's reader reads the snapshot splits.
     */
    private static Source<ChangeEvent, ?, ?> sluiceReader(
            OptionSection config, HookedMySqlSource<ChangeEvent> flinkCdc) {
        StartupMode mode = config.get(MySqlSourceOptions.STARTUP_MODE);
        return BinlogSource.of(
                flinkCdc,
                timestampZone(config),
                config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL),
                capturedDatabases(config),
                mode == StartupMode.INITIAL,
                stallTimeout(config),
                config.key(MySqlSourceOptions.STALL_TIMEOUT),
                config.get(MySqlSourceOptions.STATEMENT_LOGGED_CHANGES),
                config.key(MySqlSourceOptions.STATEMENT_LOGGED_CHANGES),
                config.getOptional(MySqlSourceOptions.SIGNAL_TABLE).orElse(null),
                config.key(MySqlSourceOptions.SIGNAL_TABLE),
                config.get(MySqlSourceOptions.ON_DEMAND_CHUNK_SIZE),
                config.get(MySqlSourceOptions.NEW_TABLES),
                SourceJdbc.from(config));
    }

    /**
     * Removes what this class loader left registered JVM-wide while a job's {@code main} built and
     * checked the source (MySQL's JDBC driver, {@link MySqlDrivers}); entry points call it as their
     * {@code main} ends, so that a session cluster's JobManager keeps nothing of the submission.
     */
    public static void releaseDrivers() {
        MySqlDrivers.deregister();
    }

    /** What {@link #changeEventSource} checks of the database, for {@code ./sluice validate}. */
    public static SourceServerCheck serverCheck(OptionSection config) {
        return SourceServerCheck.of(config, tableList(config));
    }

    /**
     * The same source with another deserializer: the benchmark cuts the pipeline right after
     * Debezium's records with it.
     */
    public static <T> HookedMySqlSource<T> source(
            ReadableConfig job, DebeziumDeserializationSchema<T> deserializer) {
        return source(PipelineSections.of(job).source(), deserializer);
    }

    /** {@link #source(ReadableConfig, DebeziumDeserializationSchema)} from the source's options. */
    public static <T> HookedMySqlSource<T> source(
            OptionSection config, DebeziumDeserializationSchema<T> deserializer) {
        MySqlSource<T> flinkCdc =
                MySqlSourceFactory.<T>builder(config)
                        .debeziumProperties(debeziumProperties(config))
                        .includeSchemaChanges(config.get(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES))
                        // MySQL JSON from the binlog in MySQL's own layout, {"a": 1}, as Canal
                        // writes it and as snapshot reads return it (the legacy layout drops the
                        // spaces).
                        .useLegacyJsonFormat(false)
                        .deserializer(deserializer)
                        .build();
        return HookedMySqlSource.of(
                flinkCdc,
                deserializer,
                stallTimeout(config),
                config.key(MySqlSourceOptions.STALL_TIMEOUT),
                capturedDatabases(config));
    }

    /** The conversion's Debezium settings, and {@code include.query} when queries are included. */
    static Properties debeziumProperties(OptionSection config) {
        Properties debezium = ChangeEventDeserializationSchema.debeziumProperties();
        long heartbeatMillis = config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL).toMillis();
        if (heartbeatMillis > 0) {
            // The binlog client asks the server for a heartbeat every 0.8 keep-alive intervals
            // (Flink CDC's rule): this makes that the heartbeat interval, so an idle database
            // still shows progress that often.
            debezium.setProperty(
                    "connect.keep.alive.interval.ms",
                    String.valueOf((long) Math.ceil(heartbeatMillis / 0.8)));
        }
        // Debezium's queue hands out a batch when it holds max.batch.size events or when this
        // interval has passed: every snapshot chunk ends with fewer, so its reader waited the whole
        // interval (500 ms by default) for the chunk's tail, and again as the chunk's reader closed
        // (Flink CDC drains the queue once more); about a chunk a second, whatever its size.
        debezium.setProperty("poll.interval.ms", Long.toString(QUEUE_POLL_INTERVAL.toMillis()));
        if (config.get(MySqlSourceOptions.INCLUDE_QUERIES)) {
            // Debezium then reads MySQL's rows-query events into each row's source.query.
            debezium.setProperty("include.query", "true");
        }
        // Debezium's connection, Flink CDC's binlog client, and Sluice's readers, which get them
        // through Flink CDC's config.
        SourceTls.from(config).debeziumProperties(debezium);
        // Debezium reads its driver's name from its settings under "database.", prefix removed;
        // Flink CDC's connection pool (the chunk splitter's, which reads each table's definition
        // with SHOW CREATE TABLE) from the settings as they are.
        debezium.setProperty("database.database.jdbc.driver", SnapshotQueryDriver.class.getName());
        debezium.setProperty("database.jdbc.driver", SnapshotQueryDriver.class.getName());
        return debezium;
    }

    /**
     * The driver settings of Flink CDC's JDBC connections (Debezium's and the snapshot pool): the
     * source's TLS settings, which without them would differ (Debezium's connection follows its SSL
     * mode, the pool the driver's default, preferred). Without TLS, a MySQL 8 {@code
     * caching_sha2_password} user whose password the server has not cached (new, or after a restart
     * or FLUSH PRIVILEGES) must send it encrypted with the server's RSA key, which the driver
     * fetches only when allowed: otherwise "Public Key Retrieval is not allowed". Sluice's own
     * connections and the binlog clients fetch it too.
     */
    static Properties jdbcProperties(OptionSection config) {
        Properties jdbc = SourceTls.from(config).jdbcUrlProperties();
        jdbc.setProperty("allowPublicKeyRetrieval", "true");
        return jdbc;
    }

    /**
     * The one host Flink CDC reads (snapshot, and its binlog reader): with a list of hosts the
     * first writable one now, at job start ({@link SourceJdbc#chosen()}).
     *
     * @throws SourceSetupException if no host of the list may be read now; it names each host and
     *     what it said
     */
    private static SourceJdbc snapshotHost(OptionSection config) {
        try {
            return SourceJdbc.from(config).chosen();
        } catch (SQLException e) {
            throw new SourceSetupException(e.getMessage());
        }
    }

    private static <T> MySqlSourceBuilder<T> builder(OptionSection config) {
        String password =
                config.getOptional(MySqlSourceOptions.PASSWORD)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "Option '"
                                                        + config.key(MySqlSourceOptions.PASSWORD)
                                                        + "' is required but missing"));
        List<String> tables =
                config.getOptional(MySqlSourceOptions.TABLES)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "Option '"
                                                        + config.key(MySqlSourceOptions.TABLES)
                                                        + "' is required but missing"));
        checkArgument(
                !tables.isEmpty(),
                "Option '%s' must name at least one table, but is empty",
                config.key(MySqlSourceOptions.TABLES));
        Optional<HeartbeatTable> heartbeat = HeartbeatTable.from(config);
        String[] databases =
                Stream.concat(
                                tables.stream().map(table -> databaseOf(config, table)),
                                heartbeat.stream().map(HeartbeatTable::database))
                        .distinct()
                        .toArray(String[]::new);
        String[] tableList = tableList(config);
        // Before the source starts, so the binlog reader knows the table when its rows come.
        heartbeat.ifPresent(HeartbeatTable::create);
        MySqlSourceBuilder<T> builder = MySqlSource.<T>builder();
        SourceJdbc host = snapshotHost(config);
        builder.hostname(host.host())
                .port(host.port())
                .username(config.get(MySqlSourceOptions.USERNAME))
                .password(password)
                .databaseList(databases)
                .tableList(tableList)
                .serverId(
                        config.getOptional(MySqlSourceOptions.SERVER_ID)
                                .orElseGet(DrawnServerIds::next))
                .serverTimeZone(config.get(MySqlSourceOptions.SERVER_TIME_ZONE))
                .heartbeatInterval(config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL))
                .splitSize(chunkSize(config))
                .startupOptions(startupOptions(config))
                .jdbcProperties(jdbcProperties(config));
        config.get(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS)
                .forEach(
                        (table, column) ->
                                builder.chunkKeyColumn(objectPath(config, table), column));
        return builder;
    }

    /**
     * The regexes of the databases of {@link MySqlSourceOptions#TABLES}, whose CREATE, ALTER and
     * DROP DATABASE statements the source emits (none without schema changes); the heartbeat
     * table's database is not one.
     */
    private static List<String> capturedDatabases(OptionSection config) {
        if (!config.get(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES)) {
            return List.of();
        }
        return config.getOptional(MySqlSourceOptions.TABLES).orElse(List.of()).stream()
                .map(table -> databaseOf(config, table))
                .distinct()
                .collect(Collectors.toList());
    }

    /** The regexes of the captured tables, excludes applied, the heartbeat table added. */
    private static String[] tableList(OptionSection config) {
        return Stream.concat(
                        Arrays.stream(tableFilters(config)),
                        HeartbeatTable.from(config).stream().map(HeartbeatTable::regex))
                .toArray(String[]::new);
    }

    private static ObjectPath objectPath(OptionSection config, String table) {
        int dot = table.indexOf('.');
        checkArgument(
                dot > 0 && dot < table.length() - 1,
                "Option '%s' takes 'database.table:column' pairs, but one table is '%s'",
                config.key(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS),
                table);
        return new ObjectPath(table.substring(0, dot), table.substring(dot + 1));
    }

    /** The source's start point; each mode's companion options are required, by name. */
    static StartupOptions startupOptions(OptionSection config) {
        StartupMode mode = config.get(MySqlSourceOptions.STARTUP_MODE);
        switch (mode) {
            case LATEST:
                return StartupOptions.latest();
            case TIMESTAMP:
                return StartupOptions.timestamp(
                        required(config, MySqlSourceOptions.STARTUP_TIMESTAMP, mode));
            case BINLOG_POSITION:
                return StartupOptions.specificOffset(
                        required(config, MySqlSourceOptions.STARTUP_BINLOG_FILE, mode),
                        required(config, MySqlSourceOptions.STARTUP_BINLOG_POSITION, mode));
            case GTID:
                return StartupOptions.specificOffset(
                        required(config, MySqlSourceOptions.STARTUP_GTID_SET, mode));
            default:
                return StartupOptions.initial();
        }
    }

    /**
     * The stall timeout, zero when off. Only heartbeats tell an idle database from a stalled
     * source, so it must span several of them.
     */
    static Duration stallTimeout(OptionSection config) {
        Duration timeout = config.get(MySqlSourceOptions.STALL_TIMEOUT);
        checkArgument(
                !timeout.isNegative(),
                "Option '%s' must not be negative, but is %s",
                config.key(MySqlSourceOptions.STALL_TIMEOUT),
                timeout);
        Duration heartbeat = config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL);
        checkArgument(
                timeout.isZero()
                        || (heartbeat.toMillis() > 0
                                && timeout.compareTo(heartbeat.multipliedBy(3)) >= 0),
                "Option '%s' must be 0 (off) or at least three times '%s' (%s), so that an idle"
                        + " database is not taken for a stalled source, but is %s",
                config.key(MySqlSourceOptions.STALL_TIMEOUT),
                config.key(MySqlSourceOptions.HEARTBEAT_INTERVAL),
                heartbeat,
                timeout);
        return timeout;
    }

    private static int chunkSize(OptionSection config) {
        int size = config.get(MySqlSourceOptions.SNAPSHOT_CHUNK_SIZE);
        checkArgument(
                size > 1,
                "Option '%s' must be larger than 1, but is %s",
                config.key(MySqlSourceOptions.SNAPSHOT_CHUNK_SIZE),
                size);
        return size;
    }

    private static <V> V required(OptionSection config, ConfigOption<V> option, StartupMode mode) {
        return config.getOptional(option)
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        String.format(
                                                "Option '%s' is required in '%s' startup mode"
                                                        + " (%s) but missing",
                                                config.key(option),
                                                mode,
                                                config.key(MySqlSourceOptions.STARTUP_MODE))));
    }

    private static ZoneId timestampZone(OptionSection config) {
        String zone = config.get(MySqlSourceOptions.TIMESTAMP_TIME_ZONE);
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "Option '"
                            + config.key(MySqlSourceOptions.TIMESTAMP_TIME_ZONE)
                            + "' must be a time zone id like 'UTC', 'Asia/Shanghai' or '+08:00',"
                            + " but is '"
                            + zone
                            + "'",
                    e);
        }
    }

    /**
     * The include regexes, each guarded by a negative lookahead for the exclude regexes: Debezium
     * refuses an exclude list next to an include list, and matches whole names, so {@code
     * (?!(?:ex1|ex2)$)(?:inc)} selects what {@code inc} matches and no exclude does.
     */
    static String[] tableFilters(OptionSection config) {
        List<String> includes = config.getOptional(MySqlSourceOptions.TABLES).orElse(List.of());
        List<String> excludes = config.get(MySqlSourceOptions.TABLES_EXCLUDE);
        for (String regex : includes) {
            checkRegex(config, MySqlSourceOptions.TABLES, regex);
        }
        if (excludes.isEmpty()) {
            return includes.toArray(String[]::new);
        }
        StringBuilder guard = new StringBuilder("(?!(?:");
        for (int i = 0; i < excludes.size(); i++) {
            String regex = excludes.get(i).trim();
            checkRegex(config, MySqlSourceOptions.TABLES_EXCLUDE, regex);
            checkArgument(
                    !regex.contains(","),
                    "Option '%s' takes regular expressions without ',', but one is '%s'",
                    config.key(MySqlSourceOptions.TABLES_EXCLUDE),
                    regex);
            guard.append(i == 0 ? "" : "|").append(regex);
        }
        guard.append(")$)");
        return includes.stream().map(inc -> guard + "(?:" + inc + ")").toArray(String[]::new);
    }

    private static void checkRegex(OptionSection config, ConfigOption<?> option, String regex) {
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    "Option '"
                            + config.key(option)
                            + "' takes regular expressions, but '"
                            + regex
                            + "' is not one: "
                            + e.getDescription(),
                    e);
        }
    }

    private static String databaseOf(OptionSection config, String qualifiedTable) {
        int dot = qualifiedTable.indexOf('.');
        checkArgument(
                dot > 0 && dot < qualifiedTable.length() - 1,
                "Option '%s' takes 'database.table' entries, but one is '%s'",
                config.key(MySqlSourceOptions.TABLES),
                qualifiedTable);
        String database = qualifiedTable.substring(0, dot);
        // 'shop\.orders' names the database 'shop' with an escaped dot.
        return database.endsWith("\\") ? database.substring(0, database.length() - 1) : database;
    }
}

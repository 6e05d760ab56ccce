package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Options of the MySQL/MariaDB change source: YAML section {@code source.}, the {@code
 * sluice-mysql} table's and the Sluice catalog's keys in SQL.
 */
@PublicEvolving
public final class MySqlSourceOptions {

    public static final ConfigOption<String> HOSTNAME =
            ConfigOptions.key("hostname")
                    .stringType()
                    .defaultValue("127.0.0.1")
                    .withDescription(
                            "Host of the MySQL or MariaDB server to capture, or a comma-separated"
                                    + " list of the servers that may be its primary (db1,db2:3307,"
                                    + " each optionally host:port). With a list, every connection"
                                    + " (the binlog reader's on each reconnect, schema reads,"
                                    + " checks) goes to the first host that answers and is"
                                    + " writable (@@read_only = 0 and, on MySQL,"
                                    + " @@super_read_only = 0); Flink CDC's snapshot reader gets"
                                    + " the first writable host at job start. A single host is"
                                    + " read whether writable or not.");

    public static final ConfigOption<Integer> PORT =
            ConfigOptions.key("port")
                    .intType()
                    .defaultValue(3306)
                    .withDescription(
                            "Port of the MySQL or MariaDB server; of each host of 'hostname' that"
                                    + " names none.");

    public static final ConfigOption<Boolean> FAILOVER_ALLOW_REPLICA =
            ConfigOptions.key("failover.allow-replica")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "With a list of hosts in 'hostname': whether the source may read a"
                                    + " read-only host (a replica) when no host of the list is"
                                    + " writable. Off by default: a replica's binlog only has"
                                    + " what it applied, so after a failover it may lag what"
                                    + " the old primary committed, and a replica is not read by"
                                    + " mistake. With log_slave_updates (MariaDB) or"
                                    + " log_replica_updates (MySQL) on and GTIDs, a replica is a"
                                    + " valid source: the reader checks that it has every GTID"
                                    + " already published before it goes on there.");

    public static final ConfigOption<String> USERNAME =
            ConfigOptions.key("username")
                    .stringType()
                    .defaultValue("cdc")
                    .withDescription(
                            "User with SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE and"
                                    + " REPLICATION CLIENT (BINLOG MONITOR on MariaDB).");

    public static final ConfigOption<String> PASSWORD =
            ConfigOptions.key("password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Password of the source user. Required.");

    public static final ConfigOption<SourceSslMode> SSL_MODE =
            ConfigOptions.key("ssl-mode")
                    .enumType(SourceSslMode.class)
                    .defaultValue(SourceSslMode.DISABLED)
                    .withDescription(
                            "TLS on every connection the source opens (its JDBC connections, Flink"
                                    + " CDC's and Debezium's, and both binlog readers): disabled"
                                    + " (plain TCP), preferred (TLS when the server offers it,"
                                    + " certificate not checked), required (TLS, certificate not"
                                    + " checked), verify-ca (TLS, certificate signed by a CA in"
                                    + " 'ssl.truststore') or verify-identity (as verify-ca, and"
                                    + " the certificate names 'hostname'). disabled by default:"
                                    + " what the binlog connections, Debezium and Canal do, so an"
                                    + " upgrade changes no running setup; a server that requires"
                                    + " TLS needs required or stronger.");

    public static final ConfigOption<String> SSL_TRUSTSTORE =
            ConfigOptions.key("ssl.truststore")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Path of the trust store (JKS or PKCS12) with the CA certificate that"
                                    + " signed the server's, on every machine the job runs on."
                                    + " Required with ssl-mode verify-ca and verify-identity, and"
                                    + " only used with them.");

    public static final ConfigOption<String> SSL_TRUSTSTORE_PASSWORD =
            ConfigOptions.key("ssl.truststore-password")
                    .stringType()
                    .defaultValue("")
                    .withDescription("Password of 'ssl.truststore'; empty for none.");

    public static final ConfigOption<List<String>> TABLES =
            ConfigOptions.key("tables")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "Tables to capture as 'database.table' regular expressions,"
                                    + " separated by ';'. Required.");

    public static final ConfigOption<List<String>> TABLES_EXCLUDE =
            ConfigOptions.key("tables-exclude")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "Tables to leave out although 'tables' matches them, as"
                                    + " 'database.table' regular expressions separated by ';'.");

    public static final ConfigOption<String> SERVER_ID =
            ConfigOptions.key("server-id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Replica server id, or a range 'a-b' with at least as many ids as"
                                    + " the source parallelism; unique among the server's"
                                    + " replicas, other jobs included (the server keeps one"
                                    + " binlog connection per id). Default: a range of 256 ids"
                                    + " drawn at random when the job is built, the same across"
                                    + " its restarts. Set it where the server's replica ids are"
                                    + " managed by hand.");

    public static final ConfigOption<String> SERVER_TIME_ZONE =
            ConfigOptions.key("server-time-zone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDescription(
                            "The database server's time zone, an id like 'UTC', 'Europe/Berlin'"
                                    + " or '+08:00': it must agree with the server's offset from"
                                    + " UTC, which the source checks when it starts.");

    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL =
            ConfigOptions.key("heartbeat-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How often the binlog reader asks the server for a heartbeat, so"
                                    + " offsets move while the database is idle, and how often"
                                    + " 'heartbeat-table' is written.");

    public static final ConfigOption<Duration> STALL_TIMEOUT =
            ConfigOptions.key("stall-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription(
                            "How long a source subtask that holds splits may read nothing from"
                                    + " them (no rows, snapshot chunks or binlog heartbeats)"
                                    + " before it fails with its splits named, so that Flink's"
                                    + " restart strategy restores it. At least three times"
                                    + " 'heartbeat-interval', so that an idle database is"
                                    + " not taken for a stalled source. 0 turns the check off.");

    public static final ConfigOption<String> HEARTBEAT_TABLE =
            ConfigOptions.key("heartbeat-table")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "A 'database.table' that Sluice creates if missing and updates every"
                                    + " 'heartbeat-interval', then reads back from the"
                                    + " binlog and drops, so the lag metric stays true while the"
                                    + " captured tables are idle. Needs CREATE, INSERT and UPDATE"
                                    + " on it. Empty: no heartbeat, and the lag grows while the"
                                    + " database is idle.");

    public static final ConfigOption<String> TIMESTAMP_TIME_ZONE =
            ConfigOptions.key("timestamp-time-zone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDescription(
                            "Time zone in which TIMESTAMP column values are written as text"
                                    + " ('YYYY-MM-DD HH:MM:SS'). Canal uses its JVM's default zone;"
                                    + " set the zone your Canal consumers expect, e.g."
                                    + " 'Asia/Shanghai' or '+08:00'. DATETIME values carry no zone"
                                    + " and are not affected.");

    public static final ConfigOption<Boolean> INCLUDE_SCHEMA_CHANGES =
            ConfigOptions.key("include-schema-changes")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether DDL statements on the captured tables are emitted as Canal"
                                    + " DDL changes (CREATE, ALTER, ERASE, TRUNCATE, RENAME, CINDEX,"
                                    + " DINDEX, QUERY), as Canal does by default.");

    public static final ConfigOption<Boolean> INCLUDE_QUERIES =
            ConfigOptions.key("include-queries")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether each DML statement's text is written as a Canal QUERY message"
                                    + " (isDdl false) before the statement's first row, as Canal"
                                    + " does for MySQL rows-query events, for sessions with"
                                    + " binlog_rows_query_log_events=ON (MySQL) or"
                                    + " binlog_annotate_row_events=ON (MariaDB, its default)."
                                    + " MariaDB's annotate-rows events need reader sluice: with"
                                    + " flink-cdc the job refuses to start on MariaDB.");

    public static final ConfigOption<StatementLoggedChanges> STATEMENT_LOGGED_CHANGES =
            ConfigOptions.key("statement-logged-changes")
                    .enumType(StatementLoggedChanges.class)
                    .defaultValue(StatementLoggedChanges.FAIL)
                    .withDescription(
                            "What reader sluice does with an INSERT, UPDATE, DELETE, REPLACE or"
                                    + " LOAD DATA of a captured table that the binlog holds as"
                                    + " SQL text instead of rows, which a session writes with"
                                    + " SET SESSION binlog_format='STATEMENT' (or MIXED) even"
                                    + " when the server's is ROW: its rows cannot be read. fail"
                                    + " (the default) stops the source, naming the table, the"
                                    + " statement and its binlog position; skip passes over it"
                                    + " with a warning and counts it in the source's metric"
                                    + " sluice.statementLoggedChangesSkipped: its rows are then"
                                    + " missing from the output.");

    public static final ConfigOption<String> SIGNAL_TABLE =
            ConfigOptions.key("signal.table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A table, as database.table, whose INSERTs are signals to the"
                                    + " running job, as Debezium's signal table: columns id, type"
                                    + " and data; type execute-snapshot with data"
                                    + " {\"data-collections\": [\"db.table\"],"
                                    + " \"additional-condition\": \"...\"} queues an"
                                    + " on-demand snapshot of each table, stop-snapshot drops them"
                                    + " (all, without data-collections). Its changes are not"
                                    + " emitted. Only with reader sluice; none by default.");

    public static final ConfigOption<Integer> ON_DEMAND_CHUNK_SIZE =
            ConfigOptions.key("snapshot.on-demand.chunk-size")
                    .intType()
                    .defaultValue(4096)
                    .withDescription(
                            "Rows per chunk of an on-demand snapshot: each chunk is one SELECT"
                                    + " between two reads of the binlog's end, held in memory"
                                    + " until the binlog reader passes the second.");

    public static final ConfigOption<NewTables> NEW_TABLES =
            ConfigOptions.key("new-tables")
                    .enumType(NewTables.class)
                    .defaultValue(NewTables.STREAM_ONLY)
                    .withDescription(
                            "What reader sluice does with a table matching source.tables that is"
                                    + " created (or renamed into a captured name) while the job"
                                    + " runs: stream-only (the default, as Debezium) captures its"
                                    + " changes from that DDL on; snapshot also queues an"
                                    + " on-demand snapshot of it, so rows it held before (a table"
                                    + " renamed into place, a copy) are read; ignore leaves it"
                                    + " out.");

    public static final ConfigOption<SourceReaderKind> READER =
            ConfigOptions.key("reader")
                    .enumType(SourceReaderKind.class)
                    .defaultValue(SourceReaderKind.SLUICE)
                    .withDescription(
                            "Which reader follows the binlog: sluice (Sluice's own binlog reader,"
                                    + " with Flink CDC's split enumerator and, with startup mode"
                                    + " initial, Flink CDC's snapshot reader) or flink-cdc (Flink"
                                    + " CDC's reader, Debezium inside; selectable for one more"
                                    + " release).");

    public static final ConfigOption<StartupMode> STARTUP_MODE =
            ConfigOptions.key("startup.mode")
                    .enumType(StartupMode.class)
                    .defaultValue(StartupMode.INITIAL)
                    .withDescription(
                            "initial (snapshot, then binlog), latest, timestamp, binlog-position"
                                    + " or gtid (binlog only, from the given point).");

    public static final ConfigOption<Long> STARTUP_TIMESTAMP =
            ConfigOptions.key("startup.timestamp-millis")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Epoch milliseconds to start from in 'timestamp' mode.");

    public static final ConfigOption<String> STARTUP_BINLOG_FILE =
            ConfigOptions.key("startup.binlog-file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Binlog file to start from in 'binlog-position' mode.");

    public static final ConfigOption<Long> STARTUP_BINLOG_POSITION =
            ConfigOptions.key("startup.binlog-position")
                    .longType()
                    .noDefaultValue()
                    .withDescription("Position in the binlog file, in 'binlog-position' mode.");

    public static final ConfigOption<String> STARTUP_GTID_SET =
            ConfigOptions.key("startup.gtid-set")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "GTID set already processed, in 'gtid' mode: MySQL's (uuid:1-42,...)"
                                    + " or MariaDB's GTID position (domain-server-sequence,...,"
                                    + " e.g. @@gtid_binlog_pos), with reader sluice.");

    public static final ConfigOption<Map<String, String>> SNAPSHOT_CHUNK_KEY_COLUMNS =
            ConfigOptions.key("snapshot.chunk-key-columns")
                    .mapType()
                    .defaultValue(Map.of())
                    .withDescription(
                            "The column that splits the snapshot of a table without a primary key"
                                    + " into chunks, as 'database.table:column' pairs separated by"
                                    + " ','. A table without a primary key and without a chunk key"
                                    + " column cannot be snapshotted; pick a column with many"
                                    + " distinct values, ideally indexed.");

    public static final ConfigOption<Integer> SNAPSHOT_CHUNK_SIZE =
            ConfigOptions.key("snapshot.chunk-size")
                    .intType()
                    .defaultValue(8096)
                    .withDescription(
                            "Rows per snapshot chunk; chunks are read in parallel by the source"
                                    + " subtasks.");

    private MySqlSourceOptions() {}
}

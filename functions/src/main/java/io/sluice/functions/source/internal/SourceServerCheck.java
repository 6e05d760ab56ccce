package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;

import io.debezium.relational.TableId;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StartupMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.Serializable;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the source needs of the database, checked before it reads: the server reachable (at the
 * job's first start), the binlog on, ROW format, FULL row images, the privileges to read it, the
 * configured server time zone agreeing with the server's offset, the start position still there,
 * every table pattern matching a table, statement texts where asked for, and a way to split every
 * snapshotted table into chunks (for Sluice's reader, by a column whose keys it can compare: {@link
 * ServerCollations}), and no MariaDB system-versioned table whose binlog rows are not the table's.
 * Each problem is one line that says what, where and how to fix it. Run by the source's enumerator
 * when the job starts (on the JobManager, never while the job graph is built) and by {@code
 * ./sluice validate}.
 */
@Internal
public final class SourceServerCheck implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SourceServerCheck.class);
    private static final int ER_SPECIFIC_ACCESS_DENIED = 1227;
    private static final int ER_PARSE_ERROR = 1064;

    /** A database name without regular expression syntax. */
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_$]+");

    private static final int ER_UNKNOWN_SYSTEM_VARIABLE = 1193;

    /** MySQL's refusal of a connection without TLS under require_secure_transport=ON. */
    private static final int ER_SECURE_TRANSPORT_REQUIRED = 3159;

    private final SourceJdbc jdbc;
    private final StartupMode mode;
    @Nullable private final String startFile;
    private final List<String> tableFilters;

    /** The entry of 'tables' each filter comes from, as the user wrote it, for messages. */
    private final List<String> tableEntries;

    private final List<Pattern> tablePatterns;

    /** The configured server time zone, or null where none is (Sluice's binlog reader). */
    @Nullable private final String serverTimeZone;

    private final Map<String, String> chunkKeys;
    private final boolean includeQueries;

    /** Whether Sluice's binlog reader reads (it reads MariaDB's statement texts). */
    private final boolean sluiceReader;

    private final String prefix;

    /** How messages name where the start file came from. */
    private final String startFileSource;

    private SourceServerCheck(
            SourceJdbc jdbc,
            StartupMode mode,
            @Nullable String startFile,
            List<String> tableFilters,
            List<String> tableEntries,
            @Nullable String serverTimeZone,
            Map<String, String> chunkKeys,
            boolean includeQueries,
            boolean sluiceReader,
            String prefix,
            String startFileSource) {
        this.jdbc = jdbc;
        this.startFileSource = startFileSource;
        this.mode = mode;
        this.startFile = startFile;
        this.tableFilters = tableFilters;
        this.tableEntries = tableEntries;
        this.serverTimeZone = serverTimeZone;
        this.tablePatterns =
                tableFilters.stream().map(Pattern::compile).collect(Collectors.toList());
        this.chunkKeys = chunkKeys;
        this.includeQueries = includeQueries;
        this.sluiceReader = sluiceReader;
        this.prefix = prefix;
    }

    /**
     * The checks for the source {@code config} describes, whose tables Flink CDC selects by {@code
     * filters}; problems name its options as {@code config} names them.
     */
    public static SourceServerCheck of(OptionSection config, String[] filters) {
        // The filters are the 'tables' entries in order (excludes folded in), then any the source
        // adds (the heartbeat table), which are named as they are.
        List<String> entries = config.getOptional(MySqlSourceOptions.TABLES).orElse(List.of());
        List<String> named = new ArrayList<>();
        for (int i = 0; i < filters.length; i++) {
            named.add(i < entries.size() ? entries.get(i) : filters[i]);
        }
        return new SourceServerCheck(
                SourceJdbc.from(config),
                config.get(MySqlSourceOptions.STARTUP_MODE),
                config.getOptional(MySqlSourceOptions.STARTUP_BINLOG_FILE).orElse(null),
                List.of(filters),
                named,
                config.get(MySqlSourceOptions.SERVER_TIME_ZONE),
                new TreeMap<>(config.get(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS)),
                config.get(MySqlSourceOptions.INCLUDE_QUERIES),
                config.get(MySqlSourceOptions.READER) == SourceReaderKind.SLUICE,
                config.prefix(),
                "Option '" + config.prefix() + MySqlSourceOptions.STARTUP_BINLOG_FILE.key() + "'");
    }

    /**
     * The checks for Sluice's binlog reader starting in {@code startFile}: the binlog, its format
     * and row image, the privileges, and the file still there. {@code run(true)} runs them.
     *
     * @param startWhat how messages name the start, e.g. "The binlog reader's start position"
     */
    public static SourceServerCheck forBinlogReader(
            SourceJdbc jdbc, String startFile, String startWhat) {
        return new SourceServerCheck(
                jdbc,
                StartupMode.BINLOG_POSITION,
                startFile,
                List.of(),
                List.of(),
                null,
                Map.of(),
                false,
                true,
                "",
                startWhat);
    }

    /**
     * Runs every check. A problem the server's settings cause is a {@link SourceSetupException}
     * naming them all; a server that cannot be reached now is an {@link IllegalStateException} (it
     * may come back, so a restart may help).
     *
     * @param freshStart whether the job starts anew (its start position and snapshot still ahead)
     *     rather than from a checkpoint
     */
    public void run(boolean freshStart) {
        throwIfAny(problems(freshStart, false));
    }

    /**
     * Runs every check at the job's first start: as {@link #run(boolean) run(true)}, and a server
     * that cannot be reached (unknown host, connection refused or timed out) is a {@link
     * SourceSetupException} too. The job never read: most likely its host or port is wrong.
     */
    public void runAtFirstStart() {
        throwIfAny(problems(true, true));
    }

    /**
     * Whether the job could follow a failover of the server's primary by GTID ({@code docs/
     * operations.md}, "Primary failover"): one line saying so, or what is missing on this server.
     * Not a problem: a job that reads this server alone needs neither. Empty when the server cannot
     * be asked (the problems say why) or the reader is Flink CDC's.
     */
    public List<String> failoverNotes() {
        if (!sluiceReader) {
            return List.of();
        }
        if (jdbc.hosts().isList()) {
            return hostNotes();
        }
        try (Connection connection = jdbc.connect();
                Statement statement = connection.createStatement()) {
            boolean mariaDb = text(statement, "SELECT VERSION()").contains("mariadb");
            List<String> missing = new ArrayList<>();
            if (!mariaDb && !"on".equals(text(statement, "SELECT @@global.gtid_mode"))) {
                missing.add("gtid_mode is not ON (with enforce_gtid_consistency=ON)");
            }
            String logReplicated = mariaDb ? "log_slave_updates" : "log_replica_updates";
            String logged;
            try {
                logged = text(statement, "SELECT @@global." + logReplicated);
            } catch (SQLException e) {
                logReplicated = "log_slave_updates"; // MySQL before 8.0.26
                logged = text(statement, "SELECT @@global." + logReplicated);
            }
            if (!"1".equals(logged) && !"on".equals(logged)) {
                missing.add(
                        logReplicated
                                + " is OFF here (a replica promoted with it off lacks what it"
                                + " replicated)");
            }
            if (missing.isEmpty()) {
                return List.of(
                        String.format(
                                "failover by GTID is possible from the server at %s (GTIDs on,"
                                        + " %s=ON): set the same on every replica that may become"
                                        + " primary.",
                                jdbc.address(), logReplicated));
            }
            return List.of(
                    String.format(
                            "failover by GTID is not possible from the server at %s: %s. If"
                                    + " its primary changes, the job stops rather than guess a"
                                    + " position (docs/operations.md, Primary failover).",
                            jdbc.address(), String.join("; ", missing)));
        } catch (SQLException e) {
            return List.of();
        }
    }

    /** The same checks on {@code host} alone. */
    private SourceServerCheck on(SourceJdbc host) {
        return new SourceServerCheck(
                host,
                mode,
                startFile,
                tableFilters,
                tableEntries,
                serverTimeZone,
                chunkKeys,
                includeQueries,
                sluiceReader,
                prefix,
                startFileSource);
    }

    /**
     * What {@code ./sluice validate} says of each host of a list: whether it answers, is writable
     * or read-only, has GTIDs on and logs what it replicates.
     */
    private List<String> hostNotes() {
        List<String> notes = new ArrayList<>();
        List<SourceHosts.Host> hosts = jdbc.hosts().hosts();
        for (int i = 0; i < hosts.size(); i++) {
            SourceJdbc host = jdbc.alone(hosts.get(i));
            String said;
            try (Connection connection = host.connect();
                    Statement statement = connection.createStatement()) {
                boolean mariaDb = text(statement, "SELECT VERSION()").contains("mariadb");
                String readOnly = SourceJdbc.readOnly(connection);
                String gtids =
                        mariaDb || "on".equals(text(statement, "SELECT @@global.gtid_mode"))
                                ? "GTIDs on"
                                : "GTIDs off";
                said =
                        String.format(
                                "reachable, %s, %s, %s",
                                readOnly.isEmpty() ? "writable" : "read-only (" + readOnly + ")",
                                gtids,
                                logReplicated(statement, mariaDb));
            } catch (SQLException e) {
                said = "not reachable: " + firstLine(e.getMessage());
            }
            notes.add(
                    String.format(
                            "host %d of %d in '%s', %s: %s",
                            i + 1, hosts.size(), jdbc.hosts().hostnameKey(), host.address(), said));
        }
        return notes;
    }

    /** {@code log_slave_updates=ON} or the like. */
    private static String logReplicated(Statement statement, boolean mariaDb) throws SQLException {
        String name = mariaDb ? "log_slave_updates" : "log_replica_updates";
        String logged;
        try {
            logged = text(statement, "SELECT @@global." + name);
        } catch (SQLException e) {
            name = "log_slave_updates"; // MySQL before 8.0.26
            logged = text(statement, "SELECT @@global." + name);
        }
        return name + ("1".equals(logged) || "on".equals(logged) ? "=ON" : "=OFF");
    }

    private static void throwIfAny(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new SourceSetupException(String.join("\n", problems));
        }
    }

    /**
     * Every problem, one line each; empty when the source can read.
     *
     * @throws IllegalStateException if the server cannot be reached
     */
    public List<String> problems(boolean freshStart) {
        return problems(freshStart, false);
    }

    /**
     * {@link #problems(boolean) problems(true)}, and a server that cannot be reached is one of
     * them: what {@code ./sluice validate} reports.
     */
    public List<String> problemsAtFirstStart() {
        return problems(true, true);
    }

    private List<String> problems(boolean freshStart, boolean firstStart) {
        if (jdbc.hosts().isList()) {
            // The checks run on the host the job would read now, as one.
            SourceJdbc chosen;
            try {
                chosen = jdbc.chosen();
            } catch (SQLException e) {
                if (firstStart) {
                    return List.of(e.getMessage());
                }
                throw new IllegalStateException(e.getMessage(), e); // a promotion may come
            }
            return on(chosen).problems(freshStart, firstStart);
        }
        List<String> problems = new ArrayList<>();
        try (Connection connection = jdbc.connect();
                Statement statement = connection.createStatement()) {
            boolean mariaDb = text(statement, "SELECT VERSION()").contains("mariadb");
            checkBinlog(statement, problems);
            if (!mariaDb) {
                checkRowValueOptions(statement, problems);
            }
            checkPrivileges(statement, mariaDb, problems);
            if (includeQueries && mariaDb && !sluiceReader) {
                problems.add(
                        String.format(
                                "Option '%s' needs MySQL, but the server at %s is MariaDB: its"
                                        + " annotate-rows events cannot be read by the CDC source"
                                        + " (Debezium 1.9). Set '%s' to false, or '%s' to"
                                        + " 'sluice'.",
                                prefix + MySqlSourceOptions.INCLUDE_QUERIES.key(),
                                jdbc.address(),
                                prefix + MySqlSourceOptions.INCLUDE_QUERIES.key(),
                                prefix + MySqlSourceOptions.READER.key()));
            }
            if (includeQueries
                    && mariaDb
                    && sluiceReader
                    && !"1".equals(text(statement, "SELECT @@global.binlog_annotate_row_events"))) {
                LOG.warn(
                        "Option '{}' is on, but the MariaDB server at {} has"
                                + " binlog_annotate_row_events off by default: only sessions that"
                                + " turn it on give their statements' text.",
                        prefix + MySqlSourceOptions.INCLUDE_QUERIES.key(),
                        jdbc.address());
            }
            if (includeQueries
                    && !mariaDb
                    && !"1"
                            .equals(
                                    text(
                                            statement,
                                            "SELECT @@global.binlog_rows_query_log_events"))) {
                LOG.warn(
                        "Option '{}' is on, but the MySQL server at {} has"
                                + " binlog_rows_query_log_events off by default: only sessions that"
                                + " turn it on give their statements' text.",
                        prefix + MySqlSourceOptions.INCLUDE_QUERIES.key(),
                        jdbc.address());
            }
            checkTimeZone(statement, problems);
            if (freshStart) {
                checkStartFile(statement, problems);
                checkTables(statement, mariaDb, problems);
                if (mariaDb) { // MySQL has no type Sluice cannot read
                    problems.addAll(
                            UnsupportedColumns.problems(
                                    statement,
                                    tablePatterns,
                                    prefix + MySqlSourceOptions.TABLES.key()));
                }
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == ER_SECURE_TRANSPORT_REQUIRED) {
                problems.add(
                        String.format(
                                "The database at %s accepts only TLS connections"
                                        + " (require_secure_transport=ON), but option '%s' is %s:"
                                        + " set it to required, verify-ca or verify-identity.",
                                jdbc.address(),
                                prefix + MySqlSourceOptions.SSL_MODE.key(),
                                jdbc.tls().mode()));
                return problems;
            }
            Throwable handshake = tlsFailure(e);
            if (handshake != null) {
                // A certificate the trust store does not vouch for will not change by itself.
                problems.add(
                        String.format(
                                "The TLS handshake with the database at %s failed with option"
                                        + " '%s' %s: %s. Check that '%s' holds the CA certificate"
                                        + " that signed the server's (and with verify-identity"
                                        + " that the certificate names '%s').",
                                jdbc.address(),
                                prefix + MySqlSourceOptions.SSL_MODE.key(),
                                jdbc.tls().mode(),
                                handshake.getMessage(),
                                prefix + MySqlSourceOptions.SSL_TRUSTSTORE.key(),
                                prefix + MySqlSourceOptions.HOSTNAME.key()));
                return problems;
            }
            if ("28000".equals(e.getSQLState())) {
                problems.add(
                        String.format(
                                "The database at %s refuses user '%s': %s. Check '%s' and '%s'.",
                                jdbc.address(),
                                jdbc.user(),
                                e.getMessage(),
                                prefix + MySqlSourceOptions.USERNAME.key(),
                                prefix + MySqlSourceOptions.PASSWORD.key()));
                return problems;
            }
            String unreachable = firstStart ? unreachable(e) : null;
            if (unreachable != null) {
                problems.add(unreachable);
                return problems;
            }
            throw new IllegalStateException(
                    String.format(
                            "Cannot connect to the database at %s as user '%s': %s",
                            jdbc.address(), jdbc.user(), firstLine(e.getMessage())),
                    e);
        }
        return problems;
    }

    /**
     * What {@code e} says if the server could not be reached at all (unknown host, connection
     * refused or timed out, no route), as a problem naming the options; null if it is another
     * failure.
     */
    @Nullable
    private String unreachable(SQLException e) {
        String hostname = named(MySqlSourceOptions.HOSTNAME);
        String port = named(MySqlSourceOptions.PORT);
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return String.format(
                        "Option %s is '%s', a host name that does not resolve (unknown host): set"
                                + " it to the database server's host name or IP address.",
                        hostname, jdbc.host());
            }
            if (cause instanceof ConnectException) {
                return String.format(
                        "Nothing accepts connections at %s (connection refused): check that"
                                + " option %s (%d) is the port the database listens on, option %s"
                                + " ('%s') its host, and that the database runs.",
                        jdbc.address(), port, jdbc.port(), hostname, jdbc.host());
            }
            if (cause instanceof SocketTimeoutException
                    || cause instanceof NoRouteToHostException) {
                String what =
                        cause instanceof SocketTimeoutException
                                ? "connection timed out"
                                : "no route to host";
                return String.format(
                        "The database at %s cannot be reached (%s): check option %s ('%s') and"
                                + " option %s (%d), and that no firewall drops connections from"
                                + " the Flink cluster to it.",
                        jdbc.address(), what, hostname, jdbc.host(), port, jdbc.port());
            }
        }
        return null;
    }

    /**
     * Flink CDC fails its enumerator, in a restart loop, when {@code source.server-time-zone}
     * disagrees with the server's offset ({@link ServerZoneRule}); Sluice's reader reads the
     * snapshot in that zone too. Named here, by the same rule, with the zone to set.
     */
    private void checkTimeZone(Statement statement, List<String> problems) throws SQLException {
        if (serverTimeZone == null) {
            return;
        }
        String option = named(MySqlSourceOptions.SERVER_TIME_ZONE);
        ZoneId zone;
        try {
            zone = ZoneId.of(serverTimeZone);
        } catch (DateTimeException e) {
            problems.add(
                    String.format(
                            "Option %s must be a time zone id like 'UTC', 'Europe/Berlin' or"
                                    + " '+08:00', but is '%s'.",
                            option, serverTimeZone));
            return;
        }
        int serverOffset;
        String serverZone;
        String systemZone;
        try (ResultSet result =
                statement.executeQuery(
                        "SELECT TIME_TO_SEC(TIMEDIFF(NOW(), UTC_TIMESTAMP())),"
                                + " @@session.time_zone, @@system_time_zone")) {
            result.next();
            serverOffset = result.getInt(1);
            serverZone = result.getString(2);
            systemZone = result.getString(3);
        }
        if (ServerZoneRule.agreesNow(serverOffset, zone)) {
            return;
        }
        String remedy;
        if (ServerZoneRule.agreesNow(
                serverOffset, ZoneId.of(MySqlSourceOptions.SERVER_TIME_ZONE.defaultValue()))) {
            remedy =
                    "leave it unset (its default, '"
                            + MySqlSourceOptions.SERVER_TIME_ZONE.defaultValue()
                            + "', agrees with the server)";
        } else {
            String id = "SYSTEM".equalsIgnoreCase(serverZone) ? systemZone : serverZone;
            ZoneId candidate = zoneOrNull(id);
            remedy =
                    candidate != null && ServerZoneRule.agreesNow(serverOffset, candidate)
                            ? "set it to '" + candidate.getId() + "'"
                            : "set it to the server's time zone id, e.g. '"
                                    + ZoneOffset.ofTotalSeconds(serverOffset).getId()
                                    + "' (a region id like 'Europe/Berlin' also follows its"
                                    + " daylight saving time)";
        }
        problems.add(
                String.format(
                        "Option %s is '%s' (%s now), but the server at %s runs at %s (time_zone"
                                + " %s, system_time_zone %s), so time values would be read"
                                + " shifted and the CDC source refuses to start: %s.",
                        option,
                        serverTimeZone,
                        ServerZoneRule.utcOffset(ServerZoneRule.offsetNow(zone)),
                        jdbc.address(),
                        ServerZoneRule.utcOffset(serverOffset),
                        serverZone,
                        systemZone,
                        remedy));
    }

    /** {@code id} as a zone (MySQL's abbreviations where Java knows them), or null. */
    @Nullable
    private static ZoneId zoneOrNull(@Nullable String id) {
        if (id == null || id.isEmpty()) {
            return null;
        }
        try {
            return ZoneId.of(id, ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The TLS failure in {@code e}'s causes, if it is one: a certificate or handshake problem. */
    @Nullable
    private static Throwable tlsFailure(SQLException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof javax.net.ssl.SSLException
                    || cause instanceof java.security.cert.CertificateException) {
                return cause;
            }
        }
        return null;
    }

    private void checkBinlog(Statement statement, List<String> problems) throws SQLException {
        if (!"1".equals(text(statement, "SELECT @@global.log_bin"))) {
            problems.add(
                    String.format(
                            "The binlog is off on the server at %s (log_bin=OFF), and Sluice"
                                    + " reads every change from it: start the server with"
                                    + " --log-bin and a --server-id (MySQL 8 has it on by"
                                    + " default; on MariaDB add log_bin to the server's"
                                    + " configuration).",
                            jdbc.address()));
            return;
        }
        // The server's setting only: a session may still SET SESSION binlog_format='STATEMENT'
        // (with the privilege), which no check at start can see; the reader meets its DML in the
        // binlog (source.statement-logged-changes).
        String format = text(statement, "SELECT @@global.binlog_format");
        if (!"row".equals(format)) {
            problems.add(
                    String.format(
                            "binlog_format is %s on the server at %s, but Sluice reads row events"
                                    + " only: set binlog_format=ROW in the server's configuration"
                                    + " (SET GLOBAL binlog_format='ROW' holds for new sessions"
                                    + " until a restart).",
                            format.toUpperCase(Locale.ROOT), jdbc.address()));
        }
        String image = text(statement, "SELECT @@global.binlog_row_image");
        if (!"full".equals(image)) {
            String why =
                    "minimal".equals(image)
                            ? "row events then carry only the changed columns and the key"
                            : "row events then leave out unchanged BLOB and TEXT columns";
            problems.add(
                    String.format(
                            "binlog_row_image is %s on the server at %s: %s, so Canal's data"
                                    + " and old cannot be complete. Set binlog_row_image=FULL.",
                            image.toUpperCase(Locale.ROOT), jdbc.address(), why));
        }
    }

    /**
     * MySQL's {@code binlog_row_value_options=PARTIAL_JSON} logs JSON updates as diffs that neither
     * reader applies (Sluice's refuses them, Flink CDC's client drops the event).
     */
    private void checkRowValueOptions(Statement statement, List<String> problems)
            throws SQLException {
        String options;
        try {
            options = text(statement, "SELECT @@global.binlog_row_value_options");
        } catch (SQLException e) {
            if (e.getErrorCode() == ER_UNKNOWN_SYSTEM_VARIABLE) {
                return; // before MySQL 8.0.3: no partial JSON updates
            }
            throw e;
        }
        if (options.contains("partial_json")) {
            problems.add(
                    String.format(
                            "binlog_row_value_options is PARTIAL_JSON on the server at %s: MySQL"
                                    + " then logs an UPDATE of a JSON column by JSON_SET,"
                                    + " JSON_REPLACE or JSON_REMOVE as a diff against the old"
                                    + " document (PARTIAL_UPDATE_ROWS_EVENT), which Sluice cannot"
                                    + " apply. Set binlog_row_value_options='' in the server's"
                                    + " configuration (SET GLOBAL binlog_row_value_options=''"
                                    + " holds for new sessions until a restart).",
                            jdbc.address()));
        }
    }

    private void checkPrivileges(Statement statement, boolean mariaDb, List<String> problems)
            throws SQLException {
        List<String> grantLines = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SHOW GRANTS")) {
            while (result.next()) {
                grantLines.add(result.getString(1));
            }
        }
        String roleHint = mariaDb ? "" : inactiveRolesHint(statement, grantLines);
        String grant = mariaDb ? "BINLOG MONITOR" : "REPLICATION CLIENT";
        try {
            binlogStatus(statement);
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_SPECIFIC_ACCESS_DENIED) {
                throw e;
            }
            problems.add(
                    String.format(
                            "User '%s' may not read the binlog position on the server at %s"
                                    + " (%s): GRANT %s ON *.* TO '%s'.%s",
                            jdbc.user(),
                            jdbc.address(),
                            e.getMessage(),
                            grant,
                            jdbc.user(),
                            roleHint));
        }
        String all = String.join("\n", grantLines).toUpperCase(Locale.ROOT);
        // MariaDB's SHOW GRANTS names a granted role without its privileges; MySQL 8's lists
        // the privileges of the roles active at login, so there a role line proves nothing.
        boolean throughRoles = mariaDb && (all.contains("GRANT `") || all.contains("GRANT '"));
        if (!throughRoles
                && !all.contains("REPLICATION SLAVE")
                && !all.contains("REPLICATION REPLICA")
                && !all.contains("ALL PRIVILEGES ON *.*")) {
            problems.add(
                    String.format(
                            "User '%s' may not read the binlog on the server at %s (no REPLICATION"
                                    + " SLAVE privilege): GRANT REPLICATION SLAVE ON *.* TO"
                                    + " '%s'.%s",
                            jdbc.user(), jdbc.address(), jdbc.user(), roleHint));
        }
    }

    /**
     * On MySQL 8, roles granted to the user but not active at login (no {@code SET DEFAULT ROLE},
     * {@code activate_all_roles_on_login} off) give it none of their privileges; "" if none is.
     */
    private String inactiveRolesHint(Statement statement, List<String> grantLines)
            throws SQLException {
        List<String> roles = new ArrayList<>();
        for (String line : grantLines) {
            // GRANT `role`@`%`,`other`@`%` TO `user`@`host`
            if (line.startsWith("GRANT `") && line.contains(" TO ")) {
                roles.add(line.substring("GRANT ".length(), line.indexOf(" TO ")));
            }
        }
        if (roles.isEmpty() || !"none".equals(text(statement, "SELECT CURRENT_ROLE()"))) {
            return "";
        }
        return String.format(
                " Its roles %s are granted but not active when it logs in: SET DEFAULT ROLE ALL"
                        + " TO '%s' (or the server's activate_all_roles_on_login=ON).",
                String.join(", ", roles), jdbc.user());
    }

    private void checkStartFile(Statement statement, List<String> problems) throws SQLException {
        if (mode != StartupMode.BINLOG_POSITION || startFile == null) {
            return;
        }
        List<String> files = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SHOW BINARY LOGS")) {
            while (result.next()) {
                files.add(result.getString(1));
            }
        }
        if (!files.contains(startFile)) {
            problems.add(
                    String.format(
                            "%s names '%s', which the server at %s no longer has (purged)"
                                    + " or never wrote; it has %s. Start from a file it has, or"
                                    + " from 'initial'.",
                            startFileSource,
                            startFile,
                            jdbc.address(),
                            files.isEmpty()
                                    ? "none"
                                    : files.get(0) + " to " + files.get(files.size() - 1)));
        }
    }

    /**
     * Every table pattern must match a table (a later table would need the source to wait for it,
     * and Flink CDC's snapshot fails without one); in a snapshot every matched table needs a
     * primary key or a chunk key column, or Flink CDC cannot split it; on MariaDB, no matched table
     * is versioned in a way whose rows the binlog does not give ({@link #checkVersionedTables}).
     */
    private void checkTables(Statement statement, boolean mariaDb, List<String> problems)
            throws SQLException {
        if (tableFilters.isEmpty()) {
            return;
        }
        Map<String, Boolean> hasKey = new TreeMap<>();
        try (ResultSet result =
                statement.executeQuery(
                        // STATISTICS, not TABLE_CONSTRAINTS: MariaDB shows a user with only
                        // SELECT no constraints.
                        "SELECT t.TABLE_SCHEMA, t.TABLE_NAME, MAX(s.INDEX_NAME = 'PRIMARY')"
                                + " FROM information_schema.TABLES t LEFT JOIN"
                                + " information_schema.STATISTICS s ON s.TABLE_SCHEMA ="
                                + " t.TABLE_SCHEMA AND s.TABLE_NAME = t.TABLE_NAME WHERE"
                                + " t.TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') GROUP"
                                + " BY t.TABLE_SCHEMA,"
                                + " t.TABLE_NAME")) {
            while (result.next()) {
                hasKey.put(result.getString(1) + "." + result.getString(2), result.getInt(3) == 1);
            }
        }
        List<String> unsplittable = new ArrayList<>();
        for (int i = 0; i < tableFilters.size(); i++) {
            Pattern pattern = Pattern.compile(tableFilters.get(i));
            // Debezium's table filter, which Flink CDC selects by, ignores case.
            Pattern anyCase = Pattern.compile(tableFilters.get(i), Pattern.CASE_INSENSITIVE);
            boolean matched = false;
            for (Map.Entry<String, Boolean> table : hasKey.entrySet()) {
                if (anyCase.matcher(table.getKey()).matches()) {
                    matched = true;
                }
                if (!pattern.matcher(table.getKey()).matches()) {
                    continue;
                }
                if (mode == StartupMode.INITIAL
                        && !table.getValue()
                        && !chunkKeys.containsKey(table.getKey())
                        && !unsplittable.contains(table.getKey())) {
                    unsplittable.add(table.getKey());
                }
            }
            if (!matched) {
                problems.add(unmatched(statement, tableEntries.get(i), hasKey.keySet()));
            }
        }
        if (mode == StartupMode.INITIAL && sluiceReader) {
            checkStringChunkKeys(statement, hasKey.keySet(), problems);
        }
        if (mariaDb) {
            checkVersionedTables(statement, problems);
            checkOldTemporalColumns(statement, problems);
        }
        if (!unsplittable.isEmpty()) {
            problems.add(
                    String.format(
                            "Tables without a primary key cannot be snapshotted in chunks: %s. Name"
                                    + " a column for each in %s, e.g. '%s:<column>', add a"
                                    + " primary key, or leave them out.",
                            unsplittable,
                            named(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS),
                            unsplittable.get(0)));
        }
    }

    /**
     * A {@code tables} entry that matches no table the user can see: Flink CDC would find no table
     * to snapshot, and the binlog would bring nothing. Names a missing database when the entry's
     * database part is a plain name, else the tables there are, and what to do.
     */
    private String unmatched(Statement statement, String entry, Set<String> tables)
            throws SQLException {
        String option = named(MySqlSourceOptions.TABLES);
        int dot = entry.indexOf('.');
        String database = dot < 0 ? entry : entry.substring(0, dot);
        database =
                database.endsWith("\\") ? database.substring(0, database.length() - 1) : database;
        boolean plain = PLAIN_NAME.matcher(database).matches();
        if (plain) {
            List<String> databases = new ArrayList<>();
            try (ResultSet result =
                    statement.executeQuery(
                            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME"
                                    + " NOT IN ('information_schema', 'performance_schema',"
                                    + " 'mysql', 'sys') ORDER BY 1")) {
                while (result.next()) {
                    databases.add(result.getString(1));
                }
            }
            String known = database;
            if (databases.stream().noneMatch(name -> name.equalsIgnoreCase(known))) {
                return String.format(
                        "Option %s names database '%s' (in '%s'), which user '%s' cannot see on"
                                + " the server at %s: it does not exist, or the user has no"
                                + " privilege in it (it sees %s). Correct the name, create the"
                                + " database and its tables before the job starts, or GRANT SELECT"
                                + " ON `%s`.* TO '%s'.",
                        option,
                        database,
                        entry,
                        jdbc.user(),
                        jdbc.address(),
                        few(databases),
                        database,
                        jdbc.user());
            }
        }
        String prefix = database + ".";
        List<String> there = new ArrayList<>();
        for (String table : tables) {
            if (plain && table.regionMatches(true, 0, prefix, 0, prefix.length())) {
                there.add(table.substring(prefix.length()));
            }
        }
        String excluded = "";
        Pattern unguarded = Pattern.compile(entry, Pattern.CASE_INSENSITIVE);
        if (tables.stream().anyMatch(table -> unguarded.matcher(table).matches())) {
            excluded =
                    " (every table it matches is excluded by "
                            + named(MySqlSourceOptions.TABLES_EXCLUDE)
                            + ")";
        }
        return String.format(
                "Option %s has '%s', which matches no table that user '%s' can see on the server"
                        + " at %s%s%s: correct the pattern, create the tables before the job"
                        + " starts, or GRANT SELECT on them to '%s'.",
                option,
                entry,
                jdbc.user(),
                jdbc.address(),
                excluded,
                plain ? "; '" + database + "' has " + few(there) : "",
                jdbc.user());
    }

    /** Up to ten names, for messages. */
    private static String few(List<String> names) {
        if (names.isEmpty()) {
            return "none";
        }
        return names.size() <= 10
                ? String.join(", ", names)
                : String.join(", ", names.subList(0, 10)) + " and " + (names.size() - 10) + " more";
    }

    /** Whether a table pattern matches {@code table} ({@code database.table}). */
    private boolean captures(String table) {
        return tablePatterns.stream().anyMatch(pattern -> pattern.matcher(table).matches());
    }

    /**
     * MariaDB's system-versioned tables whose binlog rows are not the table's: without declared row
     * start and end columns (information_schema shows none, the binlog's rows carry both and the
     * history rows), or with transaction-precise history (BIGINT UNSIGNED row start: MariaDB logs
     * their changes as statements even under binlog_format=ROW).
     */
    private void checkVersionedTables(Statement statement, List<String> problems)
            throws SQLException {
        List<String> hidden = new ArrayList<>();
        List<String> transactionPrecise = new ArrayList<>();
        try (ResultSet result =
                statement.executeQuery(
                        "SELECT t.TABLE_SCHEMA, t.TABLE_NAME, MAX(c.DATA_TYPE) FROM"
                                + " information_schema.TABLES t LEFT JOIN"
                                + " information_schema.COLUMNS c ON c.TABLE_SCHEMA ="
                                + " t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME AND"
                                + " c.GENERATION_EXPRESSION = 'ROW START' WHERE t.TABLE_TYPE ="
                                + " 'SYSTEM VERSIONED' GROUP BY t.TABLE_SCHEMA, t.TABLE_NAME"
                                + " ORDER BY 1, 2")) {
            while (result.next()) {
                String table = result.getString(1) + "." + result.getString(2);
                if (!captures(table)) {
                    continue;
                }
                String rowStart = result.getString(3);
                if (rowStart == null) {
                    hidden.add(table);
                } else if (rowStart.equalsIgnoreCase("bigint")) {
                    transactionPrecise.add(table);
                }
            }
        }
        if (!hidden.isEmpty()) {
            problems.add(
                    "MariaDB system-versioned tables without declared row start and end columns"
                            + " cannot be captured: "
                            + hidden
                            + ". Their binlog rows carry the two hidden columns, and the history:"
                            + " an UPDATE also inserts the old row, a DELETE is an UPDATE of the"
                            + " hidden row end. Declare the columns (GENERATED ALWAYS AS ROW START"
                            + " / ROW END, docs/source.md) or leave the tables out.");
        }
        if (!transactionPrecise.isEmpty()) {
            problems.add(
                    "MariaDB system-versioned tables with transaction-precise history cannot be"
                            + " captured: "
                            + transactionPrecise
                            + ". MariaDB logs their changes as statements, even with"
                            + " binlog_format=ROW, so the binlog holds no rows of them. Use"
                            + " TIMESTAMP(6) row start and end columns or leave the tables out.");
        }
    }

    /**
     * MariaDB's pre-5.6 temporal format with a fraction (a DATETIME, TIME or TIMESTAMP column
     * created while {@code mysql56_temporal_format} was OFF): the binlog client cannot read such a
     * column's values from the binlog. MariaDB's information_schema marks these columns' types with
     * a {@code mariadb-5.3} comment.
     */
    private void checkOldTemporalColumns(Statement statement, List<String> problems)
            throws SQLException {
        List<String> columns = new ArrayList<>();
        try (ResultSet result =
                statement.executeQuery(
                        "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM"
                                + " information_schema.COLUMNS WHERE COLUMN_TYPE LIKE"
                                + " '%mariadb-5.3%' AND DATETIME_PRECISION > 0 ORDER BY 1, 2,"
                                + " ORDINAL_POSITION")) {
            while (result.next()) {
                String table = result.getString(1) + "." + result.getString(2);
                if (captures(table)) {
                    columns.add(table + "." + result.getString(3) + " " + result.getString(4));
                }
            }
        }
        if (!columns.isEmpty()) {
            problems.add(
                    "Columns in MariaDB's pre-5.6 temporal format with a fraction cannot be read"
                            + " from the binlog: "
                            + columns
                            + ". They were created while mysql56_temporal_format was OFF; rebuild"
                            + " their tables with it ON (ALTER TABLE … FORCE) or leave the tables"
                            + " out.");
        }
    }

    /**
     * Sluice's reader compares string chunk keys in their column's collation ({@link
     * ServerCollations}): a snapshotted table chunked by a string column of a collation it cannot
     * model is named before the snapshot, not after it.
     */
    private void checkStringChunkKeys(
            Statement statement, Iterable<String> tables, List<String> problems)
            throws SQLException {
        // The first primary-key column of each table that is a string, in one query.
        Map<String, String[]> stringKeys = new TreeMap<>();
        try (ResultSet result =
                statement.executeQuery(
                        "SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE,"
                                + " c.CHARACTER_SET_NAME, c.COLLATION_NAME FROM"
                                + " information_schema.STATISTICS s JOIN"
                                + " information_schema.COLUMNS c ON c.TABLE_SCHEMA ="
                                + " s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND"
                                + " c.COLUMN_NAME = s.COLUMN_NAME WHERE s.INDEX_NAME = 'PRIMARY'"
                                + " AND s.SEQ_IN_INDEX = 1 AND c.COLLATION_NAME IS NOT NULL")) {
            while (result.next()) {
                stringKeys.put(
                        result.getString(1) + "." + result.getString(2),
                        new String[] {
                            result.getString(3),
                            result.getString(4),
                            result.getString(5),
                            result.getString(6)
                        });
            }
        }
        try (ServerCollations collations = new ServerCollations(jdbc)) {
            for (String table : tables) {
                if (!captures(table)) {
                    continue;
                }
                String[] name = table.split("\\.", 2);
                TableId id = new TableId(name[0], null, name[1]);
                String configured = chunkKeys.get(table);
                String[] key = stringKeys.get(table);
                String refusal =
                        configured != null
                                ? collations.refusal(id, configured)
                                : key == null
                                        ? null
                                        : collations.refusal(id, key[0], key[1], key[2], key[3]);
                if (refusal != null) {
                    problems.add(refusal);
                }
            }
        }
    }

    /** MySQL 8.4 renamed SHOW MASTER STATUS; MariaDB and older MySQL know the old name. */
    private static void binlogStatus(Statement statement) throws SQLException {
        try (ResultSet ignored = statement.executeQuery("SHOW MASTER STATUS")) {
            return;
        } catch (SQLException e) {
            if (e.getErrorCode() != ER_PARSE_ERROR) {
                throw e;
            }
        }
        try (ResultSet ignored = statement.executeQuery("SHOW BINARY LOG STATUS")) {
            // Readable.
        }
    }

    /** An option as the user wrote it. */
    private String named(ConfigOption<?> option) {
        return "'" + prefix + option.key() + "'";
    }

    private static String firstLine(String message) {
        return message == null ? "no answer" : message.lines().findFirst().orElse("");
    }

    private static String text(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return String.valueOf(result.getString(1)).toLowerCase(Locale.ROOT);
        }
    }
}

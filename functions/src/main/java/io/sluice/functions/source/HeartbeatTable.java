package io.sluice.functions.source;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.serializers.event.ChangeEvent;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The table behind {@link MySqlSourceOptions#HEARTBEAT_TABLE}: Sluice writes it on a timer and
 * reads the writes back from the binlog, so the newest binlog time it has seen stays recent while
 * the captured tables are idle, and stops moving when the pipeline stalls. Debezium's heartbeat
 * action query and Canal's detecting SQL work the same way; Flink CDC's own heartbeat records stop
 * in its record emitter and never reach the job.
 */
@Internal
public final class HeartbeatTable implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Plain identifiers only, so the name is both a safe SQL identifier and a literal regex. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_$]+");

    private final String database;
    private final String table;
    private final SourceJdbc jdbc;
    private final Duration interval;
    private final String option;

    private HeartbeatTable(
            String database, String table, SourceJdbc jdbc, Duration interval, String option) {
        this.database = database;
        this.table = table;
        this.jdbc = jdbc;
        this.interval = interval;
        this.option = option;
    }

    /** The configured heartbeat table, or empty when the option is empty. */
    public static Optional<HeartbeatTable> from(OptionSection config) {
        String name = config.get(MySqlSourceOptions.HEARTBEAT_TABLE).trim();
        if (name.isEmpty()) {
            return Optional.empty();
        }
        int dot = name.indexOf('.');
        String database = dot < 0 ? "" : name.substring(0, dot);
        String table = dot < 0 ? "" : name.substring(dot + 1);
        if (!NAME.matcher(database).matches() || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException(
                    "Option '"
                            + config.key(MySqlSourceOptions.HEARTBEAT_TABLE)
                            + "' takes 'database.table' made of letters, digits, '_' and '$',"
                            + " but is '"
                            + name
                            + "'");
        }
        Duration interval = config.get(MySqlSourceOptions.HEARTBEAT_INTERVAL);
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException(
                    "Option '"
                            + config.key(MySqlSourceOptions.HEARTBEAT_INTERVAL)
                            + "' must be positive when '"
                            + config.key(MySqlSourceOptions.HEARTBEAT_TABLE)
                            + "' is set, but is "
                            + interval);
        }
        return Optional.of(
                new HeartbeatTable(
                        database,
                        table,
                        SourceJdbc.from(config),
                        interval,
                        config.key(MySqlSourceOptions.HEARTBEAT_TABLE)));
    }

    /** The 'database.table' name. */
    public String qualifiedName() {
        return database + "." + table;
    }

    /** The source's table filter for this table: the name with its dot escaped. */
    String regex() {
        return database + "\\." + table;
    }

    String database() {
        return database;
    }

    public Duration interval() {
        return interval;
    }

    /** Whether a change is one of the heartbeat table's (cheap: two string compares). */
    public boolean contains(ChangeEvent change) {
        return table.equals(change.table()) && database.equals(change.database());
    }

    /**
     * Creates the table if it is missing. Called before the source starts: a table created later
     * would reach the binlog reader only as DDL it may read before it knows the table.
     */
    public void create() {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS "
                            + quoted()
                            + " (id INT NOT NULL PRIMARY KEY, ts DATETIME(3) NOT NULL)");
        } catch (SQLException e) {
            throw failure("cannot be created", e);
        }
    }

    /** Writes one heartbeat: the binlog gets an UPDATE (or the first INSERT) of row 1. */
    public void write(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(
                    "INSERT INTO "
                            + quoted()
                            + " (id, ts) VALUES (1, NOW(3)) ON DUPLICATE KEY UPDATE ts = NOW(3)");
        }
    }

    public Connection connect() throws SQLException {
        return jdbc.connect();
    }

    /** An error that names the option, the table and what failed. */
    public IllegalStateException failure(String what, SQLException cause) {
        return new IllegalStateException(
                "The heartbeat table '"
                        + qualifiedName()
                        + "' (option '"
                        + option
                        + "') "
                        + what
                        + " as user '"
                        + jdbc.user()
                        + "': "
                        + cause.getMessage(),
                cause);
    }

    private String quoted() {
        return "`" + database + "`.`" + table + "`";
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Checks, before the job starts, that the server can give statement texts: only MySQL writes
 * rows-query events that the CDC source reads. MariaDB writes annotate-rows events instead, which
 * Debezium 1.9 neither asks for nor handles, so there the option would silently do nothing.
 */
@Internal
public final class RowsQueryCheck {

    private static final Logger LOG = LoggerFactory.getLogger(RowsQueryCheck.class);

    private RowsQueryCheck() {}

    /**
     * Refuses a MariaDB server and warns when MySQL does not write rows-query events by default.
     *
     * @param option the key of the option that asked for queries, for the messages
     */
    public static void check(SourceJdbc jdbc, String option) {
        try (Connection connection = jdbc.connect();
                Statement statement = connection.createStatement()) {
            String version = single(statement, "SELECT VERSION()");
            if (version.toLowerCase(Locale.ROOT).contains("mariadb")) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' needs MySQL, but the server at %s is MariaDB %s:"
                                        + " its annotate-rows events cannot be read by the CDC"
                                        + " source (Debezium 1.9). Set '%s' to false.",
                                option, jdbc.address(), version, option));
            }
            String enabled = single(statement, "SELECT @@global.binlog_rows_query_log_events");
            if (!"1".equals(enabled)) {
                LOG.warn(
                        "Option '{}' is on, but the MySQL server at {} has"
                                + " binlog_rows_query_log_events={} by default: only sessions that"
                                + " turn it on give their statements' text.",
                        option,
                        jdbc.address(),
                        enabled);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot check whether the server at %s gives statement texts"
                                    + " (option '%s'): %s",
                            jdbc.address(), option, e.getMessage()),
                    e);
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return String.valueOf(result.getString(1));
        }
    }
}

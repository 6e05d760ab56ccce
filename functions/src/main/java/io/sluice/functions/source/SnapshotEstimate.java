package io.sluice.functions.source;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.internal.SourceJdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How many rows the snapshot will read, estimated from {@code information_schema.TABLES}, so that
 * snapshot progress can be shown as a share ({@code snapshotRows / snapshotRowsEstimate}). InnoDB's
 * {@code TABLE_ROWS} is a sampled estimate, often off by tens of percent: good for a progress bar,
 * not for a check.
 */
@Internal
public final class SnapshotEstimate {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotEstimate.class);

    private SnapshotEstimate() {}

    /**
     * The estimate for the configured tables, or 0 when the startup mode reads no snapshot or the
     * database cannot be asked (logged: the estimate only feeds a gauge).
     */
    public static long rows(OptionSection config) {
        if (config.get(MySqlSourceOptions.STARTUP_MODE) != StartupMode.INITIAL
                || config.getOptional(MySqlSourceOptions.TABLES).isEmpty()) {
            return 0;
        }
        List<Pattern> filters =
                Arrays.stream(MySqlSourceFactory.tableFilters(config))
                        .map(regex -> Pattern.compile(regex, Pattern.CASE_INSENSITIVE))
                        .toList();
        long rows = 0;
        try (Connection connection = SourceJdbc.from(config).connect();
                Statement statement = connection.createStatement();
                ResultSet tables =
                        statement.executeQuery(
                                "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_ROWS"
                                        + " FROM information_schema.TABLES"
                                        + " WHERE TABLE_TYPE = 'BASE TABLE'")) {
            while (tables.next()) {
                String name = tables.getString(1) + "." + tables.getString(2);
                if (filters.stream().anyMatch(filter -> filter.matcher(name).matches())) {
                    rows += tables.getLong(3);
                }
            }
        } catch (SQLException e) {
            LOG.warn("Cannot estimate the snapshot's rows; snapshotRowsEstimate stays 0", e);
            return 0;
        }
        return rows;
    }
}

package io.sluice.tools.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The server's own read speed: one table through a streaming {@code SELECT}, each value taken as
 * the bytes the server sent (no conversion), so the client costs as little as JDBC allows.
 */
final class SelectLimit {

    private SelectLimit() {}

    /** Reads every row of {@code table} in key order; returns the number of rows read. */
    static long read(Connection connection, String table, int columns) throws SQLException {
        long rows = 0;
        try (Statement select =
                connection.createStatement(
                        ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            // Connector/J streams row by row only with this fetch size.
            select.setFetchSize(Integer.MIN_VALUE);
            try (ResultSet result = select.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                long length = 0;
                while (result.next()) {
                    for (int c = 1; c <= columns; c++) {
                        byte[] value = result.getBytes(c);
                        length += value == null ? 0 : value.length;
                    }
                    rows++;
                }
                if (length < 0) {
                    throw new IllegalStateException("unreachable: keeps the reads live");
                }
            }
        }
        return rows;
    }
}

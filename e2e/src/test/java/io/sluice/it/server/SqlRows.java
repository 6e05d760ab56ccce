package io.sluice.it.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Query results as strings, for the server ITCases to compare. */
final class SqlRows {

    private SqlRows() {}

    /** Each row as its columns joined by '|'; closes the connection. */
    static List<String> query(Connection connection, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(result.getString(i));
                }
                rows.add(String.join("|", values));
            }
        }
        return rows;
    }

    /** One column of each row, by its label; closes the connection. */
    static List<String> column(Connection connection, String sql, String label)
            throws SQLException {
        List<String> values = new ArrayList<>();
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                values.add(result.getString(label));
            }
        }
        return values;
    }
}

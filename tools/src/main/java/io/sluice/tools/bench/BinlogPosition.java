package io.sluice.tools.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A binlog file and position, as SHOW MASTER STATUS reports the current one. */
public final class BinlogPosition {

    public final String file;
    public final long position;

    BinlogPosition(String file, long position) {
        this.file = file;
        this.position = position;
    }

    public static BinlogPosition current(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
            if (!status.next()) {
                throw new IllegalStateException("SHOW MASTER STATUS returned no row: no binlog?");
            }
            return new BinlogPosition(status.getString(1), status.getLong(2));
        }
    }

    @Override
    public String toString() {
        return file + ":" + position;
    }
}

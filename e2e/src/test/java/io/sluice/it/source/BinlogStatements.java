package io.sluice.it.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import io.sluice.it.server.MariaDbServer;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements (Query events other than BEGIN and COMMIT) of one database in a binlog window, as
 * the server wrote them: text, file, the event's start position and the event header's time. The
 * time is only in the event header, which SHOW BINLOG EVENTS does not show, so a binlog client
 * reads the window; SHOW BINLOG EVENTS confirms the positions.
 */
final class BinlogStatements {

    /** One statement of the binlog. */
    static final class Logged {
        final String sql;
        final String file;
        final long position;
        final long timestampMs;

        Logged(String sql, String file, long position, long timestampMs) {
            this.sql = sql;
            this.file = file;
            this.position = position;
            this.timestampMs = timestampMs;
        }

        @Override
        public String toString() {
            return file + ":" + position + " @" + timestampMs + " " + sql;
        }
    }

    /** A binlog id no Sluice source in the tests uses (they use 5400-5408). */
    private static final long READER_SERVER_ID = 6543;

    private BinlogStatements() {}

    /** The statements of {@code database} from {@code file}:{@code position} to the end. */
    static List<Logged> read(MariaDbServer mariaDb, String database, String file, long position)
            throws IOException, SQLException {
        List<Logged> statements = new ArrayList<>();
        BinaryLogClient client =
                new BinaryLogClient(
                        mariaDb.host(),
                        mariaDb.port(),
                        MariaDbServer.CDC_USER,
                        MariaDbServer.CDC_PASSWORD);
        client.setServerId(READER_SERVER_ID);
        client.setBinlogFilename(file);
        client.setBinlogPosition(position);
        // The server ends the dump at the binlog's end; connect() returns then.
        client.setBlocking(false);
        client.setKeepAlive(false);
        client.registerEventListener(
                event -> {
                    if (event.getHeader().getEventType() != EventType.QUERY) {
                        return;
                    }
                    QueryEventData query = event.getData();
                    String sql = query.getSql().trim();
                    if (!database.equals(query.getDatabase())
                            || sql.equalsIgnoreCase("BEGIN")
                            || sql.equalsIgnoreCase("COMMIT")) {
                        return;
                    }
                    EventHeaderV4 header = event.getHeader();
                    statements.add(
                            new Logged(
                                    sql,
                                    client.getBinlogFilename(),
                                    header.getPosition(),
                                    header.getTimestamp()));
                });
        client.connect();
        assertPositionsAsShown(mariaDb, statements);
        return statements;
    }

    /** SHOW BINLOG EVENTS' {@code Pos} (the event's start) of each statement is the one read. */
    private static void assertPositionsAsShown(MariaDbServer mariaDb, List<Logged> statements)
            throws SQLException {
        try (Connection connection = mariaDb.connect(null);
                Statement show = connection.createStatement()) {
            for (Logged statement : statements) {
                try (ResultSet events =
                        show.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + statement.file
                                        + "' FROM "
                                        + statement.position
                                        + " LIMIT 1")) {
                    if (!events.next()
                            || !events.getString("Event_type").equals("Query")
                            || events.getLong("Pos") != statement.position
                            || !events.getString("Info").endsWith(statement.sql)) {
                        throw new AssertionError(
                                "SHOW BINLOG EVENTS does not show " + statement + " there");
                    }
                }
            }
        }
    }
}

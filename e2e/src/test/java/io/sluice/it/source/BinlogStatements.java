package io.sluice.it.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.network.protocol.command.DumpBinaryLogCommand;
import com.github.shyiko.mysql.binlog.network.protocol.command.QueryCommand;
import io.sluice.it.server.DatabaseServer;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * The statements (Query events other than BEGIN and COMMIT) of one database in a binlog window, as
 * the server wrote them: text, file, the event's start position, the event header's time and the
 * GTID of the statement's transaction. The time is only in the event header, which SHOW BINLOG
 * EVENTS does not show, so a binlog client reads the window; SHOW BINLOG EVENTS confirms the
 * positions.
 */
final class BinlogStatements {

    /** One statement of the binlog. */
    static final class Logged {
        final String sql;
        final String file;
        final long position;
        final long timestampMs;

        /** MySQL's {@code uuid:n} or MariaDB's {@code domain-server-seq}. */
        final String gtid;

        Logged(String sql, String file, long position, long timestampMs, String gtid) {
            this.sql = sql;
            this.file = file;
            this.position = position;
            this.timestampMs = timestampMs;
            this.gtid = gtid;
        }

        @Override
        public String toString() {
            return file + ":" + position + " @" + timestampMs + " " + gtid + " " + sql;
        }
    }

    /** A binlog id no Sluice source in the tests uses (theirs are drawn from 10000 up). */
    private static final long READER_SERVER_ID = 6543;

    /** What MySQL 8's SHOW BINLOG EVENTS appends to an atomic DDL statement. */
    private static final Pattern XID = Pattern.compile(" /\\* xid=[0-9]+ \\*/$");

    private BinlogStatements() {}

    /** The statements of {@code database} from {@code file}:{@code position} to the end. */
    static List<Logged> read(DatabaseServer server, String database, String file, long position)
            throws IOException, SQLException {
        List<Logged> statements = new ArrayList<>();
        BinaryLogClient client =
                new GtidCapableClient(
                        server.host(), server.port(), server.cdcUser(), server.cdcPassword());
        client.setServerId(READER_SERVER_ID);
        client.setBinlogFilename(file);
        client.setBinlogPosition(position);
        // The server ends the dump at the binlog's end; connect() returns then.
        client.setBlocking(false);
        client.setKeepAlive(false);
        AtomicReference<String> gtid = new AtomicReference<>("");
        client.registerEventListener(
                event -> {
                    EventType type = event.getHeader().getEventType();
                    if (type == EventType.GTID) {
                        gtid.set(((GtidEventData) event.getData()).getGtid());
                        return;
                    }
                    if (type == EventType.MARIADB_GTID) {
                        MariadbGtidEventData maria = event.getData();
                        gtid.set(
                                maria.getDomainId()
                                        + "-"
                                        + event.getHeader().getServerId()
                                        + "-"
                                        + maria.getSequence());
                        return;
                    }
                    if (type != EventType.QUERY) {
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
                                    header.getTimestamp(),
                                    gtid.get()));
                });
        client.connect();
        assertPositionsAsShown(server, statements);
        return statements;
    }

    /**
     * Announced to MariaDB as GTID-capable (MARIA_SLAVE_CAPABILITY_GTID, 4), so that it sends its
     * GTID events rather than the {@code BEGIN} and dummy queries the client's capability 1 gets.
     * MySQL sends its GTID events to any client.
     */
    private static final class GtidCapableClient extends BinaryLogClient {

        GtidCapableClient(String host, int port, String user, String password) {
            super(host, port, user, password);
        }

        @Override
        protected void requestBinaryLogStreamMaria(long serverId) throws IOException {
            channel.write(new QueryCommand("SET @mariadb_slave_capability=4"));
            checkError(channel.read());
            channel.write(
                    new DumpBinaryLogCommand(serverId, getBinlogFilename(), getBinlogPosition()));
        }
    }

    /** SHOW BINLOG EVENTS' {@code Pos} (the event's start) of each statement is the one read. */
    private static void assertPositionsAsShown(DatabaseServer server, List<Logged> statements)
            throws SQLException {
        try (Connection connection = server.connect(null);
                Statement show = connection.createStatement()) {
            for (Logged statement : statements) {
                try (ResultSet events =
                        show.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + statement.file
                                        + "' FROM "
                                        + statement.position
                                        + " LIMIT 1")) {
                    String shown =
                            events.next()
                                    ? events.getString("Event_type")
                                            + " at "
                                            + events.getLong("Pos")
                                            + ": "
                                            + events.getString("Info")
                                    : "nothing";
                    // MySQL 8 shows an atomic DDL statement's transaction id after its text (the
                    // event holds it apart from the text): "... /* xid=123 */".
                    String expected = "Query at " + statement.position + ": ";
                    if (!shown.startsWith(expected)
                            || !XID.matcher(shown).replaceFirst("").endsWith(statement.sql)) {
                        throw new AssertionError(
                                "SHOW BINLOG EVENTS shows "
                                        + shown
                                        + " where "
                                        + statement
                                        + " is");
                    }
                }
            }
        }
    }
}

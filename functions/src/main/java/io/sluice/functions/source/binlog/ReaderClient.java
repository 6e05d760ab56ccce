package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.protocol.ResultSetRowPacket;
import com.github.shyiko.mysql.binlog.network.protocol.command.DumpBinaryLogCommand;
import com.github.shyiko.mysql.binlog.network.protocol.command.QueryCommand;

import java.io.IOException;

/**
 * The binlog client as the reader needs it from MariaDB: announced as GTID-capable (capability 4),
 * so that the server sends its GTID and GTID-list events instead of turning them into {@code BEGIN}
 * and {@code # Dummy} queries (what the client's capability 1 gets), with its annotate-rows events
 * (which a capability-1 replica gets unasked, so Flink CDC's event counts include them), and
 * started at a GTID state without the client's MySQL-style GTID bookkeeping.
 *
 * <p>On MySQL and MariaDB alike it first asks the server, on the binlog connection itself, who it
 * is ({@link BinlogServer}) and lets {@code gate} refuse it before the binlog is asked for: an
 * address that moves to another server between two connections cannot slip past the check.
 */
final class ReaderClient extends BinaryLogClient {

    /** MariaDB's MARIA_SLAVE_CAPABILITY_GTID. */
    private static final int GTID_CAPABILITY = 4;

    /** Sees the server before the binlog is asked for; may refuse it. */
    interface Gate {
        /**
         * @param row the server's answer to {@link BinlogServer#query}
         * @throws RuntimeException to refuse the server: the connection ends and {@link #refusal()}
         *     holds it
         */
        void check(String[] row);
    }

    private final String mariaDbGtids;
    private final String serverQuery;
    private final Gate gate;
    private volatile RuntimeException refusal;

    /**
     * @param mariaDbGtids the MariaDB GTID state to start after, "" to start at the file position
     * @param serverQuery what {@code gate} is given the answer to
     */
    ReaderClient(
            String host,
            int port,
            String user,
            String password,
            String mariaDbGtids,
            String serverQuery,
            Gate gate) {
        super(host, port, user, password);
        this.mariaDbGtids = mariaDbGtids;
        this.serverQuery = serverQuery;
        this.gate = gate;
    }

    /** Why {@code gate} refused the server, null if it did not. */
    RuntimeException refusal() {
        return refusal;
    }

    @Override
    protected void requestBinaryLogStream() throws IOException {
        String[] row = queryRow(serverQuery);
        try {
            gate.check(row);
        } catch (RuntimeException e) {
            refusal = e;
            throw new IOException("The binlog reader refused the server: " + e.getMessage(), e);
        }
        super.requestBinaryLogStream();
    }

    /** The first row of {@code sql}'s result (text protocol, with EOF packets). */
    private String[] queryRow(String sql) throws IOException {
        channel.write(new QueryCommand(sql));
        checkError(channel.read()); // the column count
        while (channel.read()[0] != (byte) 0xFE) {
            // column definitions, up to their EOF packet
        }
        String[] first = null;
        byte[] packet;
        while ((packet = channel.read())[0] != (byte) 0xFE) {
            checkError(packet);
            if (first == null) {
                first = new ResultSetRowPacket(packet).getValues();
            }
        }
        if (first == null) {
            throw new IOException("'" + sql + "' returned no row");
        }
        return first;
    }

    @Override
    protected void requestBinaryLogStreamMaria(long serverId) throws IOException {
        query("SET @mariadb_slave_capability=" + GTID_CAPABILITY);
        if (mariaDbGtids.isEmpty()) {
            channel.write(
                    new DumpBinaryLogCommand(
                            serverId, getBinlogFilename(), getBinlogPosition(), true));
            return;
        }
        query("SET @slave_connect_state = '" + mariaDbGtids.replace("'", "") + "'");
        query("SET @slave_gtid_strict_mode = 0");
        query("SET @slave_gtid_ignore_duplicates = 0");
        channel.write(new DumpBinaryLogCommand(serverId, "", 0L, true));
    }

    private void query(String sql) throws IOException {
        channel.write(new QueryCommand(sql));
        checkError(channel.read());
    }
}

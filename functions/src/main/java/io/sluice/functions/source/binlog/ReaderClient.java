package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.protocol.command.DumpBinaryLogCommand;
import com.github.shyiko.mysql.binlog.network.protocol.command.QueryCommand;

import java.io.IOException;

/**
 * The binlog client as the reader needs it from MariaDB: announced as GTID-capable (capability 4),
 * so that the server sends its GTID and GTID-list events instead of turning them into {@code BEGIN}
 * and {@code # Dummy} queries (what the client's capability 1 gets), with its annotate-rows events
 * (which a capability-1 replica gets unasked, so Flink CDC's event counts include them), and
 * started at a GTID state without the client's MySQL-style GTID bookkeeping.
 */
final class ReaderClient extends BinaryLogClient {

    /** MariaDB's MARIA_SLAVE_CAPABILITY_GTID. */
    private static final int GTID_CAPABILITY = 4;

    private final String mariaDbGtids;

    /**
     * @param mariaDbGtids the MariaDB GTID state to start after, "" to start at the file position
     */
    ReaderClient(String host, int port, String user, String password, String mariaDbGtids) {
        super(host, port, user, password);
        this.mariaDbGtids = mariaDbGtids;
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

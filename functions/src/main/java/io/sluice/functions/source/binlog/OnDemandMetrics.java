package io.sluice.functions.source.binlog;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The on-demand snapshot's gauges, in the reader's sub-group {@code sluice}: {@code
 * onDemandSnapshotTable} (the table being read, "" when none), {@code onDemandSnapshotRowsRead}
 * (rows of it emitted so far; once it ends, the rows it emitted, until the next one begins) and
 * {@code onDemandSnapshotChunksLeft} (chunks left by the server's row estimate, at least 1 while a
 * table is read; 0 when none is).
 */
final class OnDemandMetrics {

    static final String TABLE = "onDemandSnapshotTable";
    static final String ROWS_READ = "onDemandSnapshotRowsRead";
    static final String CHUNKS_LEFT = "onDemandSnapshotChunksLeft";

    private volatile String table = "";
    private volatile long rowsRead;
    private volatile long chunksLeft;

    /** The gauges, registered in {@code group} (the reader's sub-group {@code sluice}). */
    static OnDemandMetrics register(MetricGroup group) {
        OnDemandMetrics metrics = new OnDemandMetrics();
        group.gauge(TABLE, (Gauge<String>) () -> metrics.table);
        group.gauge(ROWS_READ, (Gauge<Long>) () -> metrics.rowsRead);
        group.gauge(CHUNKS_LEFT, (Gauge<Long>) () -> metrics.chunksLeft);
        return metrics;
    }

    /** Gauges that no one reads (a reader without a metric group: tests). */
    static OnDemandMetrics unregistered() {
        return new OnDemandMetrics();
    }

    private volatile long estimatedChunks;
    private volatile String estimatedFor = "";

    /** A chunk of {@code request} is read next: its table's estimate read once per table. */
    void reading(SnapshotRequest request, Connection connection, int chunkSize)
            throws SQLException {
        if (request.name().equals(estimatedFor)) {
            return;
        }
        estimatedFor = request.name();
        try (PreparedStatement query =
                connection.prepareStatement(
                        "SELECT TABLE_ROWS FROM information_schema.TABLES"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            query.setString(1, request.database());
            query.setString(2, request.table());
            try (ResultSet result = query.executeQuery()) {
                long rows = result.next() ? result.getLong(1) : 0;
                estimatedChunks = rows / chunkSize + 1;
            }
        }
        table = request.name();
        chunksLeft = Math.max(1, estimatedChunks);
    }

    /** A chunk emitted; {@code state} is after it, before a finished request leaves it. */
    void chunk(OnDemandState state) {
        rowsRead = state.rows();
    }

    /** The state changed (a request queued, a chunk emitted, a snapshot stopped or done). */
    void update(OnDemandState state) {
        SnapshotRequest current = state.current();
        if (current == null) {
            table = "";
            chunksLeft = 0;
            return;
        }
        table = current.name();
        rowsRead = state.rows();
        chunksLeft =
                current.name().equals(estimatedFor)
                        ? Math.max(1, estimatedChunks - state.chunks())
                        : 1;
    }
}

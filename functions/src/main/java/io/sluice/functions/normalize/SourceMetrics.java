package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;

import io.sluice.functions.source.HeartbeatTable;
import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

/**
 * What the source has delivered (metric group {@code sluice}): rows, snapshot rows, transactions,
 * the binlog time of the latest change, for the lag, and the snapshot's expected size. Heartbeat
 * rows ({@link HeartbeatTable}) are counted here and dropped: nothing after the source sees them.
 *
 * <p>A transaction is counted when the GTID changes or, without GTIDs, when the change's binlog
 * position does (Debezium reports a transaction's start position for all of its rows on MariaDB; on
 * MySQL with GTIDs the GTID decides). Lag is now minus the newest binlog execute time seen, and 0
 * before any binlog change, while snapshotting. Heartbeat rows move that time too, so the lag stays
 * true while the captured tables are idle; without them it grows while the database is idle.
 */
@Internal
final class SourceMetrics {

    static final long SNAPSHOT_QUIET_MS = 10_000;

    @Nullable private final HeartbeatTable heartbeat;
    private final Counter rowsIn;
    private final Counter snapshotRows;
    private final Counter transactions;
    private final Counter heartbeats;

    private String lastFile = "";
    private long lastPosition = -1;
    private String lastGtid = "";
    private volatile long lastExecuteTime;

    /** When this subtask last emitted a snapshot row, or 0 once it saw a binlog change. */
    private volatile long lastSnapshotRow;

    /**
     * @param heartbeat the heartbeat table whose rows to drop, or null for none
     * @param snapshotRowsEstimate rows the snapshot is expected to read, as this subtask reports
     *     them (one subtask reports the estimate, so that sums over subtasks stay right)
     */
    SourceMetrics(
            MetricGroup group, @Nullable HeartbeatTable heartbeat, long snapshotRowsEstimate) {
        this.heartbeat = heartbeat;
        group.gauge("snapshotRowsEstimate", () -> snapshotRowsEstimate);
        rowsIn = group.counter("rowsIn");
        snapshotRows = group.counter("snapshotRows");
        transactions = group.counter("transactions");
        heartbeats = group.counter("heartbeats");
        group.meter("transactionsPerSecond", new MeterView(transactions));
        group.gauge("lagMs", this::lagMs);
        group.gauge("snapshotting", this::snapshotting);
    }

    /**
     * Records what {@code change} tells of the source's progress; false for a heartbeat row, which
     * goes no further.
     */
    boolean take(ChangeEvent change, long now) {
        if (heartbeat != null && heartbeat.contains(change)) {
            heartbeat(change);
            return false;
        }
        record(change, now);
        return true;
    }

    void record(ChangeEvent change, long now) {
        if (change.binlogFile().isEmpty()) {
            lastSnapshotRow = now;
            rowsIn.inc();
            snapshotRows.inc();
            return;
        }
        lastSnapshotRow = 0;
        if (!change.isDdl()) {
            rowsIn.inc();
        }
        String gtid = change.gtid();
        boolean newTransaction =
                gtid.isEmpty()
                        ? change.binlogPosition() != lastPosition
                                || !change.binlogFile().equals(lastFile)
                        : !gtid.equals(lastGtid);
        if (newTransaction) {
            transactions.inc();
            lastFile = change.binlogFile();
            lastPosition = change.binlogPosition();
            lastGtid = gtid;
        }
        advance(change.executeTime());
    }

    /** A heartbeat row: proof that the binlog has been read up to its execute time. */
    private void heartbeat(ChangeEvent change) {
        if (change.binlogFile().isEmpty()) {
            return; // the heartbeat table's snapshot row says nothing about the binlog
        }
        heartbeats.inc();
        advance(change.executeTime());
    }

    private void advance(long executeTime) {
        if (executeTime > lastExecuteTime) {
            lastExecuteTime = executeTime;
        }
    }

    long lagMs() {
        long last = lastExecuteTime;
        return last == 0 ? 0 : Math.max(0, System.currentTimeMillis() - last);
    }

    int snapshotting() {
        return snapshotting(System.currentTimeMillis());
    }

    /**
     * 1 while this subtask reads snapshot chunks. A subtask whose chunks are done may never see a
     * binlog change (the binlog goes to one subtask), so a quiet spell also ends it: chunks arrive
     * about once a second, far more often than {@link #SNAPSHOT_QUIET_MS}.
     */
    int snapshotting(long now) {
        long last = lastSnapshotRow;
        return last != 0 && now - last < SNAPSHOT_QUIET_MS ? 1 : 0;
    }
}

package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.source.HeartbeatTable;
import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

/**
 * The first step after the source, chained to it. For each change: measures it and drops heartbeat
 * rows ({@link SourceMetrics}), ranks it by the statements this source subtask had read ({@link
 * StatementRank}: chained to the source, it sees its own path's count), splits a primary-key change
 * ({@link PrimaryKeyChangeSplitter}), and hashes its table and primary key once for every later
 * keyed exchange ({@link ChangeEventKeySelector}; left 0 when none follows, as in the chained
 * shapes, since nothing reads it). A process function, to read the watermark.
 */
@Internal
public final class ChangeNormalizer extends ProcessFunction<ChangeEvent, RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final boolean keyed;
    @Nullable private final HeartbeatTable heartbeat;
    private final long snapshotRowsEstimate;

    private transient PrimaryKeyChangeSplitter splitter;
    private transient SourceMetrics metrics;
    private transient Halves halves;
    private transient ChangeEvent lastBinlogChange;

    /**
     * @param keyed whether an exchange keyed by table and primary key follows (to the route, or
     *     from it to the encoder), which reads each change's hash
     * @param heartbeat the heartbeat table whose rows to drop, or null for none
     * @param snapshotRowsEstimate rows the snapshot is expected to read, reported by subtask 0
     */
    public ChangeNormalizer(
            boolean keyed, @Nullable HeartbeatTable heartbeat, long snapshotRowsEstimate) {
        this.keyed = keyed;
        this.heartbeat = heartbeat;
        this.snapshotRowsEstimate = snapshotRowsEstimate;
    }

    @Override
    public void open(OpenContext context) {
        splitter = new PrimaryKeyChangeSplitter();
        halves = new Halves();
        boolean first = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
        metrics =
                new SourceMetrics(
                        getRuntimeContext().getMetricGroup().addGroup("sluice"),
                        heartbeat,
                        first ? snapshotRowsEstimate : 0);
    }

    @Override
    public void processElement(ChangeEvent change, Context context, Collector<RoutedChange> out) {
        // Snapshot rows have no binlog position; heartbeats do, and advance it.
        if (!change.binlogFile().isEmpty()) {
            lastBinlogChange = change;
        }
        if (!metrics.take(change, System.currentTimeMillis())) {
            return;
        }
        long rank = StatementRank.of(change, context.timerService().currentWatermark());
        if (change.isDdl()) {
            out.collect(RoutedChange.unrouted(change, hashOf(change), rank));
            return;
        }
        halves.to(out, rank);
        splitter.flatMap(change, halves);
    }

    /** The last binlog change this subtask handed on (heartbeats included), or null. */
    @Nullable
    ChangeEvent lastBinlogChange() {
        return lastBinlogChange;
    }

    /** Whether changes carry their key hash: only when a keyed exchange follows. */
    @VisibleForTesting
    public boolean hashesKeys() {
        return keyed;
    }

    private int hashOf(ChangeEvent change) {
        return keyed ? ChangeEventKeySelector.hashOf(change) : 0;
    }

    /** Wraps each (possibly split) row with its key hash and the change's rank. */
    private final class Halves implements Collector<ChangeEvent> {
        private Collector<RoutedChange> out;
        private long rank;

        void to(Collector<RoutedChange> out, long rank) {
            this.out = out;
            this.rank = rank;
        }

        @Override
        public void collect(ChangeEvent row) {
            out.collect(RoutedChange.unrouted(row, hashOf(row), rank));
        }

        @Override
        public void close() {}
    }
}

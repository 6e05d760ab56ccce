package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.Collector;

import io.sluice.functions.route.RoutedChange;
import io.sluice.functions.source.HeartbeatTable;
import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

/**
 * The first step after the source, chained to it: splits primary-key changes ({@link
 * PrimaryKeyChangeSplitter}), hashes each row's table and primary key once for every later keyed
 * exchange (left 0 when none follows, as in the chained shapes, since nothing reads it), and sends
 * each statement to every route subtask, so that on each path it follows the rows of its table sent
 * before it (one copy when the route is chained to this operator: then this subtask's own path is
 * the only one). Also measures what the source delivers (metric group {@code sluice}): rows,
 * transactions, lag and snapshot progress.
 *
 * <p>With a {@link HeartbeatTable} (written by the source's enumerator), every subtask drops its
 * rows after taking their binlog time for the lag.
 */
@Internal
public final class ChangeNormalizer extends RichFlatMapFunction<ChangeEvent, RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final int routeParallelism;
    private final boolean keyed;
    @Nullable private final HeartbeatTable heartbeat;
    private final long snapshotRowsEstimate;

    private transient PrimaryKeyChangeSplitter splitter;
    private transient Collector<RoutedChange> out;
    private transient Collector<ChangeEvent> rows;
    private transient SourceProgress progress;

    /**
     * @param routeParallelism how many route subtasks each statement must reach
     */
    public ChangeNormalizer(int routeParallelism) {
        this(routeParallelism, true, null, 0);
    }

    /**
     * @param routeParallelism how many route subtasks each statement must reach: the route's
     *     parallelism behind an exchange, 1 when the route is chained to this operator
     * @param keyed whether an exchange keyed by table and primary key follows (to the route, or
     *     from it to the encoder), which reads each row's hash
     * @param heartbeat the heartbeat table whose rows to drop, or null for none
     * @param snapshotRowsEstimate rows the snapshot is expected to read, reported by subtask 0
     */
    public ChangeNormalizer(
            int routeParallelism,
            boolean keyed,
            @Nullable HeartbeatTable heartbeat,
            long snapshotRowsEstimate) {
        if (routeParallelism < 1) {
            throw new IllegalArgumentException(
                    "routeParallelism must be at least 1, but was " + routeParallelism);
        }
        this.routeParallelism = routeParallelism;
        this.keyed = keyed;
        this.heartbeat = heartbeat;
        this.snapshotRowsEstimate = snapshotRowsEstimate;
    }

    @Override
    public void open(OpenContext context) {
        splitter = new PrimaryKeyChangeSplitter();
        rows = new RowCollector();
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("sluice");
        progress = new SourceProgress(group);
        boolean first = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
        // One subtask reports the estimate, so that sums over subtasks stay right.
        long estimate = first ? snapshotRowsEstimate : 0;
        group.gauge("snapshotRowsEstimate", () -> estimate);
    }

    @Override
    public void flatMap(ChangeEvent change, Collector<RoutedChange> out) {
        if (heartbeat != null && heartbeat.contains(change)) {
            progress.heartbeat(change);
            return;
        }
        progress.record(change, System.currentTimeMillis());
        if (change.isDdl()) {
            int hash = hashOf(change);
            for (int target = 0; target < routeParallelism; target++) {
                out.collect(RoutedChange.unrouted(change, hash, target, routeParallelism));
            }
            return;
        }
        this.out = out;
        splitter.flatMap(change, rows);
    }

    /** Whether rows carry their key hash: only when a keyed exchange follows. */
    @VisibleForTesting
    public boolean hashesKeys() {
        return keyed;
    }

    private int hashOf(ChangeEvent change) {
        return keyed ? ChangeEventKeySelector.hashOf(change) : 0;
    }

    /** Wraps each (possibly split) row with its key hash. */
    private final class RowCollector implements Collector<ChangeEvent> {
        @Override
        public void collect(ChangeEvent row) {
            out.collect(RoutedChange.unrouted(row, hashOf(row), RoutedChange.NO_TARGET, 0));
        }

        @Override
        public void close() {}
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.metrics.MetricGroup;

import io.sluice.functions.source.HeartbeatTable;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;

/**
 * The wrapped enumerator, plus a {@link HeartbeatWriter} from {@link #start} to {@link #close}. Its
 * counters {@code heartbeatWrites} and {@code heartbeatWriteErrors} are in the enumerator's metric
 * group {@code sluice} (the source's coordinator metrics on the JobManager).
 */
@Internal
final class HeartbeatWritingEnumerator<S extends SourceSplit, E> implements SplitEnumerator<S, E> {

    private final SplitEnumerator<S, E> enumerator;
    private final HeartbeatTable table;
    private final MetricGroup group;
    @Nullable private HeartbeatWriter writer;

    HeartbeatWritingEnumerator(
            SplitEnumerator<S, E> enumerator,
            HeartbeatTable table,
            SplitEnumeratorContext<S> context) {
        this.enumerator = enumerator;
        this.table = table;
        this.group = context.metricGroup().addGroup("sluice");
    }

    @Override
    public void start() {
        enumerator.start();
        // The first write happens here: a missing grant fails the job at once, naming the table.
        writer =
                HeartbeatWriter.start(
                        table,
                        group.counter("heartbeatWrites"),
                        group.counter("heartbeatWriteErrors"));
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        enumerator.handleSplitRequest(subtaskId, requesterHostname);
    }

    @Override
    public void addSplitsBack(List<S> splits, int subtaskId) {
        enumerator.addSplitsBack(splits, subtaskId);
    }

    @Override
    public void addReader(int subtaskId) {
        enumerator.addReader(subtaskId);
    }

    @Override
    public E snapshotState(long checkpointId) throws Exception {
        return enumerator.snapshotState(checkpointId);
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        enumerator.handleSourceEvent(subtaskId, sourceEvent);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        enumerator.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        enumerator.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws IOException {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            enumerator.close();
        }
    }
}

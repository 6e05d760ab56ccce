package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.List;

/** An enumerator that is another one, for wrappers that add to one step of it. */
@Internal
public abstract class DelegatingEnumerator<S extends SourceSplit, E>
        implements SplitEnumerator<S, E> {

    protected final SplitEnumerator<S, E> enumerator;

    protected DelegatingEnumerator(SplitEnumerator<S, E> enumerator) {
        this.enumerator = enumerator;
    }

    @Override
    public void start() {
        enumerator.start();
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
        enumerator.close();
    }
}

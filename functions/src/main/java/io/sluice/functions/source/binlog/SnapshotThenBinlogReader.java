package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaEvent;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.core.io.InputStatus;

import io.sluice.serializers.event.ChangeEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The source reader for {@code source.startup.mode: initial} with Sluice's binlog reader: snapshot
 * splits go to Flink CDC's reader (which asks the enumerator for the next split after each chunk,
 * and so for the binlog split after the last), the binlog split to {@link BinlogSourceReader}. Each
 * keeps its own splits in the checkpoint.
 */
@Internal
public final class SnapshotThenBinlogReader implements SourceReader<ChangeEvent, MySqlSplit> {

    private final SourceReader<ChangeEvent, MySqlSplit> snapshot;
    private final BinlogSourceReader binlog;
    private boolean snapshotEnded;

    SnapshotThenBinlogReader(
            SourceReader<ChangeEvent, MySqlSplit> snapshot, BinlogSourceReader binlog) {
        this.snapshot = snapshot;
        this.binlog = binlog;
    }

    @Override
    public void start() {
        // Only Flink CDC's reader asks for splits: the binlog split answers one of its requests.
        snapshot.start();
    }

    @Override
    public void addSplits(List<MySqlSplit> splits) {
        List<MySqlSplit> chunks = new ArrayList<>();
        List<MySqlSplit> binlogSplits = new ArrayList<>();
        for (MySqlSplit split : splits) {
            (split.isSnapshotSplit() ? chunks : binlogSplits).add(split);
        }
        if (!chunks.isEmpty()) {
            snapshot.addSplits(chunks);
        }
        if (!binlogSplits.isEmpty()) {
            binlog.addSplits(binlogSplits);
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<ChangeEvent> output) throws Exception {
        boolean more = false;
        if (!snapshotEnded) {
            InputStatus status = snapshot.pollNext(output);
            snapshotEnded = status == InputStatus.END_OF_INPUT;
            more = status == InputStatus.MORE_AVAILABLE;
        }
        more |= binlog.pollNext(output) == InputStatus.MORE_AVAILABLE;
        if (more) {
            return InputStatus.MORE_AVAILABLE;
        }
        // Flink CDC's reader ends when the enumerator has no split left for this subtask.
        return snapshotEnded && !binlog.holdsSplit()
                ? InputStatus.END_OF_INPUT
                : InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (snapshotEnded) {
            return binlog.isAvailable();
        }
        return CompletableFuture.anyOf(snapshot.isAvailable(), binlog.isAvailable())
                .thenApply(any -> null);
    }

    @Override
    public List<MySqlSplit> snapshotState(long checkpointId) {
        List<MySqlSplit> splits = new ArrayList<>(snapshot.snapshotState(checkpointId));
        splits.addAll(binlog.snapshotState(checkpointId));
        return splits;
    }

    @Override
    public void notifyNoMoreSplits() {
        snapshot.notifyNoMoreSplits();
        binlog.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof BinlogSplitMetaEvent) {
            binlog.handleSourceEvents(event);
        } else {
            snapshot.handleSourceEvents(event);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        snapshot.notifyCheckpointComplete(checkpointId);
        binlog.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        snapshot.notifyCheckpointAborted(checkpointId);
        binlog.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void close() throws Exception {
        try {
            snapshot.close();
        } finally {
            binlog.close();
        }
    }
}

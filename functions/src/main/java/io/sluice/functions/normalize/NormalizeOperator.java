package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.progress.ProgressNotes;
import io.sluice.serializers.event.ChangeEvent;

/**
 * Runs {@link ChangeNormalizer}; with progress markers on, also reports, right before each
 * checkpoint barrier leaves the source's task, the position of the last binlog change this subtask
 * handed on ({@link ProgressNotes#TAG}). Every change up to it went downstream before that note,
 * and the note before the barrier, so an owner that has the barrier has both.
 *
 * <p>The position is kept in union state, so after a restore every subtask reports the restored
 * position until the binlog moves: markers continue on an idle database.
 */
@Internal
public final class NormalizeOperator extends ProcessOperator<ChangeEvent, RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final boolean reportsProgress;

    private transient ListState<ProgressNote> positionState;
    private transient ProgressNote restored;

    /**
     * @param reportsProgress whether progress markers are on
     */
    public NormalizeOperator(ChangeNormalizer normalizer, boolean reportsProgress) {
        super(normalizer);
        this.reportsProgress = reportsProgress;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        if (!reportsProgress) {
            return;
        }
        positionState =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("progress-position", ProgressNotes.TYPE));
        for (ProgressNote note : positionState.get()) {
            if (note.isAfter(restored)) {
                restored = note;
            }
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        ProgressNote position = position();
        if (position != null) {
            output.collect(ProgressNotes.TAG, new StreamRecord<>(position));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (reportsProgress) {
            ProgressNote position = position();
            positionState.clear();
            if (position != null) {
                positionState.add(position);
            }
        }
    }

    private ProgressNote position() {
        if (!reportsProgress) {
            return null;
        }
        ChangeEvent last = ((ChangeNormalizer) userFunction).lastBinlogChange();
        if (last == null) {
            return restored;
        }
        restored = null;
        return ProgressNote.positionOf(last);
    }
}

package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;

import io.sluice.serializers.event.ChangeEvent;

/**
 * Turns changes into rows ({@link ChangeRowConverter}): chained to the source, or right after a
 * shuffle out of it, and then never tells the operators after it that it is idle.
 *
 * <p>Source subtasks without statements are idle ({@link StatementWatermarks}), which is safe on
 * the source's own path: only the binlog reader counts statements, in place among its records on
 * one channel, and every binlog change takes that one path. Past a shuffle it would not be: the
 * binlog's changes take every path, and an operator whose inputs were all idle takes the watermark
 * of the first input to wake up, so a statement count could overtake the records still queued on
 * the other inputs. Kept active, every later operator waits for the count on all its inputs.
 */
@Internal
public final class ChangeRowOperator extends StreamMap<ChangeEvent, RowData> {

    private static final long serialVersionUID = 1L;

    private final boolean behindShuffle;

    /**
     * @param behindShuffle whether the changes reach this operator through a shuffle (then it stays
     *     active) rather than chained to their source subtask (then it passes idleness on)
     */
    public ChangeRowOperator(ChangeRowConverter converter, boolean behindShuffle) {
        super(converter);
        this.behindShuffle = behindShuffle;
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        if (!behindShuffle || status.isActive()) {
            super.processWatermarkStatus(status);
        }
    }
}

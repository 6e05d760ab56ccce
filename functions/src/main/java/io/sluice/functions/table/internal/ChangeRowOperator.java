package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;

import io.sluice.serializers.event.ChangeEvent;

/**
 * Turns changes into rows ({@link ChangeRowConverter}) right after the shuffle out of the source,
 * and never tells the operators after it that it is idle.
 *
 * <p>Source subtasks without statements are idle ({@link StatementWatermarks}), which is safe here:
 * only the binlog reader counts statements, in place among its records on one channel. Past this
 * operator it would not be: an operator whose inputs were all idle takes the watermark of the first
 * input to wake up, so a statement count could overtake the records still queued on the other
 * inputs. Kept active, every later operator waits for the count on all its inputs.
 */
@Internal
public final class ChangeRowOperator extends StreamMap<ChangeEvent, RowData> {

    private static final long serialVersionUID = 1L;

    public ChangeRowOperator(ChangeRowConverter converter) {
        super(converter);
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        if (status.isActive()) {
            super.processWatermarkStatus(status);
        }
    }
}

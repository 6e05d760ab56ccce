package io.sluice.functions.order;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

import io.sluice.serializers.event.ChangeEvent;

/**
 * The source's watermarks in both doors (the YAML job's source and the {@code sluice-mysql} table):
 * right after each statement (DDL), the count of statements read so far. Flink sends a watermark to
 * every downstream subtask, in place among the records, and operators pass it on, so it tells every
 * path that the statement is behind it ({@link StatementOrderOperator}). The value is a count, not
 * a time.
 *
 * <p>A split or reader that has read no statement is idle, so the snapshot readers and the readers
 * without a split never hold the count back; the binlog split stays active once it has read one.
 */
@Internal
public final class StatementWatermarks implements WatermarkGenerator<ChangeEvent> {

    private long statements;

    /** The strategy that gives every split of the source its own count. */
    public static WatermarkStrategy<ChangeEvent> strategy() {
        return WatermarkStrategy.forGenerator(context -> new StatementWatermarks());
    }

    @Override
    public void onEvent(ChangeEvent change, long timestamp, WatermarkOutput output) {
        if (change.isDdl()) {
            output.emitWatermark(new Watermark(++statements));
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        if (statements == 0) {
            output.markIdle();
        }
    }
}

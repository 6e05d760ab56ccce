package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import io.sluice.functions.normalize.StatementPathOperator;

/**
 * Runs an encoding function that groups rows ({@link GroupedEncoding}) and makes sure no row waits
 * across a boundary: pending groups are written before a checkpoint barrier leaves (so every row is
 * in the checkpoint whose input held it, and nothing is kept in state), before a watermark is
 * passed on (the SQL door counts statements in watermarks), at the end of the input, and when the
 * input has been quiet for the function's idle time (a processing-time timer), so the last rows of
 * a burst do not wait for the next row.
 *
 * <p>The timer writes only when no record arrived since it was set: while records flow, an event's
 * rows are not cut apart by it.
 */
@Internal
public final class GroupingEncodeOperator<
                IN, OUT, F extends ProcessFunction<IN, OUT> & GroupedEncoding<OUT>>
        extends StatementPathOperator<IN, OUT> implements BoundedOneInput, ProcessingTimeCallback {

    private static final long serialVersionUID = 1L;

    private final GroupedEncoding<OUT> grouping;

    private transient TimestampedCollector<OUT> flushed;
    private transient long arrivals;
    private transient long arrivalsAtTimer;
    private transient boolean timerSet;

    /**
     * @param behindShuffle whether the encoders are the first step behind a shuffle out of the
     *     source's subtasks ({@link StatementPathOperator})
     */
    public GroupingEncodeOperator(F function, boolean behindShuffle) {
        super(function, behindShuffle);
        this.grouping = function;
    }

    @Override
    public void open() throws Exception {
        super.open();
        flushed = new TimestampedCollector<>(output);
        flushed.eraseTimestamp();
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        super.processElement(element);
        arrivals++;
        if (!timerSet && grouping.isPending()) {
            setTimer();
        }
    }

    @Override
    public void onProcessingTime(long time) throws Exception {
        timerSet = false;
        if (!grouping.isPending()) {
            return;
        }
        if (arrivals == arrivalsAtTimer) {
            grouping.flush(flushed);
        } else {
            setTimer();
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void endInput() {
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    private void flush() {
        if (grouping.isPending()) {
            grouping.flush(flushed);
        }
    }

    private void setTimer() {
        timerSet = true;
        arrivalsAtTimer = arrivals;
        getProcessingTimeService()
                .registerTimer(
                        getProcessingTimeService().getCurrentProcessingTime()
                                + grouping.idleFlushMillis(),
                        this);
    }
}

package io.sluice.functions.order;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.normalize.StatementRank;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The owner of a set of partitions, in both doors (one writer per partition, see {@link
 * PartitionOwnerPartitioner}): writes each statement after every row that preceded it in the binlog
 * on any path, and before every row that followed it, with each statement sent once, on one path.
 *
 * <p>The source counts statements in its watermarks ({@link StatementWatermarks}), which reach
 * every path in place among the records, and each change is ranked by the count its path had passed
 * ({@link StatementRank}). This operator's watermark is the count every path has passed; a message
 * ranked beyond it follows a statement that some path has not delivered yet, so it waits until
 * every path has. Then waiting messages go out by rank, a statement before the rows that followed
 * it, in arrival order within a rank. Between statements every path has passed the same count and
 * nothing waits. It keeps no state: with aligned checkpoints nothing waits at a barrier.
 *
 * <p>With progress markers on, {@link ProgressMarkingOwner} runs in its place.
 */
@Internal
public class StatementOrderOperator extends AbstractStreamOperator<SinkMessage>
        implements OneInputStreamOperator<OrderedMessage, SinkMessage> {

    private static final long serialVersionUID = 1L;

    private transient TreeMap<Long, List<SinkMessage>> waiting;
    private transient long passed;

    public StatementOrderOperator() {
        chainingStrategy = ChainingStrategy.ALWAYS;
    }

    @Override
    public void open() throws Exception {
        super.open();
        waiting = new TreeMap<>();
        passed = 0;
    }

    @Override
    public void processElement(StreamRecord<OrderedMessage> record) {
        OrderedMessage ordered = record.getValue();
        // Anything waiting ranks above what may pass now, so passing now keeps the rank order.
        if (StatementRank.needed(ordered.rank()) <= passed) {
            write(record.replace(ordered.message()));
        } else {
            waiting.computeIfAbsent(ordered.rank(), rank -> new ArrayList<>())
                    .add(ordered.message());
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        passed = Math.max(passed, mark.getTimestamp());
        release(passed);
        super.processWatermark(mark);
    }

    /**
     * Aligned checkpoints leave nothing waiting: every watermark before the barrier arrived on
     * every path. Without alignment, what waits is written now, so that it is in this checkpoint.
     */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (!waiting.isEmpty()) {
            LOG.warn(
                    "{} message rank(s) still waited for statements at checkpoint {}; written now"
                            + " (statements keep their order only with aligned checkpoints)",
                    waiting.size(),
                    checkpointId);
            release(Long.MAX_VALUE);
        }
    }

    @Override
    public void finish() throws Exception {
        release(Long.MAX_VALUE);
        super.finish();
    }

    /** Hands {@code record} to the writer. */
    protected void write(StreamRecord<SinkMessage> record) {
        output.collect(record);
    }

    /** Whether some message waits, for tests. */
    boolean isWaiting() {
        return !waiting.isEmpty();
    }

    private void release(long statements) {
        while (!waiting.isEmpty() && StatementRank.needed(waiting.firstKey()) <= statements) {
            Map.Entry<Long, List<SinkMessage>> rank = waiting.pollFirstEntry();
            for (SinkMessage message : rank.getValue()) {
                write(new StreamRecord<>(message));
            }
        }
    }
}

package io.sluice.functions.order;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.order.internal.StatementMerger;

/**
 * The single owner of a set of partitions, chained to the sink writer that writes them (see {@link
 * PartitionOwnerPartitioner}): merges each statement's copies into one message placed in order with
 * its table's rows ({@link StatementMerger}), and writes the messages without the ordering fields.
 *
 * <p>It keeps no state across checkpoints, and needs none: with aligned checkpoints, every copy of
 * a statement is emitted before the barrier that follows it on every path, so no statement is ever
 * pending when this operator snapshots. It checks that, rather than assume it.
 */
@Internal
public final class PartitionOwnerFunction extends ProcessFunction<OrderedMessage, SinkMessage>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    private transient StatementMerger merger;

    @Override
    public void open(OpenContext context) {
        merger = new StatementMerger();
    }

    @Override
    public void processElement(
            OrderedMessage message, Context context, Collector<SinkMessage> out) {
        merger.accept(message, out);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (merger.isMerging()) {
            throw new IllegalStateException(
                    "Checkpoint "
                            + context.getCheckpointId()
                            + " arrived while statements were still being merged ("
                            + merger.describePending()
                            + "); Sluice needs aligned checkpoints:"
                            + " set execution.checkpointing.unaligned.enabled to false");
        }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.rocketmq.internal.ClientSettings;
import io.sluice.functions.sink.rocketmq.internal.PullTailReader;
import io.sluice.functions.sink.rocketmq.internal.QueueSender;
import io.sluice.functions.sink.rocketmq.internal.RocketMqClientLogging;
import io.sluice.functions.sink.rocketmq.internal.RocketMqCommitter;
import io.sluice.functions.sink.rocketmq.internal.RocketMqWriter;

/**
 * Writes {@link SinkMessage}s to RocketMQ: each to its topic and queue (the message's partition),
 * key = primary key, tag = table, per-queue order kept.
 *
 * <p>Exactly-once is a write-ahead log: the writer hands each checkpoint's messages to the
 * checkpoint as a committable, and the committer sends them once that checkpoint completed,
 * skipping after a restore what a queue's tail shows already arrived (see docs/rocketmq-sink.md).
 * Each queue must be written by one sink subtask, which Sluice's partition-owner stage guarantees.
 *
 * <p>Built only through {@link #builder()}.
 */
@PublicEvolving
public final class RocketMqSink
        implements Sink<SinkMessage>, SupportsCommitter<RocketMqCommittable> {

    private static final long serialVersionUID = 1L;

    private final ClientSettings settings;
    private final DeliveryGuarantee guarantee;
    private final QueueSender.Factory senders;

    RocketMqSink(
            ClientSettings settings, DeliveryGuarantee guarantee, QueueSender.Factory senders) {
        this.settings = settings;
        this.guarantee = guarantee;
        this.senders = senders;
    }

    public static RocketMqSinkBuilder builder() {
        return new RocketMqSinkBuilder();
    }

    public DeliveryGuarantee deliveryGuarantee() {
        return guarantee;
    }

    ClientSettings settings() {
        return settings;
    }

    /**
     * @deprecated Flink 1.20 creates writers through {@link #createWriter(WriterInitContext)}.
     */
    @Deprecated
    @Override
    public CommittingSinkWriter<SinkMessage, RocketMqCommittable> createWriter(
            InitContext context) {
        throw new UnsupportedOperationException(
                "RocketMqSink needs a WriterInitContext (Flink 1.20 or later)");
    }

    @Override
    public CommittingSinkWriter<SinkMessage, RocketMqCommittable> createWriter(
            WriterInitContext context) {
        String role = "writer-" + context.getTaskInfo().getIndexOfThisSubtask();
        RocketMqClientLogging.stopOnRelease(context.getUserCodeClassLoader());
        return new RocketMqWriter(
                settings, guarantee, () -> senders.open(settings, role), context.metricGroup());
    }

    @Override
    public Committer<RocketMqCommittable> createCommitter(CommitterInitContext context) {
        String role = "committer-" + context.getTaskInfo().getIndexOfThisSubtask();
        return new RocketMqCommitter(
                () -> senders.open(settings, role),
                () -> new PullTailReader(settings, role),
                context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<RocketMqCommittable> getCommittableSerializer() {
        return new RocketMqCommittableSerializer();
    }
}

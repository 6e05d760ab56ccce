package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionRules;
import io.sluice.functions.route.TopicRouter;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.key.MessageKeyEncoder;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes each change as one message in the configured format, on its routed topic and Canal-hashed
 * partition, keyed by its primary key. Runs in parallel: the encoders are per subtask and reuse
 * their buffers. Statements go to partition 0 for now, as in Canal.
 *
 * <p>The message id is a per-subtask sequence; Canal's is a batch id with no meaning to consumers
 * beyond ordering within one producer, which this keeps.
 */
@Internal
public final class ChangeEventEncodeFunction extends RichMapFunction<ChangeEvent, SinkMessage> {

    private static final long serialVersionUID = 1L;

    private final MessageFormat format;
    private final TopicRouter router;
    private final PartitionRules partitions;
    private final PartitionCounts.Factory countsFactory;

    private transient ChangeEncoder encoder;
    private transient MessageKeyEncoder keys;
    private transient List<ChangeEvent> one;
    private transient long nextId;
    private transient Counter bytesOut;
    private transient PartitionCounts counts;
    private transient int origin;

    public ChangeEventEncodeFunction(
            MessageFormat format,
            TopicRouter router,
            PartitionRules partitions,
            PartitionCounts.Factory countsFactory) {
        this.format = format;
        this.router = router;
        this.partitions = partitions;
        this.countsFactory = countsFactory;
    }

    @Override
    public void open(OpenContext context) {
        encoder = format.newEncoder();
        keys = new MessageKeyEncoder();
        one = new ArrayList<>(1);
        one.add(null);
        nextId = 1;
        bytesOut = getRuntimeContext().getMetricGroup().addGroup("sluice").counter("encodedBytes");
        counts = countsFactory.create();
        origin = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    }

    @Override
    public void close() {
        if (counts != null) {
            counts.close();
        }
    }

    @Override
    public SinkMessage map(ChangeEvent change) {
        one.set(0, change);
        byte[] value = encoder.encode(one, nextId++, System.currentTimeMillis());
        bytesOut.inc(value.length);
        String topic = router.topicOf(change.schema());
        int partition =
                change.isDdl()
                        ? 0
                        : PartitionRules.partition(
                                partitions.hasherFor(change.schema()).hash(change.data()),
                                counts.countOf(topic));
        return new SinkMessage(
                topic,
                partition,
                change.isDdl() ? null : keys.keyOf(change),
                value,
                change.executeTime(),
                change.schema().table(),
                origin,
                0);
    }
}

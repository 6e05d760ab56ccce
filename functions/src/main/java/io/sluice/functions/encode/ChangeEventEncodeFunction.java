package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

import io.sluice.functions.route.FanOut;
import io.sluice.functions.route.RoutedChange;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes each routed change as one message in the configured format. Runs in parallel: the
 * encoders are per subtask and reuse their buffers. A statement copy stays a copy: the message
 * records the path it took ({@link SinkMessage#origin()}) and how many copies its partition's owner
 * merges ({@link SinkMessage#copies()}).
 *
 * <p>The message id is a per-subtask sequence; Canal's is a batch id with no meaning to consumers
 * beyond ordering within one producer, which this keeps.
 *
 * <p>Metrics in group {@code sluice}: see {@link EncodeMetrics}.
 */
@Internal
public final class ChangeEventEncodeFunction extends RichMapFunction<RoutedChange, SinkMessage> {

    private static final long serialVersionUID = 1L;

    private final MessageFormat format;
    private final int parallelism;
    private final boolean fannedIn;

    private transient ChangeEncoder encoder;
    private transient List<ChangeEvent> one;
    private transient long nextId;
    private transient int subtask;
    private transient EncodeMetrics metrics;

    /**
     * @param parallelism this operator's parallelism
     * @param fannedIn whether the route operator reaches this one through an exchange (and copies
     *     statements to every subtask of it) rather than chained
     */
    public ChangeEventEncodeFunction(MessageFormat format, int parallelism, boolean fannedIn) {
        this.format = format;
        this.parallelism = parallelism;
        this.fannedIn = fannedIn;
    }

    @Override
    public void open(OpenContext context) {
        FanOut.checkParallelism(getRuntimeContext(), parallelism, "encode");
        encoder = format.newEncoder();
        one = new ArrayList<>(1);
        one.add(null);
        nextId = 1;
        subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        metrics = new EncodeMetrics(getRuntimeContext().getMetricGroup().addGroup("sluice"));
    }

    @Override
    public SinkMessage map(RoutedChange routed) {
        ChangeEvent change = routed.change();
        one.set(0, change);
        byte[] value = encoder.encode(one, nextId++, System.currentTimeMillis());
        int origin = fannedIn ? routed.origin() * parallelism + subtask : routed.origin();
        int copies = fannedIn ? routed.copies() * parallelism : routed.copies();
        metrics.encoded(change, routed.topic(), value.length);
        return new SinkMessage(
                routed.topic(),
                routed.partition(),
                routed.key(),
                value,
                change.executeTime(),
                change.table(),
                origin,
                copies);
    }
}

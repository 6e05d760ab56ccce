package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.internal.LargeMessageGuard;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.ColumnControl;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.serializers.debezium.DebeziumJsonSettings;

/**
 * Encodes each routed change as one message in the configured format (with debezium-json: a row
 * change as its message and, after a DELETE, a tombstone; a statement as none). Runs in parallel:
 * the encoders are per subtask and reuse their buffers. When partition owners follow ({@link
 * MessageOut#TO_OWNERS}), the message keeps the change's rank ({@link RoutedChange#rank()}), which
 * its partition's owner orders it by.
 *
 * <p>The message id is a per-subtask sequence; Canal's is a batch id with no meaning to consumers
 * beyond ordering within one producer, which this keeps.
 *
 * <p>A message above its sink's limit is handled by the large-message policy ({@link
 * LargeMessageGuard}) before it leaves.
 *
 * <p>A row of a table whose columns the filter options cut or mask is encoded as {@link
 * ColumnControl} shapes it, so both formats carry the same columns.
 *
 * <p>Metrics in group {@code sluice}: see {@link EncodeMetrics} and {@link LargeMessageGuard}.
 */
@Internal
public final class ChangeEventEncodeFunction<OUT> extends ProcessFunction<RoutedChange, OUT> {

    private static final long serialVersionUID = 1L;

    private final EncodeSpec<OUT> spec;

    private transient RoutedEncoding<OUT> encoding;

    /**
     * @param out what is emitted per message: the message alone, or with its rank for the partition
     *     owners
     * @param largeMessages what to do with a message above its sink's limit; null for no check
     *     (tests that write to no broker)
     * @param filters which columns each table's messages carry, masked how; null for all
     */
    public ChangeEventEncodeFunction(
            MessageFormat format,
            MessageOut<OUT> out,
            LargeMessageSettings largeMessages,
            FilterSettings filters) {
        this(format, out, largeMessages, filters, null);
    }

    /**
     * @param debezium debezium-json's settings; null for the other formats
     */
    public ChangeEventEncodeFunction(
            MessageFormat format,
            MessageOut<OUT> out,
            LargeMessageSettings largeMessages,
            FilterSettings filters,
            DebeziumJsonSettings debezium) {
        this.spec = new EncodeSpec<>(format, out, largeMessages, filters, null, debezium);
    }

    @Override
    public void open(OpenContext context) {
        encoding = spec.open(getRuntimeContext());
    }

    @Override
    public void close() {
        if (encoding != null) {
            encoding.close();
        }
    }

    /**
     * The operator that runs this function.
     *
     * @param behindShuffle whether the encoders are reached through a shuffle out of the source's
     *     subtasks ({@link StatementPathOperator})
     */
    public StatementPathOperator<RoutedChange, OUT> operator(boolean behindShuffle) {
        return new StatementPathOperator<>(this, behindShuffle);
    }

    @Override
    public void processElement(RoutedChange routed, Context context, Collector<OUT> out) {
        encoding.encode(routed, out);
    }
}

package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

import io.sluice.functions.encode.internal.LargeMessageGuard;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.ColumnControl;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.route.RoutedChange;

/**
 * Encodes each routed change as one message in the configured format. Runs in parallel: the
 * encoders are per subtask and reuse their buffers. A statement copy stays a copy: when partition
 * owners follow ({@link MessageOut#TO_OWNERS}), the message records the path it took ({@link
 * OrderedMessage#origin()}) and how many copies its partition's owner merges ({@link
 * OrderedMessage#copies()}).
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
public final class ChangeEventEncodeFunction<OUT> extends RichMapFunction<RoutedChange, OUT> {

    private static final long serialVersionUID = 1L;

    private final EncodeSpec<OUT> spec;

    private transient RoutedEncoding<OUT> encoding;

    /**
     * @param out what is emitted per message: the message alone, or with its path and copies for
     *     the partition owners
     * @param parallelism this operator's parallelism
     * @param fannedIn whether the route operator reaches this one through an exchange (and copies
     *     statements to every subtask of it) rather than chained
     * @param largeMessages what to do with a message above its sink's limit; null for no check
     *     (tests that write to no broker)
     * @param filters which columns each table's messages carry, masked how; null for all
     */
    public ChangeEventEncodeFunction(
            MessageFormat format,
            MessageOut<OUT> out,
            int parallelism,
            boolean fannedIn,
            LargeMessageSettings largeMessages,
            FilterSettings filters) {
        this.spec =
                new EncodeSpec<>(format, out, parallelism, fannedIn, largeMessages, filters, null);
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

    @Override
    public OUT map(RoutedChange routed) {
        return encoding.encode(routed);
    }
}

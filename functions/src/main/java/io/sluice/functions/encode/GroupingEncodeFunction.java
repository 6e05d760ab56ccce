package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.GroupedEncoding;
import io.sluice.functions.encode.internal.GroupingEncodeOperator;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.encode.internal.RowGroups;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.RoutedChange;

/**
 * {@link ChangeEventEncodeFunction} with {@code format.group-rows: event}: the binlog rows of one
 * rows event bound for the same partition with the same rank share a message ({@link RowGroups}).
 * Statements, QUERY messages and snapshot rows first write every pending group, then go out alone
 * as before. Runs inside {@link GroupingEncodeOperator}, which writes pending groups before
 * barriers, watermarks, the end of the input and after an idle time.
 */
@Internal
public final class GroupingEncodeFunction<OUT> extends ProcessFunction<RoutedChange, OUT>
        implements GroupedEncoding<OUT>, RowGroups.Emitter {

    private static final long serialVersionUID = 1L;

    private final EncodeSpec<OUT> spec;
    private final GroupSettings grouping;

    private transient RoutedEncoding<OUT> encoding;
    private transient Collector<OUT> out;

    /** As {@link ChangeEventEncodeFunction}'s, with the grouping options. */
    public GroupingEncodeFunction(
            MessageFormat format,
            MessageOut<OUT> out,
            LargeMessageSettings largeMessages,
            FilterSettings filters,
            GroupSettings grouping) {
        this.spec = new EncodeSpec<>(format, out, largeMessages, filters, grouping, null);
        this.grouping = grouping;
    }

    /**
     * The operator that runs this function.
     *
     * @param behindShuffle whether the encoders are reached through a shuffle out of the source's
     *     subtasks ({@link io.sluice.functions.normalize.StatementPathOperator})
     */
    public GroupingEncodeOperator<RoutedChange, OUT, GroupingEncodeFunction<OUT>> operator(
            boolean behindShuffle) {
        return new GroupingEncodeOperator<>(this, behindShuffle);
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
    public void processElement(RoutedChange routed, Context context, Collector<OUT> out) {
        this.out = out;
        if (RowGroups.groupable(routed.change())) {
            encoding.group(routed, this);
            return;
        }
        encoding.groups().flush(this);
        encoding.encode(routed, out);
    }

    @Override
    public boolean isPending() {
        return encoding.groups().isPending();
    }

    @Override
    public void flush(Collector<OUT> out) {
        this.out = out;
        encoding.groups().flush(this);
    }

    @Override
    public long idleFlushMillis() {
        return grouping.idleFlushMillis();
    }

    @Override
    public void emit(SinkMessage message, long rank, int rows) {
        out.collect(encoding.grouped(message, rank, rows));
    }
}

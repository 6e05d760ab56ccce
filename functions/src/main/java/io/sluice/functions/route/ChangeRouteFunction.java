package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.filter.internal.ChangeFilter;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.key.MessageKeyEncoder;

/**
 * Picks each change's topic, partition and message key. A row goes to the partition its table's
 * {@link PartitionRules} hash gives ({@link Routing}); a statement is copied to every partition of
 * its topic, or to partition 0 only ({@link DdlPartitions}), and to every encoder subtask when the
 * encoders are not chained to this operator, so each of those partitions receives it in order with
 * the table's rows.
 *
 * <p>A row that carries its DML statement's text ({@link ChangeEvent#query()}, the statement's
 * first row) is preceded by Canal's QUERY message ({@link ChangeEvent#queryOf}) on the row's own
 * topic, partition and path, without a key: it reaches that partition right before the row. It is
 * not copied to the other partitions the statement's rows may reach: one copy per statement, as
 * Canal writes, and a QUERY per partition would multiply every DML statement by the partition
 * count.
 *
 * <p>Changes the filter options drop ({@link ChangeFilter}) are dropped here, before they take a
 * path: every copy of a dropped statement goes, and nothing later waits for a dropped change.
 */
@Internal
public final class ChangeRouteFunction extends RichFlatMapFunction<RoutedChange, RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final Routing routing;
    private final int parallelism;
    private final boolean fannedIn;
    private final int encodeFanOut;
    private final FilterSettings filters;

    private transient MessageKeyEncoder keys;
    private transient ChangeFilter filter;
    private transient Routing.Routes routes;
    private transient int origin;

    /**
     * @param routing topic, partition and the partitions a statement goes to
     * @param parallelism this operator's parallelism, which the upstream fan-out of statements
     *     assumed
     * @param fannedIn whether Normalize reaches this operator through the keyed exchange (and
     *     copies statements to every subtask of it) rather than chained, with one copy per
     *     statement
     * @param encodeFanOut the encoders' parallelism when they are reached through an exchange, or 0
     *     when they are chained to this operator
     * @param filters which changes are dropped; null for none
     */
    public ChangeRouteFunction(
            Routing routing,
            int parallelism,
            boolean fannedIn,
            int encodeFanOut,
            FilterSettings filters) {
        this.routing = routing;
        this.parallelism = parallelism;
        this.fannedIn = fannedIn;
        this.encodeFanOut = encodeFanOut;
        this.filters = filters;
    }

    @Override
    public void open(OpenContext context) {
        FanOut.checkParallelism(getRuntimeContext(), parallelism, "route");
        keys = new MessageKeyEncoder();
        routes = routing.open();
        // Nothing configured: no per-change check at all.
        filter =
                filters == null || !(filters.dropsChanges() || filters.shapesColumns())
                        ? null
                        : new ChangeFilter(filters);
        // A path id counts among the copies Normalize made: chained, it made one, whichever
        // subtask reads the binlog.
        origin = fannedIn ? getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() : 0;
    }

    @Override
    public void close() {
        if (routes != null) {
            routes.close();
        }
    }

    @Override
    public void flatMap(RoutedChange in, Collector<RoutedChange> out) {
        ChangeEvent change = in.change();
        if (filter != null && !filter.keeps(change)) {
            return;
        }
        String topic = routes.topicOf(change);
        if (change.isRow()) {
            int partition = routes.partitionOf(change, topic);
            if (!change.query().isEmpty() && (filter == null || filter.keepsQueryOf(change))) {
                out.collect(
                        new RoutedChange(
                                ChangeEvent.queryOf(change),
                                in.keyHash(),
                                RoutedChange.NO_TARGET,
                                origin,
                                0,
                                topic,
                                partition,
                                null));
            }
            out.collect(
                    in.routed(
                            topic,
                            partition,
                            keys.keyOf(change),
                            RoutedChange.NO_TARGET,
                            origin,
                            0));
            return;
        }
        for (int partition = 0, to = routes.statementPartitions(topic);
                partition < to;
                partition++) {
            if (encodeFanOut == 0) {
                out.collect(
                        in.routed(
                                topic,
                                partition,
                                null,
                                RoutedChange.NO_TARGET,
                                origin,
                                in.copies()));
            } else {
                for (int target = 0; target < encodeFanOut; target++) {
                    out.collect(in.routed(topic, partition, null, target, origin, in.copies()));
                }
            }
        }
    }
}

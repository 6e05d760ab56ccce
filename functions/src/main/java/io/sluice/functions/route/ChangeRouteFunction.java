package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import io.sluice.functions.filter.internal.ChangeFilter;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.progress.ProgressNotes;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.key.MessageKeyEncoder;

import java.util.HashSet;
import java.util.Set;

/**
 * Picks each change's topic, partition and message key. A row goes to the partition its table's
 * {@link PartitionRules} hash gives ({@link Routing}); a statement goes to every partition of its
 * topic, or to partition 0 only ({@link DdlPartitions}), one message each, all on the statement's
 * own path: the partition owners place it in order with the rows of every path by its rank ({@link
 * io.sluice.functions.normalize.StatementRank}).
 *
 * <p>A row that carries its DML statement's text ({@link ChangeEvent#query()}, the statement's
 * first row) is preceded by Canal's QUERY message ({@link ChangeEvent#queryOf}) on the row's own
 * topic, partition and path, without a key: it reaches that partition right before the row. It is
 * not copied to the other partitions the statement's rows may reach: one copy per statement, as
 * Canal writes, and a QUERY per partition would multiply every DML statement by the partition
 * count.
 *
 * <p>Changes the filter options drop ({@link ChangeFilter}) are dropped here, before they take a
 * path. A dropped statement still counts in the source's watermarks, so nothing waits for it.
 */
@Internal
public final class ChangeRouteFunction extends ProcessFunction<RoutedChange, RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final Routing routing;
    private final FilterSettings filters;
    private final boolean reportsTopics;

    private transient MessageKeyEncoder keys;
    private transient ChangeFilter filter;
    private transient Routing.Routes routes;
    private transient Set<String> reportedTopics;

    /**
     * @param routing topic, partition and the partitions a statement goes to
     * @param filters which changes are dropped; null for none
     */
    public ChangeRouteFunction(Routing routing, FilterSettings filters) {
        this(routing, filters, false);
    }

    /**
     * @param reportsTopics whether each topic is reported to the partition owners ({@link
     *     ProgressNotes#TAG}) before its first message, for progress markers
     */
    public ChangeRouteFunction(Routing routing, FilterSettings filters, boolean reportsTopics) {
        this.routing = routing;
        this.filters = filters;
        this.reportsTopics = reportsTopics;
    }

    @Override
    public void open(OpenContext context) {
        keys = new MessageKeyEncoder();
        routes = routing.open();
        reportedTopics = new HashSet<>();
        // Nothing configured: no per-change check at all.
        filter =
                filters == null || !(filters.dropsChanges() || filters.shapesColumns())
                        ? null
                        : new ChangeFilter(filters);
    }

    @Override
    public void close() {
        if (routes != null) {
            routes.close();
        }
    }

    /**
     * The operator that runs this function.
     *
     * @param behindShuffle whether the route is reached through the keyed exchange out of the
     *     source's subtasks ({@link StatementPathOperator}) rather than chained to them
     */
    public StatementPathOperator<RoutedChange, RoutedChange> operator(boolean behindShuffle) {
        return new StatementPathOperator<>(this, behindShuffle);
    }

    @Override
    public void processElement(RoutedChange in, Context context, Collector<RoutedChange> out) {
        ChangeEvent change = in.change();
        if (filter != null && !filter.keeps(change)) {
            return;
        }
        String topic = routes.topicOf(change);
        if (reportsTopics && reportedTopics.add(topic)) {
            context.output(ProgressNotes.TAG, ProgressNote.topic(topic));
        }
        if (change.isRow()) {
            int partition = routes.partitionOf(change, topic);
            if (!change.query().isEmpty() && (filter == null || filter.keepsQueryOf(change))) {
                out.collect(
                        new RoutedChange(
                                ChangeEvent.queryOf(change),
                                in.keyHash(),
                                in.rank(),
                                topic,
                                partition,
                                null));
            }
            out.collect(in.routed(topic, partition, keys.keyOf(change)));
            return;
        }
        for (int partition = 0, to = routes.statementPartitions(topic);
                partition < to;
                partition++) {
            out.collect(in.routed(topic, partition, null));
        }
    }
}

package io.sluice.functions.encode;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageGuard;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.encode.internal.RowGroups;
import io.sluice.functions.filter.internal.ColumnControl;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.debezium.DebeziumJsonEncoder;
import io.sluice.serializers.debezium.DebeziumJsonSettings;
import io.sluice.serializers.event.ChangeEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * What an encoding subtask of the pipeline does with a routed change, shared by the one-row-per-
 * message function ({@link ChangeEventEncodeFunction}) and the grouping one ({@link
 * GroupingEncodeFunction}): shape its columns, encode it, keep its rank, apply the large-message
 * policy, count it.
 */
final class RoutedEncoding<OUT> {

    private final MessageOut<OUT> out;
    private final ChangeEncoder encoder;
    private final DebeziumJsonEncoder debezium;
    private final List<ChangeEvent> one = new ArrayList<>(1);
    private final EncodeMetrics metrics;
    private final LargeMessageGuard guard;
    private final ColumnControl columns;
    private final RowGroups groups;
    private long nextId = 1;

    /**
     * @param filters null for all columns as they are
     * @param grouping null for one row per message
     * @param debeziumSettings debezium-json's settings; null for the other formats
     */
    RoutedEncoding(
            RuntimeContext context,
            MessageFormat format,
            MessageOut<OUT> out,
            LargeMessageSettings largeMessages,
            FilterSettings filters,
            GroupSettings grouping,
            DebeziumJsonSettings debeziumSettings) {
        this.out = out;
        this.encoder = format.newEncoder(debeziumSettings);
        this.debezium =
                encoder instanceof DebeziumJsonEncoder ? (DebeziumJsonEncoder) encoder : null;
        one.add(null);
        MetricGroup sluice = context.getMetricGroup().addGroup("sluice");
        this.metrics = new EncodeMetrics(sluice);
        this.guard =
                largeMessages == null
                        ? null
                        : new LargeMessageGuard(largeMessages, encoder, sluice);
        this.columns = filters == null ? null : new ColumnControl(filters);
        this.groups = grouping == null ? null : new RowGroups(encoder, guard, grouping.maxBytes());
    }

    /**
     * {@code routed} as a message of its own, with its rank, into {@code collector}; with
     * debezium-json a row change's message and the tombstone after a DELETE, and nothing for a
     * statement (Debezium writes none to a table's topic).
     */
    void encode(RoutedChange routed, Collector<OUT> collector) {
        ChangeEvent change = shape(routed);
        if (debezium != null) {
            encodeDebezium(routed, change, collector);
            return;
        }
        one.set(0, change);
        long id = groups == null ? nextId++ : groups.nextId();
        byte[] value = encoder.encode(one, id, System.currentTimeMillis());
        SinkMessage message =
                new SinkMessage(
                        routed.topic(),
                        routed.partition(),
                        routed.key(),
                        value,
                        change.executeTime(),
                        change.table());
        if (guard != null) {
            message = guard.check(change, message, id);
        }
        metrics.encoded(change, message.topic(), message.value().length);
        collector.collect(out.of(message, routed.rank()));
    }

    /** The message key is Debezium's primary-key struct in place of the routed one. */
    private void encodeDebezium(RoutedChange routed, ChangeEvent change, Collector<OUT> collector) {
        if (!change.isRow()) {
            return;
        }
        long id = nextId++;
        byte[] key = debezium.key(change);
        SinkMessage message =
                new SinkMessage(
                        routed.topic(),
                        routed.partition(),
                        key,
                        debezium.value(change, System.currentTimeMillis()),
                        change.executeTime(),
                        change.table());
        if (guard != null) {
            message = guard.check(change, message, id);
        }
        metrics.encoded(change, message.topic(), message.value().length);
        collector.collect(out.of(message, routed.rank()));
        if (debezium.tombstoneAfter(change)) {
            SinkMessage tombstone =
                    new SinkMessage(
                            routed.topic(),
                            routed.partition(),
                            key,
                            null,
                            change.executeTime(),
                            change.table());
            collector.collect(out.of(tombstone, routed.rank()));
        }
    }

    /** The row groups (only with grouping). */
    RowGroups groups() {
        return groups;
    }

    /** Adds a {@link RowGroups#groupable} row to its group; closed groups go to {@code out}. */
    void group(RoutedChange routed, RowGroups.Emitter out) {
        ChangeEvent change = shape(routed);
        groups.add(
                change,
                routed.topic(),
                routed.partition(),
                routed.key(),
                change.table(),
                routed.rank(),
                out);
    }

    /** Counts a message of {@code rows} rows written by the groups; what to emit for it. */
    OUT grouped(SinkMessage message, long rank, int rows) {
        metrics.encodedRows(rows, message.topic(), message.value().length);
        return out.of(message, rank);
    }

    private ChangeEvent shape(RoutedChange routed) {
        return columns == null ? routed.change() : columns.apply(routed.change());
    }

    void close() {
        if (guard != null) {
            guard.close();
        }
    }
}

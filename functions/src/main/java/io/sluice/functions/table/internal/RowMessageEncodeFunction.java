package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.GroupedEncoding;
import io.sluice.functions.encode.internal.GroupingEncodeOperator;
import io.sluice.functions.encode.internal.LargeMessageGuard;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.encode.internal.RowGroups;
import io.sluice.functions.filter.internal.ChangeFilter;
import io.sluice.functions.filter.internal.ColumnControl;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.StatementRank;
import io.sluice.functions.order.StatementOrderOperator;
import io.sluice.functions.route.DdlPartitions;
import io.sluice.functions.route.Routing;
import io.sluice.functions.types.ChangeEventSerializer;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.debezium.DebeziumJsonEncoder;
import io.sluice.serializers.debezium.DebeziumJsonSettings;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.key.MessageKeyEncoder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes a SQL row's change as the DataStream pipeline's encoder does (same encoders, router,
 * partition rules and key), except that a non-NULL {@code topic} or {@code key} in the row wins.
 * The partition is Canal's hash of the change over the chosen topic's partition count; a statement
 * goes to every partition of the topic, or to partition 0 only ({@link DdlPartitions}), one message
 * each. Each message is ranked by the statements its path had passed (the input's watermark, {@link
 * StatementRank}), so that each partition's owner ({@link StatementOrderOperator}) places the
 * statement after every earlier row and before every later one, whichever path brought them. A
 * message above its sink's limit is handled by the large-message policy ({@link
 * LargeMessageGuard}). The sink table's column options cut and mask the message's columns ({@link
 * ColumnControl}) and {@code drop-empty-updates} drops an UPDATE of cut columns alone. With {@code
 * format.group-rows: event} the binlog rows of one rows event bound for one partition with one rank
 * share a message ({@link RowGroups}), run by {@link GroupingEncodeOperator}; statements and
 * snapshot rows first write what is pending.
 */
@Internal
final class RowMessageEncodeFunction<OUT> extends ProcessFunction<RowData, OUT>
        implements GroupedEncoding<OUT>, RowGroups.Emitter {

    private static final long serialVersionUID = 1L;
    private static final int MAX_CACHED_TOPICS = 10_000;

    private final MessageFormat format;
    private final MessageOut<OUT> stamp;
    private final Routing routing;
    private final LargeMessageSettings largeMessages;
    private final FilterSettings filters;
    private final GroupSettings grouping;
    private final int topicField;
    private final int keyField;
    private final DebeziumJsonSettings debeziumSettings;

    private transient ChangeEventSerializer serializer;
    private transient ChangeEncoder encoder;
    private transient DebeziumJsonEncoder debezium;
    private transient MessageKeyEncoder keys;
    private transient List<ChangeEvent> one;
    private transient long nextId;
    private transient Counter bytesOut;
    private transient Routing.Routes routes;
    private transient Map<StringData, String> topics;
    private transient LargeMessageGuard guard;
    private transient ColumnControl columns;
    private transient ChangeFilter filter;
    private transient RowGroups groups;
    private transient Collector<OUT> out;

    /**
     * @param stamp the message alone (written in place) or with its rank for the partition owners
     * @param topicField the row position of the {@code topic} metadata, or -1
     * @param keyField the row position of the {@code key} metadata, or -1
     * @param grouping null for one row per message
     * @param debezium debezium-json's settings; null for the other formats
     */
    RowMessageEncodeFunction(
            MessageFormat format,
            MessageOut<OUT> stamp,
            Routing routing,
            LargeMessageSettings largeMessages,
            FilterSettings filters,
            int topicField,
            int keyField,
            GroupSettings grouping,
            DebeziumJsonSettings debezium) {
        this.debeziumSettings = debezium;
        this.filters = filters;
        this.grouping = grouping;
        this.format = format;
        this.stamp = stamp;
        this.routing = routing;
        this.largeMessages = largeMessages;
        this.topicField = topicField;
        this.keyField = keyField;
    }

    @Override
    public void open(OpenContext context) {
        serializer = new ChangeEventSerializer();
        encoder = format.newEncoder(debeziumSettings);
        debezium = encoder instanceof DebeziumJsonEncoder ? (DebeziumJsonEncoder) encoder : null;
        keys = new MessageKeyEncoder();
        one = new ArrayList<>(1);
        one.add(null);
        nextId = 1;
        MetricGroup sluice = getRuntimeContext().getMetricGroup().addGroup("sluice");
        bytesOut = sluice.counter("encodedBytes");
        guard = new LargeMessageGuard(largeMessages, encoder, sluice);
        routes = routing.open();
        topics = new HashMap<>();
        columns = filters.shapesColumns() ? new ColumnControl(filters) : null;
        filter = filters.dropsChanges() ? new ChangeFilter(filters) : null;
        groups = grouping == null ? null : new RowGroups(encoder, guard, grouping.maxBytes());
    }

    @Override
    public void close() {
        if (routes != null) {
            routes.close();
        }
        if (guard != null) {
            guard.close();
        }
    }

    @Override
    public void processElement(RowData row, Context context, Collector<OUT> out) {
        ChangeEvent change = row.<ChangeEvent>getRawValue(0).toObject(serializer);
        if (filter != null && !filter.keeps(change)) {
            return;
        }
        // Partition and key come from the whole change; the message carries the shaped one.
        ChangeEvent shaped = columns == null ? change : columns.apply(change);
        String topic = topicOf(row, change);
        if (debezium != null) {
            writeDebezium(row, change, shaped, topic, context, out);
            return;
        }
        byte[] key;
        if (keyField >= 0 && !row.isNullAt(keyField)) {
            key = row.getBinary(keyField);
        } else {
            key = change.isDdl() ? null : keys.keyOf(change);
        }
        long rank = StatementRank.of(change, context.timerService().currentWatermark());
        this.out = out;
        if (groups != null) {
            if (RowGroups.groupable(change)) {
                groups.add(
                        shaped,
                        topic,
                        routes.partitionOf(change, topic),
                        key,
                        change.schema().table(),
                        rank,
                        this);
                return;
            }
            groups.flush(this);
        }
        one.set(0, shaped);
        long id = groups == null ? nextId++ : groups.nextId();
        byte[] value = encoder.encode(one, id, System.currentTimeMillis());
        if (!change.isDdl()) {
            int partition = routes.partitionOf(change, topic);
            emit(shaped, message(topic, partition, key, value, change), rank, id, out);
            return;
        }
        for (int partition = 0, to = routes.statementPartitions(topic);
                partition < to;
                partition++) {
            // One encoding shared by every copy: messages are immutable.
            emit(shaped, message(topic, partition, key, value, change), rank, id, out);
        }
    }

    /**
     * debezium-json: a row change's record, with Debezium's key unless the row names one, and the
     * tombstone after a DELETE; nothing for a statement (Debezium writes none to a table's topic).
     */
    private void writeDebezium(
            RowData row,
            ChangeEvent change,
            ChangeEvent shaped,
            String topic,
            Context context,
            Collector<OUT> out) {
        if (!change.isRow()) {
            return;
        }
        byte[] key =
                keyField >= 0 && !row.isNullAt(keyField)
                        ? row.getBinary(keyField)
                        : debezium.key(change);
        long rank = StatementRank.of(change, context.timerService().currentWatermark());
        int partition = routes.partitionOf(change, topic);
        long id = nextId++;
        byte[] value = debezium.value(shaped, System.currentTimeMillis());
        emit(shaped, message(topic, partition, key, value, change), rank, id, out);
        if (debezium.tombstoneAfter(change)) {
            out.collect(stamp.of(message(topic, partition, key, null, change), rank));
        }
    }

    @Override
    public boolean isPending() {
        return groups.isPending();
    }

    @Override
    public void flush(Collector<OUT> out) {
        this.out = out;
        groups.flush(this);
    }

    @Override
    public long idleFlushMillis() {
        return grouping.idleFlushMillis();
    }

    /** A message the row groups wrote, already judged by the large-message policy. */
    @Override
    public void emit(SinkMessage message, long rank, int rows) {
        bytesOut.inc(message.value().length);
        out.collect(stamp.of(message, rank));
    }

    /** {@code message}, or what the large-message policy makes of it if it is too large. */
    private void emit(
            ChangeEvent change, SinkMessage message, long rank, long id, Collector<OUT> out) {
        SinkMessage checked = guard.check(change, message, id);
        bytesOut.inc(checked.value().length);
        out.collect(stamp.of(checked, rank));
    }

    private static SinkMessage message(
            String topic, int partition, byte[] key, byte[] value, ChangeEvent change) {
        return new SinkMessage(
                topic, partition, key, value, change.executeTime(), change.schema().table());
    }

    /** The row's topic if it names one, else the routed one; decoded once per distinct name. */
    private String topicOf(RowData row, ChangeEvent change) {
        if (topicField < 0 || row.isNullAt(topicField)) {
            return routes.topicOf(change);
        }
        StringData name = row.getString(topicField);
        String topic = topics.get(name);
        if (topic == null) {
            topic = name.toString();
            if (topic.isEmpty()) {
                throw new IllegalArgumentException(
                        "A row of " + change.schema() + " names the empty topic ''");
            }
            if (topics.size() >= MAX_CACHED_TOPICS) {
                topics.clear();
            }
            // A copy: with object reuse the row's string may point into a buffer reused later.
            topics.put(StringData.fromBytes(name.toBytes()), topic);
        }
        return topic;
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSnapshotSplit;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;

import io.debezium.relational.TableId;
import io.debezium.util.SchemaNameAdjuster;
import io.sluice.functions.source.binlog.ChunkKeyOrder;

import javax.annotation.Nullable;

import java.time.ZoneId;
import java.util.function.BiFunction;

/**
 * One snapshot chunk's key range {@code [start, end)}, asked whether a row's Debezium image lies in
 * it by comparing the chunk key's value with the bounds in the server's order ({@link
 * ChunkKeyOrder}), not as text as Flink CDC 3.5's {@code RecordUtils.splitKeyRangeContains} does
 * for values of different Java classes (a DATETIME's Debezium {@code Long} against its {@code
 * LocalDateTime} bound).
 */
final class ChunkKeyRange {

    private static final String COLUMN_TYPE = "__debezium.source.column.type";

    private final TableId table;
    private final String column;
    private final String field;
    @Nullable private final Object start;
    @Nullable private final Object end;
    private final ZoneId serverZone;
    private final BiFunction<TableId, String, CollationOrder> collations;

    /** Built on the first key compared: a chunk without changes needs no order. */
    @Nullable private ChunkKeyOrder order;

    @Nullable private Comparable<?> low;
    @Nullable private Comparable<?> high;

    /**
     * @param field the chunk key's field name in Debezium's row images
     * @param serverZone the zone of Flink CDC's JDBC connection, in which the bounds were read
     */
    ChunkKeyRange(
            TableId table,
            String column,
            String field,
            @Nullable Object start,
            @Nullable Object end,
            ZoneId serverZone,
            BiFunction<TableId, String, CollationOrder> collations) {
        this.table = table;
        this.column = column;
        this.field = field;
        this.start = start;
        this.end = end;
        this.serverZone = serverZone;
        this.collations = collations;
    }

    static ChunkKeyRange of(
            MySqlSnapshotSplit split,
            SchemaNameAdjuster names,
            ZoneId zone,
            BiFunction<TableId, String, CollationOrder> collations) {
        String column = split.getSplitKeyType().getFieldNames().get(0);
        return new ChunkKeyRange(
                split.getTableId(),
                column,
                names.adjust(column),
                first(split.getSplitStart()),
                first(split.getSplitEnd()),
                zone,
                collations);
    }

    /** Whether the row image (a change's after image, or before image) has its key in range. */
    boolean contains(Struct row) {
        if (start == null && end == null) {
            return true;
        }
        Field keyField = row.schema().field(field);
        if (keyField == null) {
            throw new IllegalStateException(
                    String.format(
                            "A change of %s has no field '%s' for its chunk key column '%s'",
                            table, field, column));
        }
        Object value = row.get(keyField);
        if (value == null) {
            return start == null; // the first chunk holds NULL keys
        }
        ChunkKeyOrder keys = order();
        Schema schema = keyField.schema();
        String type = schema.parameters() == null ? null : schema.parameters().get(COLUMN_TYPE);
        Comparable<?> key =
                keys.debeziumKey(value, schema.name(), type == null ? schema.type().name() : type);
        return (low == null || ChunkKeyOrder.compare(low, key) <= 0)
                && (high == null || ChunkKeyOrder.compare(key, high) < 0);
    }

    private ChunkKeyOrder order() {
        if (order == null) {
            Object sample = start != null ? start : end;
            ChunkKeyOrder built;
            try {
                built = ChunkKeyOrder.of(table, column, sample, serverZone, serverZone, collations);
            } catch (IllegalStateException e) {
                throw new IllegalStateException(
                        String.format(
                                "Sluice's snapshot backfill compares chunk keys by value, but the"
                                        + " chunk bounds of %s by column '%s' are of Java type %s,"
                                        + " which it cannot compare; choose another chunk key"
                                        + " column ('source.snapshot.chunk-key-columns')",
                                table, column, sample.getClass().getName()),
                        e);
            }
            low = built.bound(start);
            high = built.bound(end);
            order = built;
        }
        return order;
    }

    @Nullable
    private static Object first(@Nullable Object[] bound) {
        return bound == null || bound.length == 0 ? null : bound[0];
    }
}

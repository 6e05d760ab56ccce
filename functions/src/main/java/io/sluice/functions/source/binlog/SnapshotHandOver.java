package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;

import com.github.shyiko.mysql.binlog.GtidSet;
import io.debezium.relational.TableId;
import io.sluice.functions.source.internal.CollationOrder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Which binlog changes the snapshot already holds. The binlog split starts at the lowest high
 * watermark of the finished chunks; each chunk is the table at its own high watermark, so a row
 * change is emitted only if it comes after the high watermark of the chunk its chunk-key value
 * falls in. Once a change of a table comes after the table's highest high watermark, the table's
 * changes are no longer looked at. DDL statements and tables without chunks pass.
 *
 * <p>Chunk bounds and a row's chunk-key text are compared in the server's order ({@link
 * ChunkKeyOrder}): numbers as numbers, strings in their column's collation, dates and times as
 * such, binary strings as unsigned bytes. Used by the reading thread only.
 */
@Internal
public final class SnapshotHandOver {

    private final Map<String, Map<String, TableChunks>> tables = new HashMap<>();

    private SnapshotHandOver() {}

    /**
     * @param chunks the finished chunks of the binlog split
     * @param chunkKeyColumn the chunk key column of each table with chunks; null for a table that
     *     is gone, whose changes then pass
     * @param serverZone the zone of Flink CDC's JDBC connection ({@code source.server-time-zone}),
     *     in which the driver built DATE and TIME bounds
     * @param timestampZone the zone the reader writes TIMESTAMP text in ({@code
     *     source.timestamp-time-zone})
     * @param collations the order of a table's string chunk key column, asked once per table
     *     chunked by one
     */
    public static SnapshotHandOver of(
            List<FinishedSnapshotSplitInfo> chunks,
            Function<TableId, String> chunkKeyColumn,
            ZoneId serverZone,
            ZoneId timestampZone,
            BiFunction<TableId, String, CollationOrder> collations) {
        Map<TableId, List<FinishedSnapshotSplitInfo>> byTable = new HashMap<>();
        for (FinishedSnapshotSplitInfo chunk : chunks) {
            byTable.computeIfAbsent(chunk.getTableId(), id -> new ArrayList<>()).add(chunk);
        }
        SnapshotHandOver handOver = new SnapshotHandOver();
        byTable.forEach(
                (id, ofTable) -> {
                    String column = chunkKeyColumn.apply(id);
                    if (column != null) {
                        handOver.tables
                                .computeIfAbsent(id.catalog(), database -> new HashMap<>())
                                .put(
                                        id.table(),
                                        new TableChunks(
                                                id,
                                                column,
                                                ofTable,
                                                serverZone,
                                                timestampZone,
                                                collations));
                    }
                });
        return handOver;
    }

    /** Whether every table with chunks is past its highest high watermark: nothing to check. */
    public boolean isDone() {
        return tables.isEmpty();
    }

    /**
     * What of {@code change}, whose following position is {@code position}, the snapshot does not
     * hold: the change, nothing (null), or for an UPDATE that moves its row from one chunk to
     * another, the DELETE of the old key or the INSERT of the new one alone (Sluice writes such an
     * UPDATE as both).
     */
    public ChangeEvent emitted(ChangeEvent change, BinlogPosition position) {
        if (!change.isRow()) {
            return change;
        }
        Map<String, TableChunks> ofDatabase = tables.get(change.database());
        TableChunks chunks = ofDatabase == null ? null : ofDatabase.get(change.table());
        if (chunks == null) {
            return change;
        }
        if (position.compareTo(chunks.highest) > 0) {
            ofDatabase.remove(change.table());
            if (ofDatabase.isEmpty()) {
                tables.remove(change.database());
            }
            return change;
        }
        int column = chunks.column(change.schema());
        String gtid = change.gtid();
        if (change.type() != ChangeType.UPDATE) {
            return chunks.emits(change.data(), column, position, gtid) ? change : null;
        }
        boolean old = chunks.emits(change.before(), column, position, gtid);
        boolean now = chunks.emits(change.after(), column, position, gtid);
        if (old == now) {
            return old ? change : null;
        }
        return old
                ? ChangeEvent.builder(change.schema(), ChangeType.DELETE)
                        .before(change.before())
                        .eventOf(change)
                        .build()
                : ChangeEvent.builder(change.schema(), ChangeType.INSERT)
                        .after(change.after())
                        .eventOf(change)
                        .build();
    }

    /** One table's chunks with rows, sorted by their start. */
    private static final class TableChunks {
        private final TableId id;
        private final String columnName;
        private final Chunk[] chunks;
        private final BinlogPosition highest;

        /** How the key compares; null when one chunk holds every key and none is compared. */
        private final ChunkKeyOrder order;

        private TableSchema lastSchema;
        private int lastColumn;

        TableChunks(
                TableId id,
                String columnName,
                List<FinishedSnapshotSplitInfo> infos,
                ZoneId serverZone,
                ZoneId timestampZone,
                BiFunction<TableId, String, CollationOrder> collations) {
            this.id = id;
            this.columnName = columnName;
            Object sample = null;
            BinlogPosition high = null;
            for (FinishedSnapshotSplitInfo info : infos) {
                sample = sample != null ? sample : first(info.getSplitStart());
                sample = sample != null ? sample : first(info.getSplitEnd());
                BinlogPosition chunkHigh = BinlogPosition.fromBinlogOffset(info.getHighWatermark());
                high = high == null || chunkHigh.compareTo(high) > 0 ? chunkHigh : high;
            }
            this.highest = high;
            this.order =
                    sample == null
                            ? null
                            : ChunkKeyOrder.of(
                                    id, columnName, sample, serverZone, timestampZone, collations);
            // Flink CDC's splitter can end a table with empty chunks [x, x) (binary keys): they
            // hold no row, and the chunk [x, ...) is the one that holds x.
            this.chunks =
                    infos.stream()
                            .map(info -> new Chunk(order, info))
                            .filter(chunk -> !chunk.isEmpty())
                            .sorted(Comparator.comparing(c -> c.start, ChunkKeyOrder::compare))
                            .toArray(Chunk[]::new);
        }

        int column(TableSchema schema) {
            if (schema != lastSchema) {
                int found = -1;
                for (int i = 0; i < schema.columnCount() && found < 0; i++) {
                    found = schema.name(i).equalsIgnoreCase(columnName) ? i : -1;
                }
                if (found < 0) {
                    throw new IllegalStateException(
                            String.format(
                                    "The snapshot of %s was chunked by column '%s', which the"
                                            + " table's row change in the binlog does not have"
                                            + " (columns %s)",
                                    id, columnName, schema));
                }
                if (order != null) {
                    order.check(schema.mysqlType(found));
                }
                lastSchema = schema;
                lastColumn = found;
            }
            return lastColumn;
        }

        boolean emits(RowImage row, int column, BinlogPosition after, String gtid) {
            if (chunks.length == 0) {
                // Only empty chunks: no row of the table was in the snapshot.
                return true;
            }
            Comparable<?> key =
                    order == null || row.isNull(column) ? null : order.key(row.text(column));
            int low = 0;
            int high = chunks.length - 1;
            // The last chunk whose start is at or below the key; a null key is in the first.
            int found = 0;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                if (ChunkKeyOrder.compare(chunks[middle].start, key) <= 0) {
                    found = middle;
                    low = middle + 1;
                } else {
                    high = middle - 1;
                }
            }
            Chunk chunk = chunks[found];
            boolean inside =
                    (chunk.start == null || ChunkKeyOrder.compare(chunk.start, key) <= 0)
                            && (chunk.end == null || ChunkKeyOrder.compare(key, chunk.end) < 0);
            // The chunks cover every key; one outside them all was in no snapshot chunk.
            return !inside || chunk.isAfterHigh(after, gtid);
        }
    }

    /** A chunk: [start, end) of its chunk key, null for an open end, and its high watermark. */
    private static final class Chunk {
        private final Comparable<?> start;
        private final Comparable<?> end;
        private final BinlogPosition high;

        /** The high watermark's MySQL GTID set; null without one (MariaDB, GTIDs off). */
        private final GtidSet highGtids;

        Chunk(ChunkKeyOrder order, FinishedSnapshotSplitInfo info) {
            Object start = first(info.getSplitStart());
            Object end = first(info.getSplitEnd());
            this.start = start == null ? null : order.bound(start);
            this.end = end == null ? null : order.bound(end);
            this.high = BinlogPosition.fromBinlogOffset(info.getHighWatermark());
            String gtids = info.getHighWatermark().getGtidSet();
            this.highGtids =
                    gtids == null || gtids.isBlank() || GtidState.isMariaDb(gtids)
                            ? null
                            : new GtidSet(gtids.replace("\n", ""));
        }

        /**
         * Whether the transaction of a change, at {@code after} with {@code gtid}, comes after the
         * chunk's high watermark. On MySQL with GTIDs by the watermark's GTID set, as Flink CDC's
         * backfill decides: {@code SHOW MASTER STATUS} can give a position past a transaction the
         * server has written to its binlog but not yet committed, which the chunk's SELECT did not
         * see and whose GTID the set does not hold yet.
         */
        boolean isAfterHigh(BinlogPosition after, String gtid) {
            int colon = gtid.lastIndexOf(':');
            if (highGtids == null || colon <= 0) {
                return after.compareTo(high) > 0;
            }
            GtidSet.UUIDSet ofServer = highGtids.getUUIDSet(gtid.substring(0, colon));
            long number = Long.parseLong(gtid.substring(colon + 1));
            if (ofServer != null) {
                for (GtidSet.Interval interval : ofServer.getIntervals()) {
                    if (interval.getStart() <= number && number <= interval.getEnd()) {
                        return false;
                    }
                }
            }
            return true;
        }

        boolean isEmpty() {
            return start != null && end != null && ChunkKeyOrder.compare(start, end) >= 0;
        }
    }

    private static Object first(Object[] bound) {
        return bound == null || bound.length == 0 ? null : bound[0];
    }
}

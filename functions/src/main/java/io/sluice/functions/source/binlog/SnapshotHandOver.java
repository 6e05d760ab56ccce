package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;

import io.debezium.relational.TableId;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Which binlog changes the snapshot already holds. The binlog split starts at the lowest high
 * watermark of the finished chunks; each chunk is the table at its own high watermark, so a row
 * change is emitted only if it comes after the high watermark of the chunk its chunk-key value
 * falls in. Once a change of a table comes after the table's highest high watermark, the table's
 * changes are no longer looked at. DDL statements and tables without chunks pass.
 *
 * <p>Chunk bounds are compared as typed values: numbers as numbers ({@link BigDecimal}), strings as
 * strings. Used by the reading thread only.
 */
@Internal
public final class SnapshotHandOver {

    private final Map<String, Map<String, TableChunks>> tables = new HashMap<>();

    private SnapshotHandOver() {}

    /**
     * @param chunks the finished chunks of the binlog split
     * @param chunkKeyColumn the chunk key column of each table with chunks; null for a table that
     *     is gone, whose changes then pass
     */
    public static SnapshotHandOver of(
            List<FinishedSnapshotSplitInfo> chunks, Function<TableId, String> chunkKeyColumn) {
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
                                .put(id.table(), new TableChunks(id, column, ofTable));
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
        if (change.type() != ChangeType.UPDATE) {
            return chunks.emits(change.data(), column, position) ? change : null;
        }
        boolean old = chunks.emits(change.before(), column, position);
        boolean now = chunks.emits(change.after(), column, position);
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

    /** One table's chunks, sorted by their start. */
    private static final class TableChunks {
        private final TableId id;
        private final String columnName;
        private final Chunk[] chunks;
        private final BinlogPosition highest;
        private final boolean numeric;
        private TableSchema lastSchema;
        private int lastColumn;

        TableChunks(TableId id, String columnName, List<FinishedSnapshotSplitInfo> infos) {
            this.id = id;
            this.columnName = columnName;
            this.chunks =
                    infos.stream()
                            .map(info -> new Chunk(id, columnName, info))
                            .sorted(Comparator.comparing(c -> c.start, SnapshotHandOver::compare))
                            .toArray(Chunk[]::new);
            BinlogPosition high = chunks[0].high;
            for (Chunk chunk : chunks) {
                high = chunk.high.compareTo(high) > 0 ? chunk.high : high;
            }
            this.highest = high;
            boolean numbers = false;
            for (Chunk chunk : chunks) {
                numbers |= chunk.start instanceof BigDecimal || chunk.end instanceof BigDecimal;
            }
            this.numeric = numbers;
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
                lastSchema = schema;
                lastColumn = found;
            }
            return lastColumn;
        }

        boolean emits(RowImage row, int column, BinlogPosition after) {
            Comparable<?> key = row.isNull(column) ? null : typed(row.text(column));
            int low = 0;
            int high = chunks.length - 1;
            // The last chunk whose start is at or below the key; a null key is in the first.
            int found = 0;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                if (compare(chunks[middle].start, key) <= 0) {
                    found = middle;
                    low = middle + 1;
                } else {
                    high = middle - 1;
                }
            }
            Chunk chunk = chunks[found];
            boolean inside =
                    (chunk.start == null || compare(chunk.start, key) <= 0)
                            && (chunk.end == null || compare(key, chunk.end) < 0);
            // The chunks cover every key; one outside them all was in no snapshot chunk.
            return !inside || after.compareTo(chunk.high) > 0;
        }

        /** A row's chunk-key text as a value of the bounds' kind. */
        private Comparable<?> typed(String text) {
            if (!numeric) {
                return text;
            }
            try {
                return new BigDecimal(text);
            } catch (NumberFormatException e) {
                throw new IllegalStateException(
                        String.format(
                                "The chunk key column '%s' of %s has the value '%s' in the"
                                        + " binlog, which is not a number like its chunk bounds",
                                columnName, id, text),
                        e);
            }
        }
    }

    /** A chunk: [start, end) of its chunk key, null for an open end, and its high watermark. */
    private static final class Chunk {
        private final Comparable<?> start;
        private final Comparable<?> end;
        private final BinlogPosition high;

        Chunk(TableId id, String column, FinishedSnapshotSplitInfo info) {
            this.start = bound(info.getSplitStart(), id, column);
            this.end = bound(info.getSplitEnd(), id, column);
            this.high = BinlogPosition.fromBinlogOffset(info.getHighWatermark());
        }
    }

    private static Comparable<?> bound(Object[] bound, TableId id, String column) {
        if (bound == null || bound.length == 0 || bound[0] == null) {
            return null;
        }
        Object value = bound[0];
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        if (value instanceof BigInteger) {
            return new BigDecimal((BigInteger) value);
        }
        if (value instanceof Long
                || value instanceof Integer
                || value instanceof Short
                || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(((Number) value).doubleValue());
        }
        if (value instanceof String) {
            return (String) value;
        }
        throw new IllegalStateException(
                String.format(
                        "'source.reader' = 'sluice' compares chunk keys that are numbers or"
                                + " strings, but %s was chunked by column '%s' of Java type %s;"
                                + " take 'flink-cdc', or another chunk key column"
                                + " ('source.snapshot.chunk-key-columns')",
                        id, column, value.getClass().getName()));
    }

    /** Compares two bounds or keys; null is below everything (an open start). */
    private static int compare(Comparable<?> a, Comparable<?> b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof BigDecimal && b instanceof BigDecimal) {
            return ((BigDecimal) a).compareTo((BigDecimal) b);
        }
        if (a instanceof String && b instanceof String) {
            return ((String) a).compareTo((String) b);
        }
        throw new IllegalStateException("Chunk bounds of two kinds: " + a + " and " + b);
    }
}

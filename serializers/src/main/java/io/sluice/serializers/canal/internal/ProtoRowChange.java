package io.sluice.serializers.canal.internal;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;

import java.util.Arrays;
import java.util.List;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_DDL_SCHEMA_NAME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_EVENT_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_IS_DDL;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_ROW_DATAS;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_SQL;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_DATA_AFTER_COLUMNS;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_DATA_BEFORE_COLUMNS;

/**
 * Measures, then writes, one {@code CanalEntry.RowChange} as Canal's {@code LogEventConvert} builds
 * it: for rows {eventType, isDdl=false, rowDatas}; for a DDL {eventType, isDdl=true, sql,
 * ddlSchemaName when not empty}; for the QUERY of a DML statement {eventType, sql} ({@code
 * buildQueryEntry} sets no isDdl). tableId is not known here and is left out.
 *
 * <p>{@link #measure} caches every column and row size in reused arrays so that {@link #write} can
 * put each nested length before its bytes without measuring twice. One instance serves one thread,
 * and each {@code measure} must be followed by its {@code write}.
 */
public final class ProtoRowChange {

    /** eventType and isDdl: one-byte tags with one-byte values. */
    private static final int TYPE_AND_DDL_BYTES = 4;

    /** eventType alone. */
    private static final int TYPE_BYTES = 2;

    private int[] columnSizes = new int[256];
    private int[] rowSizes = new int[16];
    private List<ChangeEvent> changes;
    private ProtoTableLayout layout;
    private int sqlLength;

    /**
     * Measures the RowChange of {@code changes}, which share {@code layout}'s table and one type (a
     * DDL alone).
     *
     * @return its encoded size, without a tag or length of its own
     */
    public long measure(List<ChangeEvent> changes, ProtoTableLayout layout) {
        this.changes = changes;
        this.layout = layout;
        ChangeEvent first = changes.get(0);
        if (!first.isRow()) {
            sqlLength = ProtoWire.utf8Length(first.sql());
            if (!first.isDdl()) {
                return TYPE_BYTES + 1 + ProtoWire.delimitedSize(sqlLength);
            }
            long size = TYPE_AND_DDL_BYTES + 1 + ProtoWire.delimitedSize(sqlLength);
            int schemaLength = layout.database().length;
            return schemaLength == 0 ? size : size + 1 + ProtoWire.delimitedSize(schemaLength);
        }
        int rows = changes.size();
        int columns = layout.columnCount();
        int perRow = first.before() != null && first.after() != null ? 2 * columns : columns;
        ensureCapacity(rows, (long) rows * perRow);
        long size = TYPE_AND_DDL_BYTES;
        int k = 0;
        for (int r = 0; r < rows; r++) {
            ChangeEvent change = changes.get(r);
            long rowSize = 0;
            RowImage before = change.before();
            if (before != null) {
                for (int c = 0; c < columns; c++) {
                    int columnSize = layout.columnSize(before, c);
                    columnSizes[k++] = columnSize;
                    rowSize += 1 + ProtoWire.delimitedSize(columnSize);
                }
            }
            RowImage after = change.after();
            if (after != null) {
                for (int c = 0; c < columns; c++) {
                    int columnSize = layout.columnSize(after, c);
                    columnSizes[k++] = columnSize;
                    rowSize += 1 + ProtoWire.delimitedSize(columnSize);
                }
            }
            rowSizes[r] = checkedSize(rowSize);
            size += 1 + ProtoWire.delimitedSize(rowSizes[r]);
        }
        return size;
    }

    /** Writes the RowChange measured last: exactly the size {@link #measure} returned. */
    public void write(ProtoWriter out) {
        ChangeEvent first = changes.get(0);
        out.tag(ROW_CHANGE_EVENT_TYPE);
        out.varint32(first.type().canalNumber());
        if (first.isRow()) {
            out.tag(ROW_CHANGE_IS_DDL);
            out.bool(false); // Canal sets it for rows, so false is written too (50 00)
            writeRows(out);
        } else if (first.isDdl()) {
            out.tag(ROW_CHANGE_IS_DDL);
            out.bool(true);
            writeDdl(out, first);
        } else {
            writeSql(out, first);
        }
        changes = null; // do not hold on to the caller's rows
    }

    private void writeDdl(ProtoWriter out, ChangeEvent ddl) {
        writeSql(out, ddl);
        byte[] schema = layout.database();
        if (schema.length > 0) {
            // Canal's ddlSchemaName is the event's current database, set only when not empty.
            out.tag(ROW_CHANGE_DDL_SCHEMA_NAME);
            out.varint32(schema.length);
            out.bytes(schema, 0, schema.length);
        }
    }

    private void writeSql(ProtoWriter out, ChangeEvent statement) {
        out.tag(ROW_CHANGE_SQL);
        out.varint32(sqlLength);
        out.utf8(statement.sql());
    }

    private void writeRows(ProtoWriter out) {
        int columns = layout.columnCount();
        int k = 0;
        for (int r = 0, rows = changes.size(); r < rows; r++) {
            ChangeEvent change = changes.get(r);
            out.tag(ROW_CHANGE_ROW_DATAS);
            out.varint32(rowSizes[r]);
            RowImage before = change.before();
            if (before != null) {
                for (int c = 0; c < columns; c++) {
                    out.tag(ROW_DATA_BEFORE_COLUMNS);
                    out.varint32(columnSizes[k++]);
                    layout.writeColumn(out, before, c, false); // before columns: never updated
                }
            }
            RowImage after = change.after();
            if (after != null) {
                for (int c = 0; c < columns; c++) {
                    out.tag(ROW_DATA_AFTER_COLUMNS);
                    out.varint32(columnSizes[k++]);
                    layout.writeColumn(out, after, c, change.isUpdated(c));
                }
            }
        }
    }

    private void ensureCapacity(int rows, long columns) {
        if (rows > rowSizes.length) {
            rowSizes = Arrays.copyOf(rowSizes, Math.max(rows, 2 * rowSizes.length));
        }
        if (columns > columnSizes.length) {
            int wanted = checkedSize(columns);
            columnSizes = Arrays.copyOf(columnSizes, Math.max(wanted, 2 * columnSizes.length));
        }
    }

    static int checkedSize(long size) {
        if (size > Integer.MAX_VALUE - 1024) {
            throw new IllegalArgumentException(
                    "A Canal message of " + size + " bytes is too large to encode");
        }
        return (int) size;
    }
}

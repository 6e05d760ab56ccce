package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.io.Serializable;
import java.util.BitSet;
import java.util.List;

/**
 * MySQL's PARTIAL_UPDATE_ROWS_EVENT (type 39), which a session with {@code
 * binlog_row_value_options=PARTIAL_JSON} writes for every UPDATE: an UPDATE_ROWS v2 event whose
 * after images each start with the row's value options (a length-encoded integer) and, when
 * PARTIAL_JSON (1) is among them, one bit per JSON column of the table: set when the column's value
 * is not the new document but a diff against the old one (what {@code JSON_SET}, {@code
 * JSON_REPLACE} and {@code JSON_REMOVE} leave when MySQL finds the diff smaller).
 *
 * <p>An after image without diffs holds every value whole and is read as an ordinary update; so is
 * one whose diffs are all empty (MySQL marks every JSON column, also those the statement did not
 * change, whose diff has no operation: their new value is the old one, from the full before image).
 * A diff with operations would have to be applied to the old document exactly as MySQL does to give
 * the new one; the reader does not, and refuses it ({@link #refusal}) rather than write the diff or
 * drop the change.
 */
final class PartialUpdateRows extends UpdateRowsEventData {

    /** PARTIAL_JSON_UPDATES in an after image's value options. */
    private static final int PARTIAL_JSON = 1;

    private static final int JSON = ColumnType.JSON.getCode();

    /** Per row, the columns whose after value is a JSON diff; null when none is. */
    private final List<BitSet> diffColumns;

    PartialUpdateRows(List<BitSet> diffColumns) {
        this.diffColumns = diffColumns;
    }

    /**
     * Reads the value options and partial bits before an after image.
     *
     * @return the columns whose value in the after image is a JSON diff; null when none is
     */
    static BitSet readDiffColumns(ByteArrayInputStream in, TableMapEventData map)
            throws IOException {
        int options = in.readPackedInteger();
        if ((options & PARTIAL_JSON) == 0) {
            return null;
        }
        byte[] types = map.getColumnTypes();
        int jsonColumns = 0;
        for (byte type : types) {
            jsonColumns += (type & 0xff) == JSON ? 1 : 0;
        }
        BitSet partial = in.readBitSet(jsonColumns, true);
        if (partial.isEmpty()) {
            return null;
        }
        BitSet diffs = new BitSet(types.length);
        for (int column = 0, json = 0; column < types.length; column++) {
            if ((types[column] & 0xff) == JSON && partial.get(json++)) {
                diffs.set(column);
            }
        }
        return diffs;
    }

    /**
     * The columns of {@code diffs} whose diff is not empty, null when none is; {@code after} gets
     * the old value ({@code before}) of the others.
     */
    static BitSet withoutEmptyDiffs(BitSet diffs, Serializable[] before, Serializable[] after) {
        if (diffs == null) {
            return null;
        }
        for (int column = diffs.nextSetBit(0); column >= 0; column = diffs.nextSetBit(column + 1)) {
            if (after[column] instanceof byte[] && ((byte[]) after[column]).length == 0) {
                after[column] = before[column];
                diffs.clear(column);
            }
        }
        return diffs.isEmpty() ? null : diffs;
    }

    /** The first column of row {@code row} whose after value ({@code after}) is a diff, or -1. */
    int diffColumn(int row, Serializable[] after) {
        BitSet diffs = diffColumns.get(row);
        if (diffs == null) {
            return -1;
        }
        for (int column = diffs.nextSetBit(0); column >= 0; column = diffs.nextSetBit(column + 1)) {
            if (after[column] != null) {
                return column;
            }
        }
        return -1;
    }

    /** Why the reader refuses a diff of {@code column} in an update of {@code table}. */
    static String refusal(String table, String column) {
        return String.format(
                "An UPDATE of %s is logged as a PARTIAL_UPDATE_ROWS_EVENT (type 39) whose new value"
                        + " of column '%s' (json) is a diff against the old document, which Sluice"
                        + " does not apply: the session that wrote it had"
                        + " binlog_row_value_options=PARTIAL_JSON. Set"
                        + " binlog_row_value_options='' on the server (SET GLOBAL and in its"
                        + " configuration) and in the sessions that write captured tables, so"
                        + " that MySQL logs whole JSON documents; the changes from here on must"
                        + " then be taken again (a new snapshot of %s).",
                table, column, table);
    }
}

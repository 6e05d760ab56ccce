package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import io.sluice.functions.source.ChangeEventConversionException;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a table version against the column metadata a table map carries when the server writes
 * {@code binlog_row_metadata=FULL}: the column names in order, the primary key and the signedness
 * of numeric columns. These come from the server's own table definition at the time the rows were
 * written, so a difference means the schema Sluice holds is not the one of the rows, and decoding
 * them would write wrong names or values. Without that metadata (the default {@code MINIMAL}) there
 * is nothing to check here; {@link RowsEventDecoder} still checks the column count and types.
 */
final class TableMapCheck {

    private TableMapCheck() {}

    /**
     * @throws ChangeEventConversionException naming the table, the column and both values, if the
     *     table map's metadata contradicts {@code columns}
     */
    static void check(TableMapEventData map, List<BinlogColumn> columns) {
        TableMapEventMetadata metadata = map.getEventMetadata();
        if (metadata == null
                || metadata.getColumnNames() == null
                || metadata.getColumnNames().isEmpty()) {
            return;
        }
        List<String> names = metadata.getColumnNames();
        List<String> held = new ArrayList<>(columns.size());
        columns.forEach(column -> held.add(column.name()));
        if (names.size() != held.size()) {
            throw mismatch(map, "columns " + names, "columns " + held);
        }
        for (int i = 0; i < names.size(); i++) {
            if (!names.get(i).equalsIgnoreCase(held.get(i))) {
                throw mismatch(map, "columns " + names, "columns " + held);
            }
        }
        Set<Integer> keys = keyIndexes(metadata);
        if (keys != null) {
            for (int i = 0; i < columns.size(); i++) {
                if (keys.contains(i) != columns.get(i).isKey()) {
                    throw mismatch(
                            map,
                            "column '"
                                    + names.get(i)
                                    + (keys.contains(i) ? "' in" : "' not in")
                                    + " the primary key",
                            "the opposite");
                }
            }
        }
        BitSet signedness = metadata.getSignedness();
        if (signedness != null) {
            byte[] types = map.getColumnTypes();
            int numeric = 0;
            for (int i = 0; i < types.length && i < columns.size(); i++) {
                if (!isNumeric(types[i] & 0xff)) {
                    continue;
                }
                boolean unsigned = signedness.get(numeric++);
                if (unsigned != columns.get(i).type().isUnsigned()) {
                    throw mismatch(
                            map,
                            "column '" + names.get(i) + "' " + (unsigned ? "unsigned" : "signed"),
                            columns.get(i).type().mysqlType());
                }
            }
        }
    }

    /** The indexes of the primary key's columns; null if the table map states no key at all. */
    private static Set<Integer> keyIndexes(TableMapEventMetadata metadata) {
        if (metadata.getSimplePrimaryKeys() == null
                && metadata.getPrimaryKeysWithPrefix() == null) {
            return null;
        }
        Set<Integer> keys = new HashSet<>();
        if (metadata.getSimplePrimaryKeys() != null) {
            keys.addAll(metadata.getSimplePrimaryKeys());
        }
        if (metadata.getPrimaryKeysWithPrefix() != null) {
            keys.addAll(metadata.getPrimaryKeysWithPrefix().keySet());
        }
        return keys;
    }

    /** The binlog types whose signedness the metadata states (MySQL's is_numeric_type). */
    private static boolean isNumeric(int type) {
        switch (type) {
            case 1: // TINY
            case 2: // SHORT
            case 3: // LONG
            case 4: // FLOAT
            case 5: // DOUBLE
            case 8: // LONGLONG
            case 9: // INT24
            case 0: // DECIMAL
            case 246: // NEWDECIMAL
                return true;
            default:
                return false;
        }
    }

    private static ChangeEventConversionException mismatch(
            TableMapEventData map, String binlog, String held) {
        return new ChangeEventConversionException(
                String.format(
                        "The binlog's table map of %s.%s (binlog_row_metadata=FULL) says %s, but"
                                + " the schema Sluice holds says %s: the schema is not the one the"
                                + " rows were written with",
                        map.getDatabase(), map.getTable(), binlog, held));
    }
}

package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.mysql.cj.CharsetMapping;
import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.functions.source.internal.ColumnTypeStyle;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a table version against the column metadata of a table map, which comes from the server's
 * own table definition when the rows were written: a difference means the schema Sluice holds is
 * not the one of the rows, and decoding them would write wrong names or values. MySQL 8.0.1+ and
 * MariaDB 10.5+ write the signedness of numeric columns and the charset of character columns with
 * the default {@code binlog_row_metadata=MINIMAL}; {@code FULL} adds the column names and the
 * primary key. Whatever the metadata, {@link RowsEventDecoder} checks the column count and types.
 */
final class TableMapCheck {

    private static final int BINARY_COLLATION = 63;

    private static final int YEAR = 13;

    private TableMapCheck() {}

    /**
     * @param style the server's: MySQL counts YEAR columns among the numeric ones whose signedness
     *     it states, MariaDB does not
     * @throws ChangeEventConversionException naming the table, the column and both values, if the
     *     table map's metadata contradicts {@code columns}
     */
    static void check(TableMapEventData map, List<BinlogColumn> columns, ColumnTypeStyle style) {
        TableMapEventMetadata metadata = map.getEventMetadata();
        if (metadata == null || map.getColumnTypes().length != columns.size()) {
            return; // the decoder reports a different column count
        }
        List<String> names = metadata.getColumnNames();
        if (names != null && !names.isEmpty()) {
            checkNames(map, names, columns);
            checkKey(map, metadata, columns);
        }
        checkSignedness(map, metadata.getSignedness(), columns, style);
        checkCharsets(map, metadata, columns);
    }

    private static void checkNames(
            TableMapEventData map, List<String> names, List<BinlogColumn> columns) {
        List<String> held = new ArrayList<>(columns.size());
        columns.forEach(column -> held.add(column.name()));
        for (int i = 0; i < names.size(); i++) {
            if (i >= held.size() || !names.get(i).equalsIgnoreCase(held.get(i))) {
                throw mismatch(map, "columns " + names, "columns " + held);
            }
        }
    }

    private static void checkKey(
            TableMapEventData map, TableMapEventMetadata metadata, List<BinlogColumn> columns) {
        Set<Integer> keys = keyIndexes(metadata);
        if (keys == null) {
            return;
        }
        for (int i = 0; i < columns.size(); i++) {
            if (keys.contains(i) != columns.get(i).isKey()) {
                throw mismatch(
                        map,
                        "column '"
                                + columns.get(i).name()
                                + (keys.contains(i) ? "' is in" : "' is not in")
                                + " the primary key",
                        "the opposite");
            }
        }
    }

    /**
     * MySQL 8.0 gives each YEAR column a bit too (YEAR is an unsigned number to it; seen on
     * 8.0.31), MariaDB does not. The binlog client reads as many bits as there are numeric columns
     * without YEAR, so on MySQL the bits of the last numeric columns after a YEAR are not read and
     * not checked; nor, for a server of unknown kind, is any numeric column after a YEAR.
     */
    private static void checkSignedness(
            TableMapEventData map,
            BitSet signedness,
            List<BinlogColumn> columns,
            ColumnTypeStyle style) {
        if (signedness == null) {
            return;
        }
        byte[] types = map.getColumnTypes();
        boolean yearCounts =
                style == ColumnTypeStyle.MYSQL || style == ColumnTypeStyle.MYSQL_DISPLAY_WIDTHS;
        boolean yearUnknown = !yearCounts && style != ColumnTypeStyle.MARIADB;
        int read = 0;
        for (byte type : types) {
            read += isNumeric(type & 0xff) ? 1 : 0;
        }
        int numeric = 0;
        for (int i = 0; i < types.length; i++) {
            int type = types[i] & 0xff;
            if (type == YEAR && yearUnknown) {
                return;
            }
            if (type == YEAR && yearCounts) {
                numeric++;
                continue;
            }
            if (!isNumeric(type)) {
                continue;
            }
            int bit = numeric++;
            if (bit >= read) {
                return;
            }
            boolean unsigned = signedness.get(bit);
            if (unsigned != columns.get(i).type().isUnsigned()) {
                throw mismatch(
                        map,
                        "column '"
                                + columns.get(i).name()
                                + "' is "
                                + (unsigned ? "" : "not ")
                                + "unsigned",
                        columns.get(i).type().mysqlType());
            }
        }
    }

    /**
     * The charset of each character column: what its bytes are decoded with, so a difference would
     * write wrong text. Collations the JDBC driver does not know are not checked.
     */
    private static void checkCharsets(
            TableMapEventData map, TableMapEventMetadata metadata, List<BinlogColumn> columns) {
        List<Integer> perColumn = metadata.getColumnCharsets();
        TableMapEventMetadata.DefaultCharset defaults = metadata.getDefaultCharset();
        if (perColumn == null && defaults == null) {
            return;
        }
        byte[] types = map.getColumnTypes();
        int[] meta = map.getColumnMetadata();
        int character = 0;
        for (int i = 0; i < types.length; i++) {
            if (!isCharacter(types[i] & 0xff, meta[i])) {
                continue;
            }
            int at = character++;
            Integer collation;
            if (perColumn != null) {
                collation = at < perColumn.size() ? perColumn.get(at) : null;
            } else {
                Map<Integer, Integer> exceptions = defaults.getCharsetCollations();
                collation =
                        exceptions != null && exceptions.containsKey(at)
                                ? exceptions.get(at)
                                : defaults.getDefaultCharsetCollation();
            }
            if (collation == null) {
                continue;
            }
            Charset held = columns.get(i).charset();
            if (collation == BINARY_COLLATION) {
                if (held != null) {
                    throw mismatch(
                            map,
                            "column '" + columns.get(i).name() + "' holds bytes (binary)",
                            "charset " + columns.get(i).mysqlCharset());
                }
                continue;
            }
            String java = CharsetMapping.getStaticJavaEncodingForCollationIndex(collation);
            if (java == null || !Charset.isSupported(java)) {
                continue;
            }
            Charset binlog = Charset.forName(java);
            if (!binlog.equals(held)) {
                throw mismatch(
                        map,
                        "column '"
                                + columns.get(i).name()
                                + "' has charset "
                                + CharsetMapping.getStaticMysqlCharsetNameForCollationIndex(
                                        collation),
                        held == null ? "no charset" : "charset " + columns.get(i).mysqlCharset());
            }
        }
    }

    /** MySQL's is_character_type: CHAR, VARCHAR, BINARY, VARBINARY, the TEXTs and BLOBs. */
    private static boolean isCharacter(int type, int meta) {
        switch (type) {
            case 15: // VARCHAR
            case 253: // VAR_STRING
            case 249: // TINY_BLOB
            case 250: // MEDIUM_BLOB
            case 251: // LONG_BLOB
            case 252: // BLOB
                return true;
            case 254: // STRING: CHAR/BINARY, or ENUM/SET by the real type in the metadata
                if (meta < 256) {
                    return true;
                }
                int real = meta >> 8;
                if ((real & 0x30) != 0x30) {
                    real |= 0x30; // a CHAR longer than 255 bytes keeps length bits here
                }
                return real != 247 && real != 248;
            default:
                return false;
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

    /**
     * The binlog types whose signedness the metadata states on MariaDB and which the binlog client
     * counts; MySQL adds YEAR.
     */
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
                        "The binlog's table map of %s.%s says %s, but"
                                + " the schema Sluice holds says %s: the schema is not the one the"
                                + " rows were written with",
                        map.getDatabase(), map.getTable(), binlog, held));
    }
}

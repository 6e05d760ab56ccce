package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A table map's names decoded as UTF-8 from its bytes: the database, the table and (with {@code
 * binlog_row_metadata=FULL}) the columns. The server writes names in its system charset, UTF-8
 * (utf8mb3); the client's parser decodes them with the JVM's default charset, so on a JVM whose
 * default is not UTF-8 a table named {@code café} would be looked up as {@code cafÃ©}.
 */
final class TableMapNames {

    /** The optional metadata field of the column names (MySQL's and MariaDB's COLUMN_NAME). */
    private static final int COLUMN_NAME = 4;

    private TableMapNames() {}

    /**
     * Sets {@code map}'s names from {@code body}, the table map event's body it was parsed from.
     */
    static void decode(byte[] body, TableMapEventData map) {
        int[] at = {8}; // table id (6 bytes) and flags
        map.setDatabase(name(body, at));
        map.setTable(name(body, at));
        TableMapEventMetadata metadata = map.getEventMetadata();
        if (metadata == null
                || metadata.getColumnNames() == null
                || metadata.getColumnNames().isEmpty()) {
            return;
        }
        int columns = (int) packed(body, at);
        at[0] += columns; // column types
        at[0] += (int) packed(body, at); // column metadata
        at[0] += (columns + 7) / 8; // nullability
        while (at[0] < body.length) {
            int type = body[at[0]++] & 0xff;
            int length = (int) packed(body, at);
            int end = at[0] + length;
            if (type == COLUMN_NAME) {
                List<String> names = new ArrayList<>(columns);
                while (at[0] < end) {
                    int nameLength = (int) packed(body, at);
                    names.add(new String(body, at[0], nameLength, StandardCharsets.UTF_8));
                    at[0] += nameLength;
                }
                metadata.setColumnNames(names);
                return;
            }
            at[0] = end;
        }
    }

    /** A one-byte length, the name and a terminating zero. */
    private static String name(byte[] body, int[] at) {
        int length = body[at[0]] & 0xff;
        String name = new String(body, at[0] + 1, length, StandardCharsets.UTF_8);
        at[0] += 1 + length + 1;
        return name;
    }

    /** A length-encoded integer, as the client's {@code readPackedInteger}. */
    private static long packed(byte[] body, int[] at) {
        int first = body[at[0]++] & 0xff;
        if (first < 251) {
            return first;
        }
        int bytes = first == 252 ? 2 : first == 253 ? 3 : 8;
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value |= (long) (body[at[0]++] & 0xff) << (8 * i);
        }
        return value;
    }
}

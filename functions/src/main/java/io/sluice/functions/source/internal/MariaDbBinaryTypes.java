package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MariaDB's UUID, INET4 and INET6: fixed-length binary columns (16, 4 and 16 bytes) that {@code
 * SELECT} shows as text. The binlog's table map types them as {@code MYSQL_TYPE_STRING} (254) with
 * their byte length as metadata, as for BINARY(16) and BINARY(4), and a rows event holds their
 * bytes as for BINARY(n): a length byte, then the bytes in the order of the text (a UUID's 16 bytes
 * as its hex digits, an address in network order) without their trailing zero bytes. Debezium 1.9's
 * DDL parser does not know the type names: the text it parses names them {@code BINARY(n)} ({@link
 * #rewrite}), and the real type is put back afterwards.
 *
 * <p>Sluice writes each value as the text {@code SELECT} shows ({@link #appendText}), for snapshot
 * and binlog rows alike.
 */
@Internal
public final class MariaDbBinaryTypes {

    /** The type names, as {@code information_schema.COLUMNS.DATA_TYPE} writes them. */
    public static final Set<String> TYPES = Set.of("uuid", "inet4", "inet6");

    /** A column definition of one of {@link #TYPES} in a DDL statement: name, then type. */
    private static final Pattern DEFINITION =
            Pattern.compile(
                    "(`(?:[^`]|``)+`|\\w+)\\s+(uuid|inet4|inet6)\\b(?!\\s*\\()",
                    Pattern.CASE_INSENSITIVE);

    /** Words a column's name follows in ALTER TABLE, and words a type name is never after. */
    private static final Set<String> KEYWORDS =
            Set.of("add", "column", "modify", "change", "exists", "table", "default", "as");

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private MariaDbBinaryTypes() {}

    /** Whether {@code base} is one of {@link #TYPES}. */
    public static boolean is(String base) {
        return TYPES.contains(base);
    }

    /** The stored length in bytes of a column of type {@code base}; -1 for other types. */
    public static int length(String base) {
        switch (base) {
            case "uuid":
            case "inet6":
                return 16;
            case "inet4":
                return 4;
            default:
                return -1;
        }
    }

    /**
     * {@code sql} with each column definition of one of {@link #TYPES} typed {@code BINARY(n)}
     * instead, which Debezium's DDL parser reads; the columns so declared are added to {@code
     * declared} as {@code [name, type]} (type in lower case). {@code sql} itself if it declares
     * none.
     */
    public static String rewrite(String sql, List<String[]> declared) {
        Matcher definition = DEFINITION.matcher(sql);
        StringBuilder out = null;
        int copied = 0;
        int from = 0;
        while (definition.find(from)) {
            String name = definition.group(1);
            if (KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                // ADD [COLUMN] uuid ...: the column's name, not its type.
                from = definition.start(2);
                continue;
            }
            if (name.startsWith("`")) {
                name = name.substring(1, name.length() - 1).replace("``", "`");
            }
            String type = definition.group(2).toLowerCase(Locale.ROOT);
            declared.add(new String[] {name, type});
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, copied, definition.start(2))
                    .append("BINARY(")
                    .append(length(type))
                    .append(')');
            copied = definition.end(2);
            from = definition.end(2);
        }
        if (out == null) {
            return sql;
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** Where the columns of one of {@link #TYPES} of a table are looked up. */
    @FunctionalInterface
    public interface Lookup {
        /** The columns of {@code database.table} of one of {@link #TYPES}, by name. */
        Map<String, String> columns(String database, String table);
    }

    /**
     * Whether Connect fields, as Debezium gives a table's columns, may include one of {@link
     * #TYPES}, which it reads as BINARY(16) or BINARY(4).
     */
    public static boolean mayHold(List<Field> fields) {
        for (Field field : fields) {
            Map<String, String> parameters = field.schema().parameters();
            if (parameters != null
                    && "BINARY".equalsIgnoreCase(parameters.get(DeclaredType.TYPE_PARAMETER))) {
                String length = parameters.get(DeclaredType.LENGTH_PARAMETER);
                if ("16".equals(length) || "4".equals(length)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The columns of {@code database.table} of one of {@link #TYPES}, by name, with their type;
     * empty if none (or the table is not there).
     */
    public static Map<String, String> columns(Connection connection, String database, String table)
            throws SQLException {
        Map<String, String> columns = new HashMap<>();
        try (PreparedStatement query =
                connection.prepareStatement(
                        "SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " AND DATA_TYPE IN ('uuid', 'inet4', 'inet6')")) {
            query.setString(1, database);
            query.setString(2, table);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.put(rows.getString(1), rows.getString(2).toLowerCase(Locale.ROOT));
                }
            }
        }
        return columns;
    }

    /**
     * The renderer of a column of type {@code base}, for values given as the column's stored bytes
     * ({@code byte[]} or {@code ByteBuffer}; trailing zero bytes may be missing), as the binlog
     * holds them, or as the text {@code SELECT} gives, longer than the stored bytes (a snapshot's
     * UUID and INET4; its INET6 is selected as bytes, {@link SnapshotQueryDriver}).
     */
    public static ValueRenderer renderer(String base) {
        int length = length(base);
        if (length < 0) {
            throw new IllegalArgumentException(base + " is not a MariaDB UUID or INET type");
        }
        return (value, scratch, out) -> {
            byte[] bytes = bytes(value);
            if (bytes.length > length) {
                out.appendLatin1(bytes, 0, bytes.length); // SELECT's text, ASCII
                return;
            }
            appendText(base, bytes, scratch);
            out.append(scratch);
        };
    }

    private static byte[] bytes(Object value) {
        if (value instanceof ByteBuffer) {
            ByteBuffer buffer = ((ByteBuffer) value).duplicate();
            byte[] copy = new byte[buffer.remaining()];
            buffer.get(copy);
            return copy;
        }
        return (byte[]) value;
    }

    /**
     * Appends the text {@code SELECT} shows for the stored bytes of a column of type {@code base}.
     *
     * @throws IllegalArgumentException if there are more bytes than the type stores
     */
    public static void appendText(String base, byte[] stored, StringBuilder out) {
        int length = length(base);
        if (stored.length > length) {
            throw new IllegalArgumentException(
                    base + " value of " + stored.length + " bytes, not " + length);
        }
        byte[] b = new byte[length];
        System.arraycopy(stored, 0, b, 0, stored.length); // the dropped trailing zero bytes
        switch (base) {
            case "uuid":
                appendUuid(b, out);
                break;
            case "inet4":
                appendInet4(b, 0, out);
                break;
            default:
                appendInet6(b, out);
                break;
        }
    }

    /** A UUID from its 16 bytes, which the binlog holds in the order of its text. */
    private static void appendUuid(byte[] b, StringBuilder out) {
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                out.append('-');
            }
            out.append(HEX[(b[i] >> 4) & 0xf]).append(HEX[b[i] & 0xf]);
        }
    }

    private static void appendInet4(byte[] b, int at, StringBuilder out) {
        for (int i = 0; i < 4; i++) {
            if (i > 0) {
                out.append('.');
            }
            out.append(b[at + i] & 0xff);
        }
    }

    /**
     * An IPv6 address as MariaDB writes it: lower-case groups without leading zeros, the longest
     * run of zero groups (the first of equal runs; a single group too) as {@code ::}, and an
     * IPv4-mapped ({@code ::ffff:a.b.c.d}) or IPv4-compatible ({@code ::a.b.c.d}) address with its
     * last 32 bits dotted.
     */
    private static void appendInet6(byte[] b, StringBuilder out) {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) {
            words[i] = (b[2 * i] & 0xff) << 8 | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (words[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && words[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        if (bestStart == 0 && (bestLength == 6 || (bestLength == 5 && words[5] == 0xffff))) {
            out.append("::");
            if (bestLength == 5) {
                out.append("ffff:");
            }
            appendInet4(b, 12, out);
            return;
        }
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength) {
                out.append(':');
            }
            out.append(Integer.toHexString(words[i]));
        }
    }
}

package io.sluice.functions.source.binlog;

import io.sluice.functions.source.internal.DeclaredType;
import io.sluice.serializers.event.ChangeEvent;

import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One table's chunk query for an on-demand snapshot: {@code SELECT … WHERE key > last [AND
 * condition] ORDER BY key LIMIT n}, each column selected in a form from which the value the binlog
 * carries for it is rebuilt exactly ({@link RawRowsDeserializer}'s raw values), so that the row is
 * rendered by the binlog decoder's own renderers ({@link RowsEventDecoder#snapshotRow}) and reads
 * as the binlog's images of it do: temporal values as the server's text (zero dates included),
 * ENUM, SET, BIT and YEAR as their stored numbers, FLOAT widened to DOUBLE on the server (exact),
 * text as its stored bytes, TIMESTAMP as seconds since the epoch.
 *
 * <p>Before and after the query the server's binlog end is read ({@code SHOW MASTER STATUS}): the
 * chunk's low and high watermarks.
 */
final class SnapshotChunkQuery {

    /** A chunk read: its rows (in key order), the last row's key as bound, and the watermarks. */
    static final class Chunk {
        final List<ChangeEvent> rows;
        final List<String> lastKey;
        final BinlogPosition low;
        final BinlogPosition high;
        final boolean last;

        Chunk(
                List<ChangeEvent> rows,
                List<String> lastKey,
                BinlogPosition low,
                BinlogPosition high,
                boolean last) {
            this.rows = rows;
            this.lastKey = lastKey;
            this.low = low;
            this.high = high;
            this.last = last;
        }
    }

    private final SnapshotRequest request;
    private final List<BinlogColumn> columns;
    private final int[] keys;
    private final ZoneId timestampZone;
    private final int chunkSize;
    private final String sql;

    /**
     * @throws IllegalArgumentException if the table has no primary key or a column of a type the
     *     snapshot cannot read exactly (the message names it)
     */
    SnapshotChunkQuery(
            SnapshotRequest request,
            List<BinlogColumn> columns,
            ZoneId timestampZone,
            int chunkSize,
            boolean afterKey) {
        this.request = request;
        this.columns = columns;
        this.timestampZone = timestampZone;
        this.chunkSize = chunkSize;
        List<Integer> keyIndexes = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).isKey()) {
                keyIndexes.add(i);
            }
        }
        if (keyIndexes.isEmpty()) {
            throw new IllegalArgumentException(
                    "Table "
                            + request.name()
                            + " has no primary key: an on-demand snapshot reads in chunks of"
                            + " the primary key");
        }
        this.keys = keyIndexes.stream().mapToInt(Integer::intValue).toArray();
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            select.append(i == 0 ? "" : ", ").append(expression(columns.get(i)));
        }
        for (int key : keys) {
            select.append(", ").append(quote(columns.get(key).name()));
        }
        select.append(" FROM ")
                .append(quote(request.database()))
                .append('.')
                .append(quote(request.table()));
        List<String> where = new ArrayList<>();
        if (afterKey) {
            where.add(afterKeyPredicate());
        }
        if (request.condition() != null) {
            where.add("(" + request.condition() + ")");
        }
        if (!where.isEmpty()) {
            select.append(" WHERE ").append(String.join(" AND ", where));
        }
        select.append(" ORDER BY ");
        for (int k = 0; k < keys.length; k++) {
            select.append(k == 0 ? "" : ", ").append(quote(columns.get(keys[k]).name()));
        }
        select.append(" LIMIT ").append(chunkSize);
        this.sql = select.toString();
    }

    String sql() {
        return sql;
    }

    /** Reads the chunk after {@code lastKey} (empty: from the first row). */
    Chunk read(Connection connection, List<String> lastKey) throws SQLException {
        BinlogPosition low = binlogEnd(connection);
        List<ChangeEvent> rows = new ArrayList<>();
        List<String> last = lastKey;
        RowsEventDecoder decoder =
                RowsEventDecoder.of(request.database(), request.table(), columns, timestampZone);
        long readTime = System.currentTimeMillis();
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            int p = 1;
            if (!lastKey.isEmpty()) {
                for (int k = 0; k < keys.length; k++) {
                    for (int j = 0; j <= k; j++) {
                        bind(query, p++, lastKey.get(j));
                    }
                }
            }
            try (ResultSet result = query.executeQuery()) {
                Serializable[] values = new Serializable[columns.size()];
                while (result.next()) {
                    for (int i = 0; i < values.length; i++) {
                        values[i] = raw(columns.get(i), result, i + 1);
                    }
                    rows.add(decoder.snapshotRow(values, readTime));
                    List<String> key = new ArrayList<>(keys.length);
                    for (int k = 0; k < keys.length; k++) {
                        key.add(boundValue(columns.get(keys[k]), result, values.length + k + 1));
                    }
                    last = key;
                }
            }
        }
        BinlogPosition high = binlogEnd(connection);
        return new Chunk(rows, last, low, high, rows.size() < chunkSize);
    }

    /** The binlog's end now: the file and the position after its last event. */
    static BinlogPosition binlogEnd(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            ResultSet result;
            try {
                result = statement.executeQuery("SHOW MASTER STATUS");
            } catch (SQLException e) {
                result = statement.executeQuery("SHOW BINARY LOG STATUS"); // MySQL 8.4 on
            }
            try (ResultSet status = result) {
                if (!status.next()) {
                    throw new SQLException(
                            "SHOW MASTER STATUS returned no row: the server writes no binlog");
                }
                return BinlogPosition.at(status.getString(1), status.getLong(2));
            }
        }
    }

    /** {@code (k1 > ?) OR (k1 = ? AND k2 > ?) OR …}: the rows after the last key, in key order. */
    private String afterKeyPredicate() {
        StringBuilder where = new StringBuilder("(");
        for (int k = 0; k < keys.length; k++) {
            where.append(k == 0 ? "(" : " OR (");
            for (int j = 0; j < k; j++) {
                where.append(quote(columns.get(keys[j]).name())).append(" = ? AND ");
            }
            where.append(quote(columns.get(keys[k]).name())).append(" > ?)");
        }
        return where.append(")").toString();
    }

    /** What the query selects for a column, so that {@link #raw} rebuilds the binlog's value. */
    private static String expression(BinlogColumn column) {
        String name = quote(column.name());
        DeclaredType type = column.type();
        switch (type.base()) {
            case "bit":
            case "enum":
            case "set":
            case "year":
                return name + "+0";
            case "float":
                return "CAST(" + name + " AS DOUBLE)";
            case "date":
            case "time":
            case "datetime":
                return "CAST(" + name + " AS CHAR)";
            case "timestamp":
                return "UNIX_TIMESTAMP(" + name + ")";
            case "char":
            case "varchar":
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
                return "CAST(" + name + " AS BINARY)";
            case "json":
                throw new IllegalArgumentException(
                        "Column '"
                                + column.name()
                                + "' is MySQL's JSON, which an on-demand snapshot cannot read as"
                                + " the binlog writes it yet");
            case "uuid":
            case "inet4":
            case "inet6":
                throw new IllegalArgumentException(
                        "Column '"
                                + column.name()
                                + "' has MariaDB's type "
                                + type.base()
                                + ", which an on-demand snapshot cannot read as the binlog"
                                + " writes it yet");
            default:
                return name;
        }
    }

    /** The value rows events carry for the column ({@link RawRowsDeserializer}), null for NULL. */
    private static Serializable raw(BinlogColumn column, ResultSet result, int index)
            throws SQLException {
        DeclaredType type = column.type();
        switch (type.base()) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "enum":
                {
                    long value = result.getLong(index);
                    return result.wasNull() ? null : value;
                }
            case "bigint":
            case "bit":
            case "set":
                {
                    String text = result.getString(index);
                    if (text == null) {
                        return null;
                    }
                    // BIGINT UNSIGNED, BIT and SET are unsigned 64-bit values in a long.
                    return type.base().equals("bigint") && !type.isUnsigned()
                            ? Long.parseLong(text.trim())
                            : Long.parseUnsignedLong(text.trim());
                }
            case "year":
                {
                    int year = result.getInt(index);
                    // The binlog carries 1900 + the stored byte: YEAR 0000 is 1900 there.
                    return result.wasNull() ? null : (year == 0 ? 1900 : year);
                }
            case "decimal":
                return result.getBigDecimal(index);
            case "float":
                {
                    double value = result.getDouble(index);
                    return result.wasNull() ? null : (float) value;
                }
            case "double":
                {
                    String text = result.getString(index);
                    return text == null ? null : Double.parseDouble(text);
                }
            case "date":
                {
                    String text = result.getString(index);
                    return text == null ? null : packedDate(text);
                }
            case "time":
                {
                    String text = result.getString(index);
                    return text == null ? null : timeMicros(text);
                }
            case "datetime":
                {
                    String text = result.getString(index);
                    return text == null ? null : packedDateTime(text);
                }
            case "timestamp":
                {
                    BigDecimal seconds = result.getBigDecimal(index);
                    return seconds == null
                            ? null
                            : seconds.movePointRight(6).setScale(0).longValueExact();
                }
            default:
                return result.getBytes(index);
        }
    }

    /** A key column's value as the next chunk's query binds it: text, or hex of bytes. */
    private static String boundValue(BinlogColumn column, ResultSet result, int index)
            throws SQLException {
        if (isBinary(column.type())) {
            byte[] bytes = result.getBytes(index);
            return bytes == null ? null : "x" + HexFormat.of().formatHex(bytes);
        }
        String text = result.getString(index);
        return text == null ? null : "s" + text;
    }

    private static void bind(PreparedStatement query, int index, String value) throws SQLException {
        if (value.startsWith("x")) {
            query.setBytes(index, HexFormat.of().parseHex(value.substring(1)));
        } else {
            query.setString(index, value.substring(1));
        }
    }

    private static boolean isBinary(DeclaredType type) {
        switch (type.base()) {
            case "binary":
            case "varbinary":
            case "tinyblob":
            case "blob":
            case "mediumblob":
            case "longblob":
                return true;
            default:
                return false;
        }
    }

    /** {@code [-]YYYY-MM-DD} as the binlog's {@code year << 9 | month << 5 | day}. */
    static long packedDate(String text) {
        String[] parts = text.trim().split("-");
        long year = Long.parseLong(parts[0]);
        long month = Long.parseLong(parts[1]);
        long day = Long.parseLong(parts[2]);
        return year << 9 | month << 5 | day;
    }

    /** {@code [-]HHH:MM:SS[.ffffff]} as signed microseconds. */
    static long timeMicros(String text) {
        String t = text.trim();
        boolean negative = t.startsWith("-");
        if (negative) {
            t = t.substring(1);
        }
        String[] parts = t.split(":");
        long hours = Long.parseLong(parts[0]);
        long minutes = Long.parseLong(parts[1]);
        String seconds = parts[2];
        long micros = fractionMicros(seconds);
        int dot = seconds.indexOf('.');
        long wholeSeconds = Long.parseLong(dot < 0 ? seconds : seconds.substring(0, dot));
        long value = ((hours * 60 + minutes) * 60 + wholeSeconds) * 1_000_000L + micros;
        return negative ? -value : value;
    }

    /** {@code YYYY-MM-DD HH:MM:SS[.ffffff]} as the binlog's packed DATETIME. */
    static long packedDateTime(String text) {
        String t = text.trim();
        int space = t.indexOf(' ');
        String[] date = t.substring(0, space).split("-");
        String[] time = t.substring(space + 1).split(":");
        long year = Long.parseLong(date[0]);
        long month = Long.parseLong(date[1]);
        long day = Long.parseLong(date[2]);
        long hour = Long.parseLong(time[0]);
        long minute = Long.parseLong(time[1]);
        String seconds = time[2];
        int dot = seconds.indexOf('.');
        long second = Long.parseLong(dot < 0 ? seconds : seconds.substring(0, dot));
        long ymd = (year * 13 + month) << 5 | day;
        long hms = hour << 12 | minute << 6 | second;
        return ((ymd << 17 | hms) << 24) | fractionMicros(seconds);
    }

    private static long fractionMicros(String seconds) {
        int dot = seconds.indexOf('.');
        if (dot < 0) {
            return 0;
        }
        String fraction = (seconds.substring(dot + 1) + "000000").substring(0, 6);
        return Long.parseLong(fraction);
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}

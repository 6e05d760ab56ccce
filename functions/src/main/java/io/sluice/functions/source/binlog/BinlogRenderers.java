package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.sluice.functions.source.internal.DeclaredType;
import io.sluice.functions.source.internal.MariaDbBinaryTypes;
import io.sluice.functions.source.internal.TemporalText;
import io.sluice.functions.source.internal.ValueRenderer;
import io.sluice.functions.source.internal.ValueRenderers;
import io.sluice.serializers.event.RowImage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Chooses each column's {@link ValueRenderer} for the values {@link RawRowsDeserializer} gives,
 * reusing the Debezium path's renderers where the Java value is the same, so that both readers
 * write one text; and says which binlog column types a declared type may arrive as.
 */
final class BinlogRenderers {

    private BinlogRenderers() {}

    static ValueRenderer forColumn(BinlogColumn column, ZoneId timestampZone) {
        DeclaredType type = column.type();
        boolean unsigned = type.isUnsigned();
        switch (type.base()) {
            case "tinyint":
                return unsigned ? new Unsigned(0xffL) : ValueRenderers.signedInteger();
            case "smallint":
                return unsigned ? new Unsigned(0xffffL) : ValueRenderers.signedInteger();
            case "mediumint":
                return unsigned ? new Unsigned(0xffffffL) : ValueRenderers.signedInteger();
            case "int":
                return unsigned ? new Unsigned(0xffffffffL) : ValueRenderers.signedInteger();
            case "bigint":
            case "bit":
            case "set":
                return unsigned || !type.base().equals("bigint")
                        ? ValueRenderers.unsignedLong()
                        : ValueRenderers.signedInteger();
            case "enum":
                return ValueRenderers.signedInteger();
            case "decimal":
                return ValueRenderers.decimal(Math.max(type.scale(), 0));
            case "float":
                return ValueRenderers.floatingPoint();
            case "double":
                return ValueRenderers.doublePrecision();
            case "year":
                return ValueRenderers.year();
            case "date":
                return BinlogRenderers::date;
            case "time":
                int timeFsp = type.fsp();
                return (value, scratch, out) -> {
                    TemporalText.appendTime(scratch, (Long) value, timeFsp);
                    out.append(scratch);
                };
            case "datetime":
                int fsp = type.fsp();
                return (value, scratch, out) -> dateTime((Long) value, fsp, scratch, out);
            case "timestamp":
                return ValueRenderers.timestamp(timestampZone, type.fsp());
            case "char":
            case "varchar":
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
                return text(column);
            case "json":
                return BinlogRenderers::json;
            case "binary":
                int width = Math.max(type.length(), 1);
                return (value, scratch, out) -> {
                    byte[] bytes = (byte[]) value;
                    // The binlog drops BINARY's trailing zero bytes; the column (and SELECT, and
                    // the snapshot) holds them.
                    byte[] padded = bytes.length < width ? Arrays.copyOf(bytes, width) : bytes;
                    out.appendLatin1(padded, 0, padded.length);
                };
            case "varbinary":
            case "tinyblob":
            case "blob":
            case "mediumblob":
            case "longblob":
                return ValueRenderers.latin1Bytes();
            case "uuid":
            case "inet4":
            case "inet6":
                // MariaDB's: the stored bytes, written as the text SELECT shows.
                return MariaDbBinaryTypes.renderer(type.base());
            default:
                if (type.isSpatial()) {
                    // The column's bytes as stored: the SRID, then WKB (what Canal writes).
                    return ValueRenderers.latin1Bytes();
                }
                throw new IllegalArgumentException(
                        "Column '" + column.name() + "' has type " + type + ", not supported");
        }
    }

    /** The binlog column types a value of {@code type} may arrive as (in the table map). */
    static Set<ColumnType> binlogTypes(DeclaredType type) {
        switch (type.base()) {
            case "tinyint":
                return EnumSet.of(ColumnType.TINY);
            case "smallint":
                return EnumSet.of(ColumnType.SHORT);
            case "mediumint":
                return EnumSet.of(ColumnType.INT24);
            case "int":
                return EnumSet.of(ColumnType.LONG);
            case "bigint":
                return EnumSet.of(ColumnType.LONGLONG);
            case "decimal":
                return EnumSet.of(ColumnType.NEWDECIMAL);
            case "float":
                return EnumSet.of(ColumnType.FLOAT);
            case "double":
                return EnumSet.of(ColumnType.DOUBLE);
            case "bit":
                return EnumSet.of(ColumnType.BIT);
            case "year":
                return EnumSet.of(ColumnType.YEAR);
            case "date":
                return EnumSet.of(ColumnType.DATE, ColumnType.NEWDATE);
            case "time":
                return EnumSet.of(ColumnType.TIME, ColumnType.TIME_V2);
            case "datetime":
                return EnumSet.of(ColumnType.DATETIME, ColumnType.DATETIME_V2);
            case "timestamp":
                return EnumSet.of(ColumnType.TIMESTAMP, ColumnType.TIMESTAMP_V2);
            case "char":
            case "binary":
            case "enum":
            case "set":
            case "uuid":
            case "inet4":
            case "inet6":
                return EnumSet.of(ColumnType.STRING);
            case "varchar":
            case "varbinary":
                return EnumSet.of(ColumnType.VARCHAR, ColumnType.VAR_STRING);
            case "json":
                return EnumSet.of(ColumnType.JSON);
            default:
                // TEXT and BLOB of every size are BLOB in the table map.
                return type.isSpatial()
                        ? EnumSet.of(ColumnType.GEOMETRY)
                        : EnumSet.of(ColumnType.BLOB);
        }
    }

    private static ValueRenderer text(BinlogColumn column) {
        Charset charset = column.charset();
        if (charset == null || charset.equals(StandardCharsets.UTF_8)) {
            // utf8mb4 and utf8mb3 bytes are UTF-8 already: copied, not decoded.
            return (value, scratch, out) -> {
                byte[] bytes = (byte[]) value;
                out.appendUtf8(bytes, 0, bytes.length);
            };
        }
        return (value, scratch, out) -> out.append(new String((byte[]) value, charset));
    }

    /** DATE from its stored {@code year << 9 | month << 5 | day}; zero parts stay zero. */
    private static void date(Object value, StringBuilder scratch, RowImage.Builder out) {
        long v = (Long) value;
        appendDate(scratch, v >> 9, (int) (v >> 5 & 0xf), (int) (v & 0x1f));
        out.append(scratch);
    }

    /** DATETIME from MySQL's packed form; zero dates and parts stay as stored. */
    private static void dateTime(
            long packed, int fsp, StringBuilder scratch, RowImage.Builder out) {
        long intPart = packed >> 24;
        long ymd = intPart >> 17;
        long ym = ymd >> 5;
        long hms = intPart & 0x1ffff;
        appendDate(scratch, ym / 13, (int) (ym % 13), (int) (ymd & 0x1f));
        scratch.append(' ');
        pad2(scratch, (int) (hms >> 12));
        scratch.append(':');
        pad2(scratch, (int) (hms >> 6 & 0x3f));
        scratch.append(':');
        pad2(scratch, (int) (hms & 0x3f));
        TemporalText.appendFraction(scratch, (int) (packed & 0xffffff), fsp);
        out.append(scratch);
    }

    private static void appendDate(StringBuilder out, long year, int month, int day) {
        if (year < 1000) {
            out.append(year < 10 ? "000" : year < 100 ? "00" : "0");
        }
        out.append(year).append('-');
        pad2(out, month);
        out.append('-');
        pad2(out, day);
    }

    private static void pad2(StringBuilder out, int value) {
        if (value < 10) {
            out.append('0');
        }
        out.append(value);
    }

    /**
     * MySQL's binary JSON as text, Canal's where Canal's is JSON and keeps the value ({@link
     * CanalJsonText}). An empty value (what a non-strict insert stores in a NOT NULL JSON column,
     * MySQL bug 98496) is the empty string, as Canal writes it: the client's parser reads its
     * missing type byte.
     */
    private static void json(Object value, StringBuilder scratch, RowImage.Builder out) {
        byte[] bytes = (byte[]) value;
        if (bytes.length == 0) {
            out.append("");
            return;
        }
        try {
            out.append(CanalJsonText.of(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An unsigned integer the client gives as a signed Integer of its width. */
    private static final class Unsigned implements ValueRenderer {
        private final long mask;

        Unsigned(long mask) {
            this.mask = mask;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append(((Number) value).longValue() & mask);
        }
    }
}

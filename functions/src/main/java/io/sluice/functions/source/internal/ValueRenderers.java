package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Decimal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;

import io.sluice.serializers.event.RowImage;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses each column's {@link ValueRenderer} from its declared type, checking that the Connect
 * schema Debezium built for it is the one the source configuration promises (see {@code
 * ChangeEventDeserializationSchema.debeziumProperties()}); and holds the renderers.
 */
@Internal
public final class ValueRenderers {

    // Debezium's logical schema names (io.debezium.time.*, io.debezium.data.*).
    static final String DATE = "io.debezium.time.Date";
    static final String TIME_MILLIS = "io.debezium.time.Time";
    static final String TIME_MICROS = "io.debezium.time.MicroTime";
    static final String TIME_NANOS = "io.debezium.time.NanoTime";
    static final String DATETIME_MILLIS = "io.debezium.time.Timestamp";
    static final String DATETIME_MICROS = "io.debezium.time.MicroTimestamp";
    static final String DATETIME_NANOS = "io.debezium.time.NanoTimestamp";
    static final String YEAR = "io.debezium.time.Year";
    static final String BITS = "io.debezium.data.Bits";
    static final String ENUM = "io.debezium.data.Enum";
    static final String ENUM_SET = "io.debezium.data.EnumSet";
    static final String GEOMETRY = "io.debezium.data.geometry.Geometry";
    static final String POINT = "io.debezium.data.geometry.Point";

    private ValueRenderers() {}

    /**
     * The renderer for a column of type {@code type} whose values follow {@code schema}.
     *
     * @param timestampZone the zone TIMESTAMP values are written in
     * @throws IllegalArgumentException if the type is not supported, or the schema is not what the
     *     Sluice source configuration produces for it (the message says why)
     */
    public static ValueRenderer forColumn(DeclaredType type, Schema schema, ZoneId timestampZone) {
        String name = schema.name() == null ? "" : schema.name();
        Schema.Type connect = schema.type();
        switch (type.base()) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "bigint":
                if (Decimal.LOGICAL_NAME.equals(name)) {
                    return new DecimalRenderer(0); // BIGINT UNSIGNED, precise mode
                }
                if (connect == Schema.Type.INT64
                        && type.isUnsigned()
                        && type.base().equals("bigint")) {
                    return new UnsignedLongRenderer();
                }
                if (connect == Schema.Type.BOOLEAN && type.base().equals("tinyint")) {
                    return new BitRenderer(); // TINYINT(1) as a boolean (a Debezium converter)
                }
                return require(type, schema, isInteger(connect), "an integer", new LongRenderer());
            case "decimal":
                return require(
                        type,
                        schema,
                        Decimal.LOGICAL_NAME.equals(name),
                        "Connect Decimal (decimal.handling.mode=precise)",
                        new DecimalRenderer(type.scale()));
            case "float":
                return require(
                        type,
                        schema,
                        connect == Schema.Type.FLOAT32 || connect == Schema.Type.FLOAT64,
                        "a floating-point number",
                        new FloatRenderer());
            case "double":
                return require(
                        type,
                        schema,
                        connect == Schema.Type.FLOAT64 || connect == Schema.Type.FLOAT32,
                        "a floating-point number",
                        new DoubleRenderer());
            case "bit":
                if (connect == Schema.Type.BOOLEAN) {
                    return new BitRenderer();
                }
                return require(
                        type,
                        schema,
                        BITS.equals(name),
                        "io.debezium.data.Bits",
                        new BitsRenderer());
            case "year":
                return require(
                        type, schema, isInteger(connect), "a year number", new YearRenderer());
            case "date":
                return require(
                        type,
                        schema,
                        DATE.equals(name),
                        "io.debezium.time.Date (time.precision.mode adaptive*)",
                        new DateRenderer());
            case "time":
                return timeRenderer(type, schema, name);
            case "datetime":
                return dateTimeRenderer(type, schema, name);
            case "timestamp":
                return require(
                        type,
                        schema,
                        TimestampMicrosConverter.SCHEMA_NAME.equals(name)
                                && connect == Schema.Type.INT64,
                        TimestampMicrosConverter.SCHEMA_NAME + " (Sluice's TIMESTAMP converter)",
                        new TimestampRenderer(timestampZone, type.fsp()));
            case "char":
            case "varchar":
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
            case "json":
                return require(
                        type,
                        schema,
                        connect == Schema.Type.STRING,
                        "a string",
                        new TextRenderer());
            case "binary":
            case "varbinary":
            case "tinyblob":
            case "blob":
            case "mediumblob":
            case "longblob":
                return require(
                        type,
                        schema,
                        connect == Schema.Type.BYTES,
                        "bytes (binary.handling.mode=bytes)",
                        new BytesRenderer());
            case "uuid":
            case "inet4":
            case "inet6":
                // MariaDB's, read as BINARY(n): the stored bytes, written as SELECT shows them.
                return require(
                        type,
                        schema,
                        connect == Schema.Type.BYTES,
                        "bytes (the column read as BINARY(n))",
                        MariaDbBinaryTypes.renderer(type.base()));
            case "enum":
                return require(
                        type,
                        schema,
                        ENUM.equals(name) && !type.labels().isEmpty(),
                        "io.debezium.data.Enum with its 'allowed' labels",
                        new EnumRenderer(type.labels()));
            case "set":
                return require(
                        type,
                        schema,
                        ENUM_SET.equals(name) && !type.labels().isEmpty(),
                        "io.debezium.data.EnumSet with its 'allowed' labels",
                        new SetRenderer(type.labels()));
            default:
                if (type.isSpatial()) {
                    return require(
                            type,
                            schema,
                            connect == Schema.Type.STRUCT
                                    && (GEOMETRY.equals(name) || POINT.equals(name)),
                            GEOMETRY + " (its wkb and srid)",
                            new GeometryRenderer());
                }
                throw new IllegalArgumentException(
                        "type "
                                + type
                                + " is not supported (Connect schema "
                                + describe(schema)
                                + ")");
        }
    }

    /** Whether {@link #forColumn} has a renderer for {@code type} (given the schema it expects). */
    public static boolean renders(DeclaredType type) {
        switch (type.base()) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "bigint":
            case "decimal":
            case "float":
            case "double":
            case "bit":
            case "year":
            case "date":
            case "time":
            case "datetime":
            case "timestamp":
            case "char":
            case "varchar":
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
            case "json":
            case "binary":
            case "varbinary":
            case "tinyblob":
            case "blob":
            case "mediumblob":
            case "longblob":
            case "enum":
            case "set":
                return true;
            default:
                return type.isSpatial() || MariaDbBinaryTypes.is(type.base());
        }
    }

    // The renderers below, for readers that deliver the same Java values without a Connect schema
    // (Sluice's binlog reader).

    /** Signed integers of any width, from a {@link Number}. */
    public static ValueRenderer signedInteger() {
        return new LongRenderer();
    }

    /** A 64-bit unsigned value held in a {@code long}. */
    public static ValueRenderer unsignedLong() {
        return new UnsignedLongRenderer();
    }

    /** A {@link BigDecimal} at (at least) {@code scale}, plain notation. */
    public static ValueRenderer decimal(int scale) {
        return new DecimalRenderer(scale);
    }

    /** FLOAT from a {@link Number}: {@code Float.toString}. */
    public static ValueRenderer floatingPoint() {
        return new FloatRenderer();
    }

    /** DOUBLE from a {@link Number}: {@code Double.toString}. */
    public static ValueRenderer doublePrecision() {
        return new DoubleRenderer();
    }

    /** YEAR from 1900 + the stored byte (1900 is the zero year). */
    public static ValueRenderer year() {
        return new YearRenderer();
    }

    /** TIMESTAMP from microseconds since the epoch, in {@code zone}. */
    public static ValueRenderer timestamp(ZoneId zone, int fsp) {
        return new TimestampRenderer(zone, fsp);
    }

    /** Raw bytes, one ISO-8859-1 char per byte. */
    public static ValueRenderer latin1Bytes() {
        return new BytesRenderer();
    }

    private static ValueRenderer timeRenderer(DeclaredType type, Schema schema, String name) {
        int fsp = type.fsp();
        switch (name) {
            case TIME_MICROS:
                return new TimeRenderer(1, fsp);
            case TIME_MILLIS:
                return new TimeRenderer(1_000, fsp);
            case TIME_NANOS:
                return new TimeRenderer(-1_000, fsp);
            default:
                throw mismatch(
                        type,
                        schema,
                        "io.debezium.time.MicroTime (time.precision.mode=adaptive_time_microseconds)");
        }
    }

    private static ValueRenderer dateTimeRenderer(DeclaredType type, Schema schema, String name) {
        int fsp = type.fsp();
        switch (name) {
            case DATETIME_MILLIS:
                return new DateTimeRenderer(1_000, fsp);
            case DATETIME_MICROS:
                return new DateTimeRenderer(1, fsp);
            case DATETIME_NANOS:
                return new DateTimeRenderer(-1_000, fsp);
            default:
                throw mismatch(
                        type,
                        schema,
                        "io.debezium.time.[Micro]Timestamp (time.precision.mode adaptive*)");
        }
    }

    private static boolean isInteger(Schema.Type type) {
        return type == Schema.Type.INT8
                || type == Schema.Type.INT16
                || type == Schema.Type.INT32
                || type == Schema.Type.INT64;
    }

    private static ValueRenderer require(
            DeclaredType type, Schema schema, boolean ok, String expected, ValueRenderer renderer) {
        if (!ok) {
            throw mismatch(type, schema, expected);
        }
        return renderer;
    }

    private static IllegalArgumentException mismatch(
            DeclaredType type, Schema schema, String expected) {
        return new IllegalArgumentException(
                "type "
                        + type
                        + " arrives as Connect schema "
                        + describe(schema)
                        + " but Sluice expects "
                        + expected
                        + "; build the source with MySqlSourceFactory.changeEventSource");
    }

    private static String describe(Schema schema) {
        return schema.type() + (schema.name() == null ? "" : " " + schema.name());
    }

    /** Signed integers of every width, straight from the number. */
    static final class LongRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append(((Number) value).longValue());
        }
    }

    /** BIGINT UNSIGNED delivered as a Java long (bigint.unsigned.handling.mode=long). */
    static final class UnsignedLongRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            long v = (Long) value;
            if (v >= 0) {
                out.append(v);
            } else {
                out.append(Long.toUnsignedString(v));
            }
        }
    }

    /**
     * DECIMAL with its declared scale ({@code 10.00} stays {@code 10.00}), and BIGINT UNSIGNED;
     * plain notation, never an exponent.
     */
    static final class DecimalRenderer implements ValueRenderer {
        private final int scale;

        DecimalRenderer(int scale) {
            this.scale = scale;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            BigDecimal decimal = (BigDecimal) value;
            if (decimal.scale() < scale) {
                decimal = decimal.setScale(scale); // exact: only adds zeros
            }
            if (!appendCompact(scratch, decimal)) {
                scratch.append(decimal.toPlainString());
            }
            out.append(scratch);
        }

        /** Writes decimals of up to 18 digits without a String; false if it cannot. */
        static boolean appendCompact(StringBuilder out, BigDecimal decimal) {
            int s = decimal.scale();
            if (decimal.precision() > 18 || s < 0 || s > 18) {
                return false;
            }
            long unscaled = decimal.unscaledValue().longValue();
            if (s == 0) {
                out.append(unscaled);
                return true;
            }
            if (unscaled < 0) {
                out.append('-');
                unscaled = -unscaled;
            }
            long pow = 1;
            for (int i = 0; i < s; i++) {
                pow *= 10;
            }
            out.append(unscaled / pow).append('.');
            TemporalText.appendPadded(out, unscaled % pow, s);
            return true;
        }
    }

    /** FLOAT: {@code Float.toString} of the 32-bit value, as Canal writes it. */
    static final class FloatRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append(scratch.append(((Number) value).floatValue()));
        }
    }

    /** DOUBLE: {@code Double.toString}. */
    static final class DoubleRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append(scratch.append(((Number) value).doubleValue()));
        }
    }

    /** BIT(1), which Debezium delivers as a boolean: {@code 1} or {@code 0}. */
    static final class BitRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append((Boolean) value ? 1L : 0L);
        }
    }

    /**
     * BIT(n > 1) as the decimal number of its bits. Debezium's {@code Bits} bytes are little-endian
     * (it reverses MySQL's big-endian order), so byte 0 is the lowest.
     */
    static final class BitsRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            byte[] bytes = (byte[]) value;
            long bits = littleEndianBits(bytes);
            if (bits >= 0) {
                out.append(bits);
            } else {
                out.append(Long.toUnsignedString(bits));
            }
        }

        static long littleEndianBits(byte[] bytes) {
            long bits = 0;
            for (int i = Math.min(bytes.length, 8) - 1; i >= 0; i--) {
                bits = bits << 8 | (bytes[i] & 0xff);
            }
            for (int i = 8; i < bytes.length; i++) {
                if (bytes[i] != 0) {
                    throw new IllegalArgumentException(
                            "a BIT value of " + bytes.length + " bytes exceeds 64 bits");
                }
            }
            return bits;
        }
    }

    /**
     * YEAR as four digits. The binlog's YEAR 0000 reaches Debezium as 1900 + 0, which no YEAR
     * column can hold (1901..2155), so 1900 is written as Canal's {@code 0000}.
     */
    static final class YearRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            int year = ((Number) value).intValue();
            TemporalText.appendPadded(scratch, year == 1900 ? 0 : year, 4);
            out.append(scratch);
        }
    }

    /** DATE from days since the epoch. */
    static final class DateRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            TemporalText.appendDate(scratch, ((Number) value).longValue());
            out.append(scratch);
        }
    }

    /**
     * TIME from a signed count of {@code unit} microseconds (a negative unit means nanoseconds:
     * divide by it).
     */
    static final class TimeRenderer implements ValueRenderer {
        private final int unit;
        private final int fsp;

        TimeRenderer(int unit, int fsp) {
            this.unit = unit;
            this.fsp = fsp;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            TemporalText.appendTime(scratch, toMicros(((Number) value).longValue(), unit), fsp);
            out.append(scratch);
        }
    }

    /** DATETIME from a wall-clock count since 1970-01-01 00:00 (no zone is involved). */
    static final class DateTimeRenderer implements ValueRenderer {
        private final int unit;
        private final int fsp;

        DateTimeRenderer(int unit, int fsp) {
            this.unit = unit;
            this.fsp = fsp;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            TemporalText.appendDateTime(scratch, toMicros(((Number) value).longValue(), unit), fsp);
            out.append(scratch);
        }
    }

    private static long toMicros(long value, int unit) {
        return unit > 0 ? value * unit : Math.floorDiv(value, -unit);
    }

    /**
     * TIMESTAMP: Debezium's ISO-8601 UTC instant, written as a DATETIME in the configured zone
     * (Canal uses its JVM's zone; Sluice makes it explicit).
     */
    static final class TimestampRenderer implements ValueRenderer {
        private final ZoneRules rules;
        private final boolean fixed;
        private final int fsp;
        // The offset and the seconds [from, until) it holds for: timestamps mostly move forward,
        // so one zone-rules lookup serves until the next transition.
        private int offset;
        private long from = Long.MAX_VALUE;
        private long until = Long.MIN_VALUE;

        TimestampRenderer(ZoneId zone, int fsp) {
            this.rules = zone.getRules();
            this.fixed = rules.isFixedOffset();
            this.offset = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
            this.fsp = fsp;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            long micros = (Long) value;
            TemporalText.appendTimestamp(
                    scratch,
                    micros,
                    offsetAt(Math.floorDiv(micros, TemporalText.MICROS_PER_SECOND)),
                    fsp);
            out.append(scratch);
        }

        private int offsetAt(long second) {
            if (fixed || (second >= from && second < until)) {
                return offset;
            }
            Instant instant = Instant.ofEpochSecond(second);
            offset = rules.getOffset(instant).getTotalSeconds();
            ZoneOffsetTransition next = rules.nextTransition(instant);
            from = second;
            until = next == null ? Long.MAX_VALUE : next.toEpochSecond();
            return offset;
        }
    }

    /** CHAR, VARCHAR, TEXT and JSON: Debezium already decoded the bytes with the column charset. */
    static final class TextRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append((String) value);
        }
    }

    /** BINARY, VARBINARY and BLOB: one ISO-8859-1 char per byte, as Canal writes them. */
    static final class BytesRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            if (value instanceof ByteBuffer) {
                ByteBuffer buffer = (ByteBuffer) value;
                if (buffer.hasArray()) {
                    out.appendLatin1(
                            buffer.array(),
                            buffer.arrayOffset() + buffer.position(),
                            buffer.remaining());
                } else {
                    byte[] copy = new byte[buffer.remaining()];
                    buffer.duplicate().get(copy);
                    out.appendLatin1(copy, 0, copy.length);
                }
            } else {
                byte[] bytes = (byte[]) value;
                out.appendLatin1(bytes, 0, bytes.length);
            }
        }
    }

    /**
     * A spatial value: Debezium splits the column's bytes (MySQL's internal form, the SRID as 4
     * bytes little-endian, then WKB) into {@code srid} (null for 0) and {@code wkb}; joined again,
     * they are the bytes the binlog holds and Canal writes, one ISO-8859-1 char per byte.
     */
    static final class GeometryRenderer implements ValueRenderer {
        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            Struct struct = (Struct) value;
            byte[] wkb = bytes(struct.get("wkb"));
            Object srid = struct.get("srid");
            byte[] column = new byte[4 + wkb.length];
            int s = srid == null ? 0 : ((Number) srid).intValue();
            column[0] = (byte) s;
            column[1] = (byte) (s >>> 8);
            column[2] = (byte) (s >>> 16);
            column[3] = (byte) (s >>> 24);
            System.arraycopy(wkb, 0, column, 4, wkb.length);
            out.appendLatin1(column, 0, column.length);
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
    }

    /**
     * ENUM: Debezium delivers the label; Canal writes its 1-based index, and 0 for the empty
     * "invalid value" label.
     */
    static final class EnumRenderer implements ValueRenderer {
        private final Map<String, Integer> indexes = new HashMap<>();

        EnumRenderer(List<String> labels) {
            for (int i = 0; i < labels.size(); i++) {
                indexes.putIfAbsent(labels.get(i), i + 1);
            }
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            String label = (String) value;
            Integer index = indexes.get(label);
            if (index == null) {
                if (!label.isEmpty()) {
                    throw new IllegalArgumentException(
                            "'" + label + "' is not one of the labels " + indexes.keySet());
                }
                index = 0;
            }
            out.append(index.longValue());
        }
    }

    /**
     * SET: Debezium delivers the labels joined by commas; Canal writes the bitmask with bit i set
     * for the i-th declared label. SET labels cannot contain commas, so splitting is exact.
     */
    static final class SetRenderer implements ValueRenderer {
        private final String[] labels;

        SetRenderer(List<String> labels) {
            if (labels.size() > 64) {
                throw new IllegalArgumentException("a SET has at most 64 labels");
            }
            this.labels = labels.toArray(new String[0]);
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            out.append(bitmask((String) value));
        }

        long bitmask(String members) {
            long mask = 0;
            int start = 0;
            int length = members.length();
            while (start < length) {
                int end = members.indexOf(',', start);
                if (end < 0) {
                    end = length;
                }
                mask |= bit(members, start, end - start);
                start = end + 1;
            }
            return mask;
        }

        private long bit(String members, int start, int length) {
            for (int i = 0; i < labels.length; i++) {
                if (labels[i].length() == length
                        && members.regionMatches(start, labels[i], 0, length)) {
                    return 1L << i;
                }
            }
            throw new IllegalArgumentException(
                    "'"
                            + members.substring(start, start + length)
                            + "' is not one of the labels "
                            + String.join(",", labels));
        }
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;

import io.debezium.data.Bits;
import io.debezium.relational.TableId;
import io.sluice.functions.source.internal.CollationOrder;
import io.sluice.functions.source.internal.TimestampMicrosConverter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * How one table's chunk-key values compare, in the server's order: the chunk bounds as Flink CDC
 * read them over JDBC ({@code ResultSet.getObject}, kept as they are through checkpoints) and a
 * binlog row's text of the column as Sluice's reader writes it, both turned into one comparable
 * form. Numbers compare as {@link BigDecimal}, strings by their sort keys in the column's collation
 * ({@link CollationOrder}), DATE/DATETIME/YEAR as a packed calendar value (zero and partly-zero
 * dates included, in MySQL's order), TIMESTAMP as microseconds since the epoch, TIME as signed
 * microseconds, binary strings as unsigned bytes.
 */
@Internal
public final class ChunkKeyOrder {

    /** The kinds of bounds, each with the column types whose row text it reads. */
    private enum Kind {
        NUMBER(null),
        TEXT(null),
        CALENDAR(Set.of("date", "datetime", "year")),
        TIMESTAMP(Set.of("timestamp")),
        TIME(Set.of("time")),
        BYTES(Set.of("binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob"));

        /** The column types read as this kind; null for any (the row text is already one). */
        private final Set<String> columnTypes;

        Kind(Set<String> columnTypes) {
            this.columnTypes = columnTypes;
        }
    }

    private final TableId id;
    private final String column;
    private final Kind kind;
    private final ZoneId serverZone;
    private final ZoneId timestampZone;

    /** The column's collation for TEXT (null: Java's order); null for the other kinds. */
    private final CollationOrder collation;

    private ChunkKeyOrder(
            TableId id,
            String column,
            Kind kind,
            ZoneId serverZone,
            ZoneId timestampZone,
            CollationOrder collation) {
        this.id = id;
        this.column = column;
        this.kind = kind;
        this.serverZone = serverZone;
        this.timestampZone = timestampZone;
        this.collation = collation;
    }

    /**
     * The order of a table whose chunk bounds include {@code sample}, a non-null bound.
     *
     * @param serverZone the JDBC connection's zone ({@code source.server-time-zone}), in which the
     *     driver built the {@link java.sql.Date} and {@link java.sql.Time} bounds
     * @param timestampZone the zone the reader writes TIMESTAMP text in
     * @param collations the order of a string column of a table, asked only for string bounds; null
     *     from it compares strings in Java's order
     */
    public static ChunkKeyOrder of(
            TableId id,
            String column,
            Object sample,
            ZoneId serverZone,
            ZoneId timestampZone,
            BiFunction<TableId, String, CollationOrder> collations) {
        Kind kind = kindOf(sample, id, column);
        return new ChunkKeyOrder(
                id,
                column,
                kind,
                serverZone,
                timestampZone,
                kind == Kind.TEXT ? collations.apply(id, column) : null);
    }

    private static Kind kindOf(Object bound, TableId id, String column) {
        if (bound instanceof Number) {
            return Kind.NUMBER;
        }
        if (bound instanceof String) {
            return Kind.TEXT;
        }
        if (bound instanceof Timestamp) {
            return Kind.TIMESTAMP;
        }
        if (bound instanceof LocalDateTime
                || bound instanceof LocalDate
                || bound instanceof java.sql.Date) {
            return Kind.CALENDAR;
        }
        if (bound instanceof LocalTime || bound instanceof java.sql.Time) {
            return Kind.TIME;
        }
        if (bound instanceof byte[]) {
            return Kind.BYTES;
        }
        throw new IllegalStateException(
                String.format(
                        "'source.reader' = 'sluice' compares chunk keys that are numbers,"
                                + " strings, dates and times or binary strings, but %s was"
                                + " chunked by column '%s', whose chunk bounds are of Java type"
                                + " %s; take 'flink-cdc', or another chunk key column"
                                + " ('source.snapshot.chunk-key-columns')",
                        id, column, bound.getClass().getName()));
    }

    /**
     * Fails unless a row's text of a column of {@code mysqlType} (Canal's, e.g. {@code
     * datetime(3)}) reads as this order's values.
     */
    void check(String mysqlType) {
        String base = mysqlType.toLowerCase(Locale.ROOT).split("[( ]", 2)[0];
        if (kind.columnTypes != null && !kind.columnTypes.contains(base)) {
            throw new IllegalStateException(
                    String.format(
                            "'source.reader' = 'sluice' compares the chunk key column '%s' of %s"
                                    + " as %s values, as its chunk bounds are, but the column is"
                                    + " %s in the binlog; take 'flink-cdc', or another chunk key"
                                    + " column ('source.snapshot.chunk-key-columns')",
                            column, id, kind.name().toLowerCase(Locale.ROOT), mysqlType));
        }
    }

    /** A chunk bound as a comparable value; null stays null (an open end). */
    public Comparable<?> bound(Object value) {
        if (value == null) {
            return null;
        }
        Kind of = kindOf(value, id, column);
        if (of != kind) {
            throw new IllegalStateException(
                    String.format(
                            "The chunk bounds of %s by column '%s' are of two kinds: %s and %s",
                            id, column, kind, value.getClass().getName()));
        }
        switch (kind) {
            case NUMBER:
                return number((Number) value);
            case TEXT:
                return text((String) value);
            case TIMESTAMP:
                Timestamp timestamp = (Timestamp) value;
                return Math.floorDiv(timestamp.getTime(), 1000L) * 1_000_000L
                        + timestamp.getNanos() / 1000;
            case CALENDAR:
                if (value instanceof LocalDateTime) {
                    LocalDateTime at = (LocalDateTime) value;
                    return packed(at.toLocalDate(), at.toLocalTime().toNanoOfDay() / 1000);
                }
                LocalDate day =
                        value instanceof LocalDate
                                ? (LocalDate) value
                                : inServerZone(((java.sql.Date) value).getTime()).toLocalDate();
                return packed(day, 0);
            case TIME:
                LocalTime time =
                        value instanceof LocalTime
                                ? (LocalTime) value
                                : inServerZone(((java.sql.Time) value).getTime()).toLocalTime();
                return time.toNanoOfDay() / 1000;
            default:
                return new UnsignedBytes((byte[]) value);
        }
    }

    /** A string in the column's collation, or in Java's order where none is given. */
    private Comparable<?> text(String value) {
        return collation == null ? value : collation.key(value);
    }

    /** A binlog row's text of the column as a value comparable with the bounds. */
    Comparable<?> key(String text) {
        if (kind == Kind.TEXT) {
            // Any text reads; what can fail is asking the server for weights, no bad value.
            return text(text);
        }
        try {
            switch (kind) {
                case NUMBER:
                    return new BigDecimal(text);
                case TIMESTAMP:
                    return timestampMicros(text);
                case CALENDAR:
                    return calendar(text);
                case TIME:
                    return timeMicros(text);
                default:
                    return new UnsignedBytes(latin1(text));
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    String.format(
                            "The chunk key column '%s' of %s has the value '%s' in the binlog,"
                                    + " which does not read as a %s value like its chunk bounds",
                            column, id, text, kind.name().toLowerCase(Locale.ROOT)),
                    e);
        }
    }

    /**
     * A Debezium value of the column (a change's key in Flink CDC's snapshot backfill), as Sluice's
     * Debezium settings give it (see {@code ChangeEventDeserializationSchema.debeziumProperties}),
     * comparable with the bounds: DATE as days, DATETIME as a wall-clock count of
     * milli/micro/nanoseconds, YEAR as the year, TIME as milli/micro/nanoseconds, TIMESTAMP as
     * microseconds since the epoch (Sluice's converter) or ISO text ({@code ZonedTimestamp}),
     * binary strings as bytes; numbers as numbers and strings through {@link #key(String)}, as the
     * binlog text is.
     *
     * @param logicalName the name of the value's Connect schema, null for none
     * @param columnType the column's type, for errors
     */
    public Comparable<?> debeziumKey(Object value, String logicalName, String columnType) {
        Kind of;
        Comparable<?> key;
        try {
            if (logicalName != null && DEBEZIUM_TEMPORAL.containsKey(logicalName)) {
                of = DEBEZIUM_TEMPORAL.get(logicalName);
                key = temporal(logicalName, value);
            } else if (value instanceof Number) {
                of = Kind.NUMBER;
                key = number((Number) value);
            } else if (value instanceof String) {
                of = Kind.TEXT;
                key = kind == Kind.TEXT ? key((String) value) : null;
            } else if (value instanceof byte[] || value instanceof ByteBuffer) {
                of = Bits.LOGICAL_NAME.equals(logicalName) ? null : Kind.BYTES;
                key = new UnsignedBytes(bytes(value));
            } else {
                of = null;
                key = null;
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    String.format(
                            "The chunk key column '%s' (%s) of %s has the Debezium value '%s' (%s),"
                                    + " which does not read as a value of its type",
                            column, columnType, id, value, logicalName),
                    e);
        }
        if (of != kind) {
            throw new IllegalStateException(
                    String.format(
                            "Sluice compares the chunk key column '%s' of %s by value, but cannot"
                                    + " compare its Debezium values (column type %s, Debezium"
                                    + " type %s, Java type %s) with its chunk bounds (%s values);"
                                    + " choose another chunk key column"
                                    + " ('source.snapshot.chunk-key-columns')",
                            column,
                            id,
                            columnType,
                            logicalName == null ? "none" : logicalName,
                            value.getClass().getName(),
                            kind.name().toLowerCase(Locale.ROOT)));
        }
        return key;
    }

    /**
     * Debezium's logical temporal types, and Sluice's TIMESTAMP one, by the kind they compare as.
     */
    private static final Map<String, Kind> DEBEZIUM_TEMPORAL =
            Map.of(
                    "io.debezium.time.Date",
                    Kind.CALENDAR,
                    "io.debezium.time.Timestamp",
                    Kind.CALENDAR,
                    "io.debezium.time.MicroTimestamp",
                    Kind.CALENDAR,
                    "io.debezium.time.NanoTimestamp",
                    Kind.CALENDAR,
                    "io.debezium.time.Year",
                    Kind.CALENDAR,
                    "io.debezium.time.Time",
                    Kind.TIME,
                    "io.debezium.time.MicroTime",
                    Kind.TIME,
                    "io.debezium.time.NanoTime",
                    Kind.TIME,
                    "io.debezium.time.ZonedTimestamp",
                    Kind.TIMESTAMP,
                    TimestampMicrosConverter.SCHEMA_NAME,
                    Kind.TIMESTAMP);

    private static long temporal(String logicalName, Object value) {
        switch (logicalName) {
            case "io.debezium.time.Date":
                return packed(LocalDate.ofEpochDay(((Number) value).longValue()), 0);
            case "io.debezium.time.Timestamp":
                return wallClock(Math.multiplyExact(((Number) value).longValue(), 1000L));
            case "io.debezium.time.MicroTimestamp":
                return wallClock(((Number) value).longValue());
            case "io.debezium.time.NanoTimestamp":
                return wallClock(Math.floorDiv(((Number) value).longValue(), 1000L));
            case "io.debezium.time.Year":
                return packed(((Number) value).intValue(), 1, 1, 0);
            case "io.debezium.time.Time":
                return Math.multiplyExact(((Number) value).longValue(), 1000L);
            case "io.debezium.time.MicroTime":
            case TimestampMicrosConverter.SCHEMA_NAME:
                return ((Number) value).longValue();
            case "io.debezium.time.NanoTime":
                return Math.floorDiv(((Number) value).longValue(), 1000L);
            default: // io.debezium.time.ZonedTimestamp
                Instant at =
                        Instant.from(DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse((String) value));
                return at.getEpochSecond() * 1_000_000L + at.getNano() / 1000;
        }
    }

    /** A DATETIME Debezium counts as microseconds of its wall-clock time read as UTC. */
    private static long wallClock(long micros) {
        LocalDate day = LocalDate.ofEpochDay(Math.floorDiv(micros, 86_400_000_000L));
        return packed(day, Math.floorMod(micros, 86_400_000_000L));
    }

    private static byte[] bytes(Object value) {
        if (value instanceof byte[]) {
            return (byte[]) value;
        }
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Compares two bounds or keys of one order; null is below everything (an open start). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Comparable<?> a, Comparable<?> b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a.getClass() != b.getClass()) {
            throw new IllegalStateException("Chunk bounds of two kinds: " + a + " and " + b);
        }
        return ((Comparable) a).compareTo(b);
    }

    private static BigDecimal number(Number value) {
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        if (value instanceof BigInteger) {
            return new BigDecimal((BigInteger) value);
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(value.doubleValue());
        }
        return BigDecimal.valueOf(value.longValue());
    }

    private ZonedDateTime inServerZone(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).atZone(serverZone);
    }

    /**
     * MySQL's own order of dates: year, month, day, then the time, so that zero ({@code
     * 0000-00-00}) and partly-zero ({@code 2024-00-00}) dates sort where the server sorts them.
     */
    private static long packed(int year, int month, int day, long microsOfDay) {
        return ((year * 13L + month) * 32L + day) * 86_400_000_000L + microsOfDay;
    }

    private static long packed(LocalDate day, long microsOfDay) {
        return packed(day.getYear(), day.getMonthValue(), day.getDayOfMonth(), microsOfDay);
    }

    /** {@code YYYY} (YEAR), {@code YYYY-MM-DD} or {@code YYYY-MM-DD HH:MM:SS[.f]}. */
    private static long calendar(String text) {
        if (text.length() == 4) {
            return packed(digits(text, 0, 4), 1, 1, 0);
        }
        expect(text, 4, '-');
        expect(text, 7, '-');
        long micros = 0;
        if (text.length() > 10) {
            expect(text, 10, ' ');
            micros = timeMicros(text.substring(11));
        } else if (text.length() != 10) {
            throw new IllegalArgumentException("not a date");
        }
        return packed(digits(text, 0, 4), digits(text, 5, 7), digits(text, 8, 10), micros);
    }

    /** {@code YYYY-MM-DD HH:MM:SS[.f]} in the timestamp zone; the zero TIMESTAMP is the epoch. */
    private long timestampMicros(String text) {
        if (text.startsWith("0000-00-00")) {
            return 0;
        }
        expect(text, 4, '-');
        expect(text, 7, '-');
        expect(text, 10, ' ');
        long micros = timeMicros(text.substring(11));
        LocalDateTime local =
                LocalDate.of(digits(text, 0, 4), digits(text, 5, 7), digits(text, 8, 10))
                        .atStartOfDay()
                        .plusNanos(micros * 1000);
        // In a daylight-saving fall-back hour the text is ambiguous: the earlier instant.
        Instant at = ZonedDateTime.ofLocal(local, timestampZone, null).toInstant();
        return at.getEpochSecond() * 1_000_000L + at.getNano() / 1000;
    }

    /** {@code [-]H…H:MM:SS[.f]} as signed microseconds (TIME, or a DATETIME's time of day). */
    private static long timeMicros(String text) {
        boolean negative = text.startsWith("-");
        int start = negative ? 1 : 0;
        int colon = text.indexOf(':', start);
        if (colon < start + 1 || text.length() < colon + 6) {
            throw new IllegalArgumentException("not a time");
        }
        expect(text, colon + 3, ':');
        long seconds =
                digits(text, start, colon) * 3600L
                        + digits(text, colon + 1, colon + 3) * 60L
                        + digits(text, colon + 4, colon + 6);
        long fraction = 0;
        int end = colon + 6;
        if (text.length() > end) {
            expect(text, end, '.');
            String digits = text.substring(end + 1);
            if (digits.isEmpty() || digits.length() > 6) {
                throw new IllegalArgumentException("not a fraction of a second");
            }
            fraction = digits(digits + "00000".substring(0, 6 - digits.length()), 0, 6);
        }
        long micros = seconds * 1_000_000L + fraction;
        return negative ? -micros : micros;
    }

    private static int digits(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                throw new IllegalArgumentException("not a digit at " + i);
            }
        }
        return Integer.parseInt(text.substring(from, to));
    }

    private static void expect(String text, int at, char c) {
        if (text.length() <= at || text.charAt(at) != c) {
            throw new IllegalArgumentException("'" + c + "' expected at " + at);
        }
    }

    /** The reader writes a binary string as one ISO-8859-1 character per byte. */
    private static byte[] latin1(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xff) {
                throw new IllegalArgumentException("not one ISO-8859-1 character per byte");
            }
        }
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A binary string in MySQL's order: byte by byte, unsigned; a prefix sorts first. */
    private static final class UnsignedBytes implements Comparable<UnsignedBytes> {
        private final byte[] bytes;

        UnsignedBytes(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int compareTo(UnsignedBytes other) {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }

        @Override
        public String toString() {
            StringBuilder hex = new StringBuilder("0x");
            for (byte b : bytes) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return hex.toString();
        }
    }
}

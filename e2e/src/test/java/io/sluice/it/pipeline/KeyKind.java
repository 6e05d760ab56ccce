package io.sluice.it.pipeline;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The type of a {@link VersionedWriter} table's primary key {@code id}, and how the load's row
 * numbers map to its values. Besides INT, the numbers are scrambled (times an odd constant, modulo
 * 2^32, a bijection), so new keys land in every snapshot chunk, read or not, instead of after the
 * last one.
 */
enum KeyKind {
    INT("INT"),
    /** A millisecond in the 49.7 days from 2024-01-01. */
    DATETIME_3("DATETIME(3)"),
    /**
     * A microsecond in the 71.6 minutes from 2024-01-01 00:00 UTC (the servers' zone), which the
     * job writes in {@link #TIMESTAMP_TEXT_ZONE}, 5.5 hours ahead: read in any other zone, a key's
     * text would fall hours outside every chunk's bounds.
     */
    TIMESTAMP_6("TIMESTAMP(6)"),
    /**
     * Four scrambled bytes, then twelve zero bytes (which the binlog leaves out). Flink CDC's
     * splitter compares byte[] bounds as text ({@code [B@…}), so a table gets one chunk or several,
     * from run to run.
     */
    BINARY_16("BINARY(16)"),
    /**
     * Eight scrambled hex digits, each letter in upper or lower case by another scramble, in a
     * case-insensitive collation: Java's order (upper case first) is not the server's.
     */
    VARCHAR_CI("VARCHAR(8) COLLATE utf8mb4_unicode_ci"),
    /** As {@link #VARCHAR_CI} in MySQL 8's default collation, NO PAD (MySQL only). */
    VARCHAR_0900_AI_CI("VARCHAR(8) COLLATE utf8mb4_0900_ai_ci");

    /** The zone the job writes TIMESTAMP_6 keys in ({@code source.timestamp-time-zone}). */
    static final ZoneId TIMESTAMP_TEXT_ZONE = ZoneId.of("Asia/Kolkata");

    private static final int SCRAMBLE = 0x9E3779B1;
    private static final int UNSCRAMBLE = inverse(SCRAMBLE);
    private static final int CASES = 0x85EBCA6B;
    private static final LocalDateTime BASE = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final DateTimeFormatter CANAL =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter CANAL_MICROS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    final String sqlType;

    KeyKind(String sqlType) {
        this.sqlType = sqlType;
    }

    /** The job settings the Canal text of these keys assumes. */
    List<String> jobSettings() {
        return this == TIMESTAMP_6
                ? List.of("source.timestamp-time-zone=" + TIMESTAMP_TEXT_ZONE)
                : List.of();
    }

    /** Row number {@code id}'s key, for {@code PreparedStatement.setObject}. */
    Object value(int id) {
        long scrambled = Integer.toUnsignedLong(id * SCRAMBLE);
        switch (this) {
            case DATETIME_3:
                return BASE.plus(scrambled, ChronoUnit.MILLIS);
            case TIMESTAMP_6:
                // The wall-clock time in the session's zone, the server's (UTC).
                return BASE.plus(scrambled, ChronoUnit.MICROS);
            case BINARY_16:
                return ByteBuffer.allocate(16).putInt(0, (int) scrambled).array();
            case VARCHAR_CI:
            case VARCHAR_0900_AI_CI:
                char[] hex = String.format("%08x", scrambled).toCharArray();
                int cases = id * CASES;
                for (int i = 0; i < hex.length; i++) {
                    hex[i] = ((cases >>> i) & 1) == 1 ? Character.toUpperCase(hex[i]) : hex[i];
                }
                return new String(hex);
            default:
                return id;
        }
    }

    /** Compares the keys of two row numbers in the server's order. */
    int compare(int a, int b) {
        Object x = value(a);
        Object y = value(b);
        if (x instanceof String) {
            // Both collations order digits before letters, letters regardless of case.
            return ((String) x)
                    .toLowerCase(Locale.ROOT)
                    .compareTo(((String) y).toLowerCase(Locale.ROOT));
        }
        if (x instanceof byte[]) {
            return Arrays.compareUnsigned((byte[]) x, (byte[]) y);
        }
        return x instanceof LocalDateTime
                ? ((LocalDateTime) x).compareTo((LocalDateTime) y)
                : Integer.compare(a, b);
    }

    /** Row number {@code id}'s key as an SQL literal. */
    String literal(int id) {
        Object value = value(id);
        switch (this) {
            case DATETIME_3:
                return "'" + CANAL.format((LocalDateTime) value) + "'";
            case TIMESTAMP_6:
                return "'" + CANAL_MICROS.format((LocalDateTime) value) + "'";
            case BINARY_16:
                StringBuilder hex = new StringBuilder("X'");
                for (byte b : (byte[]) value) {
                    hex.append(String.format("%02x", b & 0xff));
                }
                return hex.append("'").toString();
            case VARCHAR_CI:
            case VARCHAR_0900_AI_CI:
                return "'" + value + "'";
            default:
                return String.valueOf(id);
        }
    }

    /** The row number of a key as {@code ResultSet.getObject} returns it. */
    int id(Object jdbc) {
        switch (this) {
            case DATETIME_3:
                return unscramble(BASE.until((LocalDateTime) jdbc, ChronoUnit.MILLIS));
            case TIMESTAMP_6:
                // The connection's zone is UTC: the instant's UTC wall-clock time.
                LocalDateTime utc =
                        LocalDateTime.ofInstant(((Timestamp) jdbc).toInstant(), ZoneOffset.UTC);
                return unscramble(BASE.until(utc, ChronoUnit.MICROS));
            case BINARY_16:
                return unscramble(Integer.toUnsignedLong(ByteBuffer.wrap((byte[]) jdbc).getInt()));
            case VARCHAR_CI:
            case VARCHAR_0900_AI_CI:
                return id((String) jdbc);
            default:
                return ((Number) jdbc).intValue();
        }
    }

    /** The row number of a key as a Canal message writes it. */
    int id(String canal) {
        switch (this) {
            case DATETIME_3:
                return id(LocalDateTime.parse(canal, CANAL));
            case TIMESTAMP_6:
                LocalDateTime inTextZone = LocalDateTime.parse(canal, CANAL_MICROS);
                LocalDateTime utc =
                        inTextZone
                                .atZone(TIMESTAMP_TEXT_ZONE)
                                .withZoneSameInstant(ZoneOffset.UTC)
                                .toLocalDateTime();
                return unscramble(BASE.until(utc, ChronoUnit.MICROS));
            case BINARY_16:
                byte[] bytes = canal.getBytes(StandardCharsets.ISO_8859_1);
                if (bytes.length != 16 || canal.length() != 16) {
                    throw new IllegalArgumentException("not a BINARY(16) key: " + canal);
                }
                return id(bytes);
            case VARCHAR_CI:
            case VARCHAR_0900_AI_CI:
                if (canal.length() != 8) {
                    throw new IllegalArgumentException("not a " + this + " key: " + canal);
                }
                return unscramble(Long.parseLong(canal, 16));
            default:
                return Integer.parseInt(canal);
        }
    }

    private static int unscramble(long scrambled) {
        return (int) scrambled * UNSCRAMBLE;
    }

    /** The inverse of an odd number modulo 2^32 (Newton's iteration). */
    private static int inverse(int odd) {
        int x = odd;
        for (int i = 0; i < 5; i++) {
            x *= 2 - odd * x;
        }
        return x;
    }
}

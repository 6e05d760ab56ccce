package io.sluice.serializers.debezium.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.serializers.event.RowImage;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Turns Sluice's text of a value (as {@code docs/value-rendering.md} says, what Canal writes) into
 * the value Debezium 3's MySQL connector writes with its default modes, straight into a JSON
 * generator: integers as numbers (BIGINT UNSIGNED as the signed long of its 64 bits), DECIMAL as
 * the base64 of its unscaled two's-complement bytes, BIT(n) as little-endian bytes, DATE as days
 * since the epoch, TIME as microseconds, DATETIME as epoch milliseconds (fsp up to 3) or
 * microseconds, TIMESTAMP as ISO-8601 in UTC with the column's fraction digits, ENUM and SET as
 * their labels, binary values as base64, JSON as compact text. Zero and partly-zero dates are null,
 * as in Debezium for a nullable column.
 *
 * <p>Parses the UTF-8 bytes in place; the scratch buffer is reused. One instance per encoder.
 */
public final class DebeziumValues {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private final ZoneId timestampZone;
    private final boolean utcTimestamps;
    private byte[] scratch = new byte[256];

    /**
     * @param timestampZone the zone Sluice's TIMESTAMP text is written in ({@code
     *     source.timestamp-time-zone})
     */
    public DebeziumValues(ZoneId timestampZone) {
        this.timestampZone = timestampZone;
        this.utcTimestamps = timestampZone.normalized().equals(ZoneOffset.UTC);
    }

    /** Writes {@code row}'s value of {@code column} as Debezium does, or null. */
    public void write(JsonGenerator out, DebeziumColumn col, RowImage row, int column)
            throws IOException {
        if (row.isNull(column)) {
            out.writeNull();
            return;
        }
        byte[] b = row.utf8();
        int start = row.start(column);
        int end = start + row.length(column);
        switch (col.kind()) {
            case INT16:
            case INT32:
            case INT64:
                out.writeNumber(parseLong(b, start, end));
                break;
            case UINT64:
                out.writeNumber(parseUnsigned(b, start, end));
                break;
            case DECIMAL:
                writeDecimal(out, col.scale(), b, start, end);
                break;
            case FLOAT:
                out.writeNumber(Float.parseFloat(ascii(b, start, end)));
                break;
            case DOUBLE:
                out.writeNumber(Double.parseDouble(ascii(b, start, end)));
                break;
            case BOOLEAN:
                out.writeBoolean(parseUnsigned(b, start, end) != 0);
                break;
            case BITS:
                writeBits(out, col.bits(), parseUnsigned(b, start, end));
                break;
            case YEAR:
                {
                    // Debezium reads the binlog's YEAR 0 as 1900 + 0.
                    long year = parseLong(b, start, end);
                    out.writeNumber(year == 0 ? 1900 : (int) year);
                    break;
                }
            case DATE:
                writeDate(out, b, start, end);
                break;
            case TIME:
                out.writeNumber(timeMicros(b, start, end));
                break;
            case DATETIME_MILLIS:
            case DATETIME_MICROS:
                writeDatetime(
                        out, col.kind() == DebeziumColumn.Kind.DATETIME_MICROS, b, start, end);
                break;
            case TIMESTAMP:
                writeTimestamp(out, b, start, end);
                break;
            case BYTES:
                writeLatin1Bytes(out, b, start, end);
                break;
            case ENUM:
                writeEnum(out, col, parseLong(b, start, end));
                break;
            case SET:
                writeSet(out, col, parseUnsigned(b, start, end));
                break;
            case JSON:
                writeCompactJson(out, b, start, end);
                break;
            default:
                out.writeUTF8String(b, start, end - start);
                break;
        }
    }

    static long parseLong(byte[] b, int start, int end) {
        boolean negative = b[start] == '-';
        int i = negative || b[start] == '+' ? start + 1 : start;
        long value = 0;
        for (; i < end; i++) {
            value = value * 10 - (b[i] - '0'); // accumulate negatively: Long.MIN_VALUE fits
        }
        return negative ? value : -value;
    }

    /** An unsigned decimal up to 2^64 - 1, as the long of its 64 bits. */
    static long parseUnsigned(byte[] b, int start, int end) {
        long value = 0;
        for (int i = start; i < end; i++) {
            value = value * 10 + (b[i] - '0');
        }
        return value;
    }

    private static String ascii(byte[] b, int start, int end) {
        return new String(b, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** Kafka Connect's Decimal: the unscaled value's minimal two's-complement bytes, base64. */
    private void writeDecimal(JsonGenerator out, int scale, byte[] b, int start, int end)
            throws IOException {
        boolean negative = b[start] == '-';
        int i = negative ? start + 1 : start;
        int digits = 0;
        int fraction = -1;
        long unscaled = 0;
        boolean fits = true;
        for (int k = i; k < end; k++) {
            byte c = b[k];
            if (c == '.') {
                fraction = 0;
                continue;
            }
            if (fraction >= 0) {
                fraction++;
            }
            digits++;
            if (digits > 18) {
                fits = false;
            }
            unscaled = unscaled * 10 + (c - '0');
        }
        int textScale = Math.max(fraction, 0);
        if (fits && textScale <= scale && digits + scale - textScale <= 18) {
            for (int k = textScale; k < scale; k++) {
                unscaled *= 10;
            }
            writeTwosComplement(out, negative ? -unscaled : unscaled);
            return;
        }
        BigInteger big =
                new BigDecimal(ascii(b, start, end))
                        .setScale(scale, java.math.RoundingMode.UNNECESSARY)
                        .unscaledValue();
        byte[] bytes = big.toByteArray();
        out.writeBinary(bytes, 0, bytes.length);
    }

    private void writeTwosComplement(JsonGenerator out, long value) throws IOException {
        int n = 1;
        while (n < 8 && (value < -(1L << (8 * n - 1)) || value >= (1L << (8 * n - 1)))) {
            n++;
        }
        byte[] s = scratch(n);
        for (int k = n - 1; k >= 0; k--) {
            s[k] = (byte) value;
            value >>= 8;
        }
        out.writeBinary(s, 0, n);
    }

    /** io.debezium.data.Bits: (n + 7) / 8 bytes, least significant first. */
    private void writeBits(JsonGenerator out, int bits, long value) throws IOException {
        int n = (bits + 7) / 8;
        byte[] s = scratch(n);
        for (int k = 0; k < n; k++) {
            s[k] = (byte) value;
            value >>>= 8;
        }
        out.writeBinary(s, 0, n);
    }

    private static void writeDate(JsonGenerator out, byte[] b, int start, int end)
            throws IOException {
        int dash1 = indexOf(b, start, end, '-', start + 1);
        int dash2 = indexOf(b, dash1 + 1, end, '-', dash1 + 1);
        long year = parseUnsigned(b, start, dash1);
        long month = parseUnsigned(b, dash1 + 1, dash2);
        long day = parseUnsigned(b, dash2 + 1, end);
        if (month == 0 || day == 0) {
            out.writeNull();
            return;
        }
        out.writeNumber((int) daysFromCivil(year, month, day));
    }

    /** TIME {@code [-]H+:MM:SS[.f]} as signed microseconds. */
    static long timeMicros(byte[] b, int start, int end) {
        boolean negative = b[start] == '-';
        int i = negative ? start + 1 : start;
        int colon1 = indexOf(b, i, end, ':', i);
        int colon2 = indexOf(b, colon1 + 1, end, ':', colon1 + 1);
        int dot = indexOf(b, colon2 + 1, end, '.', end);
        long seconds =
                parseUnsigned(b, i, colon1) * 3600
                        + parseUnsigned(b, colon1 + 1, colon2) * 60
                        + parseUnsigned(b, colon2 + 1, dot);
        long micros = seconds * MICROS_PER_SECOND + fractionMicros(b, dot, end);
        return negative ? -micros : micros;
    }

    private static void writeDatetime(
            JsonGenerator out, boolean micros, byte[] b, int start, int end) throws IOException {
        long epochMicros = wallClockMicros(b, start, end);
        if (epochMicros == Long.MIN_VALUE) {
            out.writeNull();
        } else if (micros) {
            out.writeNumber(epochMicros);
        } else {
            out.writeNumber(Math.floorDiv(epochMicros, 1000));
        }
    }

    /**
     * {@code YYYY-MM-DD HH:MM:SS[.f]} read as UTC, in microseconds since the epoch; {@link
     * Long#MIN_VALUE} for a zero or partly-zero date.
     */
    static long wallClockMicros(byte[] b, int start, int end) {
        int dash1 = indexOf(b, start, end, '-', start + 1);
        int dash2 = indexOf(b, dash1 + 1, end, '-', dash1 + 1);
        int space = indexOf(b, dash2 + 1, end, ' ', end);
        long year = parseUnsigned(b, start, dash1);
        long month = parseUnsigned(b, dash1 + 1, dash2);
        long day = parseUnsigned(b, dash2 + 1, space);
        if (month == 0 || day == 0) {
            return Long.MIN_VALUE;
        }
        long seconds = daysFromCivil(year, month, day) * 86_400L;
        if (space < end) {
            int colon1 = indexOf(b, space + 1, end, ':', end);
            int colon2 = indexOf(b, colon1 + 1, end, ':', end);
            int dot = indexOf(b, colon2 + 1, end, '.', end);
            seconds +=
                    parseUnsigned(b, space + 1, colon1) * 3600
                            + parseUnsigned(b, colon1 + 1, colon2) * 60
                            + parseUnsigned(b, colon2 + 1, dot);
            return seconds * MICROS_PER_SECOND + fractionMicros(b, dot, end);
        }
        return seconds * MICROS_PER_SECOND;
    }

    /**
     * io.debezium.time.ZonedTimestamp: the instant in UTC, {@code YYYY-MM-DDTHH:MM:SS[.f]Z} with
     * the text's fraction digits (the column's precision), as Debezium writes it.
     */
    private void writeTimestamp(JsonGenerator out, byte[] b, int start, int end)
            throws IOException {
        long wall = wallClockMicros(b, start, end);
        if (wall == Long.MIN_VALUE) {
            out.writeNull();
            return;
        }
        int length = end - start;
        byte[] s = scratch(length + 1);
        if (utcTimestamps) {
            System.arraycopy(b, start, s, 0, length);
        } else {
            // Another zone: move the wall-clock time to UTC, keeping the fraction's digits.
            int dot = indexOf(b, start, end, '.', end);
            LocalDateTime local =
                    LocalDateTime.ofEpochSecond(
                            Math.floorDiv(wall, MICROS_PER_SECOND), 0, ZoneOffset.UTC);
            LocalDateTime utc =
                    local.atZone(timestampZone)
                            .withZoneSameInstant(ZoneOffset.UTC)
                            .toLocalDateTime();
            byte[] head =
                    String.format(
                                    "%04d-%02d-%02d %02d:%02d:%02d",
                                    utc.getYear(),
                                    utc.getMonthValue(),
                                    utc.getDayOfMonth(),
                                    utc.getHour(),
                                    utc.getMinute(),
                                    utc.getSecond())
                            .getBytes(StandardCharsets.US_ASCII);
            s = scratch(head.length + (end - dot) + 1);
            System.arraycopy(head, 0, s, 0, head.length);
            System.arraycopy(b, dot, s, head.length, end - dot);
            length = head.length + (end - dot);
        }
        s[10] = 'T';
        s[length] = 'Z';
        out.writeUTF8String(s, 0, length + 1);
    }

    /** Bytes written by Sluice as one ISO-8859-1 char each, back to bytes, base64. */
    private void writeLatin1Bytes(JsonGenerator out, byte[] b, int start, int end)
            throws IOException {
        byte[] s = scratch(end - start);
        int n = 0;
        for (int i = start; i < end; i++) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                s[n++] = (byte) c;
            } else {
                s[n++] = (byte) (((c & 0x1f) << 6) | (b[++i] & 0x3f));
            }
        }
        out.writeBinary(s, 0, n);
    }

    /** Sluice's ENUM text is the 1-based index; 0 is MySQL's empty invalid value. */
    private static void writeEnum(JsonGenerator out, DebeziumColumn col, long index)
            throws IOException {
        out.writeString(index <= 0 || index > col.labelCount() ? "" : col.label((int) index - 1));
    }

    /** Sluice's SET text is the bitmask; Debezium joins the labels with commas. */
    private static void writeSet(JsonGenerator out, DebeziumColumn col, long mask)
            throws IOException {
        if (mask == 0) {
            out.writeString("");
            return;
        }
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < col.labelCount() && i < 64; i++) {
            if ((mask & (1L << i)) != 0) {
                if (labels.length() > 0) {
                    labels.append(',');
                }
                labels.append(col.label(i));
            }
        }
        out.writeString(labels.toString());
    }

    /** JSON text without the whitespace between tokens, as Debezium renders MySQL's JSON. */
    private void writeCompactJson(JsonGenerator out, byte[] b, int start, int end)
            throws IOException {
        byte[] s = scratch(end - start);
        int n = 0;
        boolean inString = false;
        for (int i = start; i < end; i++) {
            byte c = b[i];
            if (inString) {
                s[n++] = c;
                if (c == '\\' && i + 1 < end) {
                    s[n++] = b[++i];
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
                s[n++] = c;
            } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                s[n++] = c;
            }
        }
        out.writeUTF8String(s, 0, n);
    }

    /** The fraction {@code .f} at {@code dot} (or none) in microseconds. */
    private static long fractionMicros(byte[] b, int dot, int end) {
        long micros = 0;
        int digits = 0;
        for (int i = dot + 1; i < end && digits < 6; i++, digits++) {
            micros = micros * 10 + (b[i] - '0');
        }
        for (; digits < 6; digits++) {
            micros *= 10;
        }
        return dot < end ? micros : 0;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
    static long daysFromCivil(long year, long month, long day) {
        year -= month <= 2 ? 1 : 0;
        long era = Math.floorDiv(year, 400);
        long yearOfEra = year - era * 400;
        long dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    private static int indexOf(byte[] b, int from, int end, char c, int missing) {
        for (int i = from; i < end; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return missing;
    }

    private byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[Math.max(size, scratch.length * 2)];
        }
        return scratch;
    }
}

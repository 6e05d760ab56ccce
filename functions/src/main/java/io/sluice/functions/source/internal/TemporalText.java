package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

/**
 * Canal's text for DATE, TIME, DATETIME and TIMESTAMP values, written into a caller's reused {@link
 * StringBuilder}: the source thread renders every temporal value, so no {@code java.time} objects
 * or Strings are built per value.
 *
 * <p>Date arithmetic is the proleptic Gregorian calendar on days since 1970-01-01 (the same
 * calendar MySQL and {@code java.time.LocalDate} use).
 */
@Internal
public final class TemporalText {

    static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long SECONDS_PER_DAY = 86_400L;
    private static final long MICROS_PER_DAY = SECONDS_PER_DAY * MICROS_PER_SECOND;

    /** Days from 0000-03-01 to 1970-01-01: the civil-day algorithms count from a March 1st. */
    private static final long DAYS_0000_03_01_TO_EPOCH = 719_468L;

    private static final long DAYS_PER_400_YEARS = 146_097L;

    private TemporalText() {}

    /** A DATE as {@code YYYY-MM-DD}, from days since 1970-01-01. */
    public static void appendDate(StringBuilder out, long epochDay) {
        long shifted = epochDay + DAYS_0000_03_01_TO_EPOCH;
        long era = Math.floorDiv(shifted, DAYS_PER_400_YEARS);
        long dayOfEra = shifted - era * DAYS_PER_400_YEARS;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * monthFromMarch + 2) / 5 + 1);
        int month = (int) (monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        appendPadded(out, year, 4);
        out.append('-');
        appendPadded(out, month, 2);
        out.append('-');
        appendPadded(out, day, 2);
    }

    /** Days since 1970-01-01 of a calendar date (month 1..12). */
    public static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * DAYS_PER_400_YEARS + dayOfEra - DAYS_0000_03_01_TO_EPOCH;
    }

    /**
     * A DATETIME as {@code YYYY-MM-DD HH:MM:SS}, plus {@code .} and exactly {@code fsp} fraction
     * digits when {@code fsp > 0}, from microseconds since 1970-01-01 00:00 of the wall clock.
     */
    public static void appendDateTime(StringBuilder out, long localEpochMicros, int fsp) {
        long day = Math.floorDiv(localEpochMicros, MICROS_PER_DAY);
        long microOfDay = localEpochMicros - day * MICROS_PER_DAY;
        appendDate(out, day);
        out.append(' ');
        long secondOfDay = microOfDay / MICROS_PER_SECOND;
        appendClock(
                out, secondOfDay / 3600, (int) (secondOfDay / 60 % 60), (int) (secondOfDay % 60));
        appendFraction(out, (int) (microOfDay % MICROS_PER_SECOND), fsp);
    }

    /**
     * A TIMESTAMP as a DATETIME in the zone whose offset is {@code offsetSeconds} at that instant.
     * The epoch itself is MySQL's zero TIMESTAMP (a real TIMESTAMP starts at 1970-01-01 00:00:01
     * UTC), which Canal prints as {@code 0000-00-00 00:00:00}; so does this.
     */
    public static void appendTimestamp(
            StringBuilder out, long epochMicros, int offsetSeconds, int fsp) {
        if (Math.floorDiv(epochMicros, MICROS_PER_SECOND) == 0) {
            out.append("0000-00-00 00:00:00");
            appendFraction(out, (int) Math.floorMod(epochMicros, MICROS_PER_SECOND), fsp);
            return;
        }
        appendDateTime(out, epochMicros + offsetSeconds * MICROS_PER_SECOND, fsp);
    }

    /**
     * A TIME as {@code [-]HH:MM:SS}, plus {@code .} and exactly {@code fsp} fraction digits when
     * {@code fsp > 0}, from signed microseconds. Hours past 99 are printed in full ({@code
     * 838:59:59}); a negative value below one second keeps its sign ({@code -00:00:00.500000}).
     */
    public static void appendTime(StringBuilder out, long micros, int fsp) {
        if (micros < 0) {
            out.append('-');
            micros = -micros;
        }
        long seconds = micros / MICROS_PER_SECOND;
        appendClock(out, seconds / 3600, (int) (seconds / 60 % 60), (int) (seconds % 60));
        appendFraction(out, (int) (micros % MICROS_PER_SECOND), fsp);
    }

    /**
     * {@code .} and the first {@code fsp} digits of the microseconds padded to six digits; nothing
     * for {@code fsp <= 0}. Digits are cut, never rounded, and trailing zeros stay.
     */
    public static void appendFraction(StringBuilder out, int micros, int fsp) {
        if (fsp <= 0) {
            return;
        }
        out.append('.');
        int divisor = 100_000;
        for (int i = 0; i < Math.min(fsp, 6); i++) {
            out.append((char) ('0' + micros / divisor % 10));
            divisor /= 10;
        }
    }

    /**
     * Microseconds since the epoch of an ISO-8601 instant as Debezium's {@code ZonedTimestamp}
     * writes it: {@code 2024-02-29T23:59:59.12Z} or with an offset {@code +08:00}; fraction digits
     * past the sixth are cut.
     *
     * @throws IllegalArgumentException if the text is not in that form
     */
    public static long parseIsoInstantMicros(CharSequence text) {
        IsoCursor c = new IsoCursor(text);
        long year = c.number('-');
        int month = (int) c.fixed(2, '-');
        int day = (int) c.fixed(2, 'T');
        int hour = (int) c.fixed(2, ':');
        int minute = (int) c.fixed(2, ':');
        int second = (int) c.fixed(2, (char) 0);
        int micros = c.fraction();
        int offset = c.offsetSeconds();
        if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) {
            throw c.bad();
        }
        long seconds =
                epochDay(year, month, day) * SECONDS_PER_DAY
                        + hour * 3600L
                        + minute * 60L
                        + second
                        - offset;
        return seconds * MICROS_PER_SECOND + micros;
    }

    private static void appendClock(StringBuilder out, long hours, int minutes, int seconds) {
        appendPadded(out, hours, 2);
        out.append(':');
        appendPadded(out, minutes, 2);
        out.append(':');
        appendPadded(out, seconds, 2);
    }

    /** {@code value >= 0} with leading zeros up to {@code width} digits, more digits if needed. */
    static void appendPadded(StringBuilder out, long value, int width) {
        for (long limit = 10; width > 1; width--, limit *= 10) {
            if (value < limit) {
                out.append('0');
            }
        }
        out.append(value);
    }

    /** A reader over ISO text that fails with the whole text in its message. */
    private static final class IsoCursor {
        private final CharSequence text;
        private int at;

        IsoCursor(CharSequence text) {
            this.text = text;
        }

        /** Digits up to {@code end}, which is consumed. */
        long number(char end) {
            int start = at;
            long value = 0;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                value = value * 10 + (text.charAt(at++) - '0');
            }
            if (at == start || at - start > 9) {
                throw bad();
            }
            expect(end);
            return value;
        }

        /** Exactly {@code digits} digits, then {@code end} ({@code 0}: nothing) is consumed. */
        long fixed(int digits, char end) {
            long value = 0;
            for (int i = 0; i < digits; i++) {
                if (at >= text.length() || !Character.isDigit(text.charAt(at))) {
                    throw bad();
                }
                value = value * 10 + (text.charAt(at++) - '0');
            }
            if (end != 0) {
                expect(end);
            }
            return value;
        }

        /** An optional {@code .digits}, as microseconds. */
        int fraction() {
            if (at >= text.length() || text.charAt(at) != '.') {
                return 0;
            }
            at++;
            int micros = 0;
            int digits = 0;
            while (at < text.length() && Character.isDigit(text.charAt(at))) {
                if (digits < 6) {
                    micros = micros * 10 + (text.charAt(at) - '0');
                }
                digits++;
                at++;
            }
            if (digits == 0) {
                throw bad();
            }
            for (int i = digits; i < 6; i++) {
                micros *= 10;
            }
            return micros;
        }

        /** {@code Z} or {@code ±HH:MM[:SS]}, which must end the text. */
        int offsetSeconds() {
            if (at >= text.length()) {
                throw bad();
            }
            char sign = text.charAt(at++);
            int seconds;
            if (sign == 'Z') {
                seconds = 0;
            } else if (sign == '+' || sign == '-') {
                seconds = (int) fixed(2, ':') * 3600 + (int) fixed(2, (char) 0) * 60;
                if (at < text.length() && text.charAt(at) == ':') {
                    at++;
                    seconds += (int) fixed(2, (char) 0);
                }
                seconds = sign == '-' ? -seconds : seconds;
            } else {
                throw bad();
            }
            if (at != text.length()) {
                throw bad();
            }
            return seconds;
        }

        private void expect(char c) {
            if (at >= text.length() || text.charAt(at) != c) {
                throw bad();
            }
            at++;
        }

        IllegalArgumentException bad() {
            return new IllegalArgumentException(
                    "Not an ISO-8601 instant like 2024-02-29T23:59:59.123Z: '" + text + "'");
        }
    }
}

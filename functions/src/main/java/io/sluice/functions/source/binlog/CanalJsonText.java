package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonFormatter;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonStringFormatter;

import java.io.IOException;
import java.lang.reflect.Field;

/**
 * MySQL's binary JSON as text, as Canal 1.1.7 writes it (its {@code JsonConversion}) wherever
 * Canal's text is JSON and keeps the value: parsed with the binlog client's (Flink CDC's patched)
 * {@link JsonBinary}, written by its formatter with these overrides.
 *
 * <ul>
 *   <li>The layout is MySQL's and Canal's, {@code {"a": [1, 2]}}, whatever the JVM-wide field the
 *       client's own layout follows ({@code useLegacyJsonFormat}, set by each Flink CDC source
 *       config).
 *   <li>Strings and keys are escaped as Canal escapes strings: {@code \"}, {@code \\}, {@code \n},
 *       {@code \r}, {@code \t}, and the other control characters and U+007F to U+00A0 as a
 *       backslash, {@code u00} and two lower-case hex digits ({@code u0008}, {@code u007f}). The
 *       client writes {@code \b}, {@code \f}, upper-case hex and U+007F as is.
 *   <li>Doubles are {@link Double#toString} ({@code 1.0E-7}); the client writes the exact binary
 *       expansion of a double whose text has an exponent ({@code 0.0000000999999999999…}).
 *   <li>TIME is {@code [-]HH:MM:SS.ffffff}, always six fraction digits ({@code "12:34:56.000000"},
 *       {@code "-00:30:00.000000"}, {@code "838:59:59.000000"}), and the zero TIME {@code
 *       "00:00:00"}; exactly 100 hours is {@code "100:…"}, where Canal writes {@code "00:…"}. The
 *       client drops a zero fraction, trims trailing zeros and cannot decode a negative TIME: its
 *       formatter fails an assertion (as for 100 hours or more), or without assertions writes
 *       {@code "01:0-30:00"} for {@code -00:30:00}.
 *   <li>DATE, DATETIME and TIMESTAMP are {@code YYYY-MM-DD HH:MM:SS.ffffff} ({@code "2024-02-29
 *       00:00:00.000000"} for a DATE), and the zero date {@code "0000-00-00 00:00:00"}; the client
 *       writes a DATE without its time and drops a zero fraction.
 * </ul>
 *
 * <p>Where Canal's text loses data or is not JSON, this keeps the value
 * (docs/canal-compatibility.md, on purpose): bytes (the opaque value of a binary string, BLOB or
 * BIT) are the client's base64, where Canal writes their UTF-8 decoding cut at the first zero byte;
 * a string keeps its U+0000, where Canal cuts it there; keys are escaped, where Canal writes them
 * as they are; DECIMAL keeps its scale ({@code 10.00}), where Canal drops an all-zero last group of
 * fraction digits ({@code 10.0}), as for DECIMAL columns.
 */
final class CanalJsonText extends JsonStringFormatter {

    /** The formatter's buffer; it appends nothing but through its own methods. */
    private static final Field TEXT;

    static {
        try {
            TEXT = JsonStringFormatter.class.getDeclaredField("sb");
            TEXT.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(
                    new IllegalStateException(
                            "CanalJsonText is written for the binlog client in Flink CDC 3.5,"
                                    + " whose JsonStringFormatter keeps its text in 'sb'",
                            e));
        }
    }

    private static final int FRACTION_BITS = 24;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder text;

    private CanalJsonText() {
        try {
            text = (StringBuilder) TEXT.get(this);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static String of(byte[] json) throws IOException {
        CanalJsonText formatter = new CanalJsonText();
        new Parser(json, formatter.text).parse(formatter);
        return formatter.getString();
    }

    @Override
    public void value(double value) {
        text.append(value); // Double.toString's digits, as Canal
    }

    /** {@code "key": }, the key escaped as a string value is. */
    @Override
    public void name(String name) {
        appendQuoted(text, name);
        text.append(": ");
    }

    @Override
    public void value(String value) {
        appendQuoted(text, value);
    }

    /** {@code , } between entries, as MySQL and Canal write it. */
    @Override
    public void nextEntry() {
        text.append(", ");
    }

    /** A JSON string in quotes, escaped as Canal escapes a string value (see above). */
    private static void appendQuoted(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20 || (c >= 0x7f && c <= 0xa0)) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * A TIME packed as MySQL packs it in JSON: {@code (hour << 12 | minute << 6 | second) << 24 |
     * microseconds}, negated for a negative TIME.
     */
    private static void appendTime(StringBuilder out, long packed) {
        out.append('"');
        if (packed == 0) {
            out.append("00:00:00");
        } else {
            if (packed < 0) {
                out.append('-');
            }
            long magnitude = Math.abs(packed);
            appendClock(out, magnitude >> FRACTION_BITS);
            appendMicros(out, magnitude);
        }
        out.append('"');
    }

    /**
     * A DATE, DATETIME or TIMESTAMP packed as MySQL packs them in JSON: {@code ((year * 13 + month)
     * << 5 | day) << 17 | hour << 12 | minute << 6 | second}, shifted left 24 bits over the
     * microseconds.
     */
    private static void appendDateTime(StringBuilder out, long packed) {
        out.append('"');
        if (packed == 0) {
            out.append("0000-00-00 00:00:00");
        } else {
            long magnitude = Math.abs(packed);
            long dateTime = magnitude >> FRACTION_BITS;
            long ymd = dateTime >> 17;
            long yearMonth = ymd >> 5;
            long hms = dateTime & 0x1ffff;
            long year = yearMonth / 13;
            if (year < 1000) {
                out.append(year < 10 ? "000" : year < 100 ? "00" : "0");
            }
            out.append(year).append('-');
            pad2(out, yearMonth % 13);
            out.append('-');
            pad2(out, ymd & 0x1f);
            out.append(' ');
            appendClock(out, hms);
            appendMicros(out, magnitude);
        }
        out.append('"');
    }

    /** {@code hour << 12 | minute << 6 | second} as {@code hh:mm:ss}. */
    private static void appendClock(StringBuilder out, long hms) {
        pad2(out, hms >> 12 & 0x3ff);
        out.append(':');
        pad2(out, hms >> 6 & 0x3f);
        out.append(':');
        pad2(out, hms & 0x3f);
    }

    /** {@code .} and the low 24 bits' microseconds in six digits. */
    private static void appendMicros(StringBuilder out, long packed) {
        int micros = (int) (packed & ((1 << FRACTION_BITS) - 1));
        out.append('.');
        for (int divisor = 100_000; divisor > 0; divisor /= 10) {
            out.append((char) ('0' + micros / divisor % 10));
        }
    }

    private static void pad2(StringBuilder out, long value) {
        if (value < 10) {
            out.append('0');
        }
        out.append(value);
    }

    /** The client's parser, with Canal's text for TIME, DATE, DATETIME and TIMESTAMP. */
    private static final class Parser extends JsonBinary {
        private final StringBuilder text;

        Parser(byte[] json, StringBuilder text) {
            super(json);
            this.text = text;
        }

        @Override
        protected void parseTime(JsonFormatter formatter) throws IOException {
            appendTime(text, readInt64());
        }

        @Override
        protected void parseDate(JsonFormatter formatter) throws IOException {
            appendDateTime(text, readInt64());
        }

        @Override
        protected void parseDatetime(JsonFormatter formatter) throws IOException {
            appendDateTime(text, readInt64());
        }
    }
}

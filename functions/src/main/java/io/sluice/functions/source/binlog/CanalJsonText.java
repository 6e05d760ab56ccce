package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonStringFormatter;

import java.io.IOException;
import java.lang.reflect.Field;

/**
 * MySQL's binary JSON as text in the binlog client's (Flink CDC's patched) layout, but for doubles,
 * which it writes as the exact binary expansion of the double whenever {@link Double#toString} has
 * an exponent ({@code 1e-7} as {@code
 * 0.0000000999999999999999954748111825886258685613938723690807…}): they are {@link
 * Double#toString}, as Canal writes them ({@code 1.0E-7}).
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
        JsonBinary.parse(json, formatter);
        return formatter.getString();
    }

    @Override
    public void value(double value) {
        text.append(Double.toString(value));
    }
}

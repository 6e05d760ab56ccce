package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * A decimal literal kept as sign and digit strings, compared with a value's UTF-8 text digit by
 * digit, without parsing it into a number or allocating. Text in exponent form ({@code 1.0E10}, as
 * FLOAT and DOUBLE may render) falls back to {@code double}, which allocates.
 */
@Internal
final class DecimalText implements Serializable {

    private static final long serialVersionUID = 1L;

    /** What {@link #compareTo} returns for text that is no number: no comparison holds. */
    static final int NOT_COMPARABLE = Integer.MIN_VALUE;

    private final int sign;
    private final byte[] integer;
    private final byte[] fraction;
    private final double value;

    private DecimalText(int sign, byte[] integer, byte[] fraction, double value) {
        this.sign = sign;
        this.integer = integer;
        this.fraction = fraction;
        this.value = value;
    }

    /** {@code text} as a plain decimal ({@code [+-]digits[.digits]}), or null if it is not one. */
    static DecimalText parse(String text) {
        byte[] b = text.trim().getBytes(StandardCharsets.US_ASCII);
        long shape = scan(b, 0, b.length);
        if (shape < 0) {
            return null;
        }
        int sign = sign(shape);
        int is = intStart(shape);
        int ie = intEnd(shape);
        int fe = fracEnd(shape);
        int fs = ie < b.length && b[ie] == '.' ? ie + 1 : ie;
        byte[] integer = java.util.Arrays.copyOfRange(b, is, ie);
        byte[] fraction = java.util.Arrays.copyOfRange(b, fs, Math.max(fs, fe));
        return new DecimalText(sign, integer, fraction, Double.parseDouble(text.trim()));
    }

    /**
     * The value in {@code utf8[off, off+len)} compared with this literal (negative: smaller), or
     * {@link #NOT_COMPARABLE}.
     */
    int compareTo(byte[] utf8, int off, int len) {
        long shape = scan(utf8, off, off + len);
        if (shape < 0) {
            try {
                double d =
                        Double.parseDouble(new String(utf8, off, len, StandardCharsets.US_ASCII));
                return Double.compare(d, value);
            } catch (NumberFormatException e) {
                return NOT_COMPARABLE;
            }
        }
        int s = sign(shape);
        if (s != sign) {
            return Integer.compare(s, sign);
        }
        if (s == 0) {
            return 0;
        }
        int is = intStart(shape);
        int ie = intEnd(shape);
        int fe = fracEnd(shape);
        int magnitude;
        if (ie - is != integer.length) {
            magnitude = Integer.compare(ie - is, integer.length);
        } else {
            magnitude = java.util.Arrays.compare(utf8, is, ie, integer, 0, integer.length);
            if (magnitude == 0) {
                int fs = ie < fe ? ie + 1 : ie;
                magnitude =
                        java.util.Arrays.compare(
                                utf8, fs, Math.max(fs, fe), fraction, 0, fraction.length);
            }
        }
        return s < 0 ? -Integer.signum(magnitude) : Integer.signum(magnitude);
    }

    /**
     * Scans {@code [+-]digits[.digits]} in {@code b[from, to)}: packs the sign, the integer digits
     * without leading zeros and the end of the fraction without trailing zeros into one long (no
     * allocation), or -1 if the text is not such a number.
     */
    private static long scan(byte[] b, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        int digitsFrom = i;
        while (i < to && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        int ie = i;
        int fe = i;
        if (i < to && b[i] == '.') {
            i++;
            while (i < to && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            fe = i;
        }
        if (i != to || (fe - digitsFrom) == 0 || (fe == ie + 1 && ie == digitsFrom)) {
            return -1;
        }
        int is = digitsFrom;
        while (is < ie && b[is] == '0') {
            is++;
        }
        int fs = fe > ie ? ie + 1 : ie;
        while (fe > fs && b[fe - 1] == '0') {
            fe--;
        }
        boolean zero = is == ie && fe == fs;
        int sign = zero ? 0 : negative ? -1 : 1;
        // offsets fit 20 bits each for values up to 1 MB; longer text is not a number we compare
        if (to > (1 << 20)) {
            return -1;
        }
        return ((long) (sign + 1) << 60) | ((long) is << 40) | ((long) ie << 20) | fe;
    }

    private static int sign(long shape) {
        return (int) (shape >>> 60) - 1;
    }

    private static int intStart(long shape) {
        return (int) ((shape >>> 40) & 0xfffff);
    }

    private static int intEnd(long shape) {
        return (int) ((shape >>> 20) & 0xfffff);
    }

    private static int fracEnd(long shape) {
        return (int) (shape & 0xfffff);
    }
}

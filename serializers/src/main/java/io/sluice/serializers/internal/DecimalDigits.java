package io.sluice.serializers.internal;

import java.nio.charset.StandardCharsets;

/**
 * Writes a {@code long} as ASCII decimal digits straight into a byte array, without a String. Row
 * images and flat JSON write several numbers per row; a digit-at-a-time loop of 64-bit divisions
 * was a tenth of the source task's time in the benchmark. This one counts digits by comparison and
 * writes two digits per division, in 32-bit arithmetic once the value fits an int.
 */
public final class DecimalDigits {

    /** The most bytes {@link #write} writes: a sign and 19 digits. */
    public static final int MAX_LENGTH = 20;

    private static final byte[] MIN_VALUE =
            Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    /** Tens and ones digit of each pair 00..99. */
    private static final byte[] TENS = new byte[100];

    private static final byte[] ONES = new byte[100];

    static {
        for (int pair = 0; pair < 100; pair++) {
            TENS[pair] = (byte) ('0' + pair / 10);
            ONES[pair] = (byte) ('0' + pair % 10);
        }
    }

    private DecimalDigits() {}

    /**
     * Writes {@code value} at {@code out[position]} onwards.
     *
     * @param out needs {@link #MAX_LENGTH} bytes free from {@code position}, or the value's length
     * @return the position after the last byte written
     */
    public static int write(long value, byte[] out, int position) {
        if (value < 0) {
            if (value == Long.MIN_VALUE) {
                System.arraycopy(MIN_VALUE, 0, out, position, MIN_VALUE.length);
                return position + MIN_VALUE.length;
            }
            out[position++] = '-';
            value = -value;
        }
        int end = position + digits(value);
        int i = end;
        while (value > Integer.MAX_VALUE) {
            long quotient = value / 100;
            int pair = (int) (value - quotient * 100);
            value = quotient;
            out[--i] = ONES[pair];
            out[--i] = TENS[pair];
        }
        int small = (int) value;
        while (small >= 100) {
            int quotient = small / 100;
            int pair = small - quotient * 100;
            small = quotient;
            out[--i] = ONES[pair];
            out[--i] = TENS[pair];
        }
        if (small >= 10) {
            out[--i] = ONES[small];
            out[--i] = TENS[small];
        } else {
            out[--i] = (byte) ('0' + small);
        }
        return end;
    }

    /** Number of decimal digits of a non-negative {@code value}. */
    static int digits(long value) {
        long bound = 10;
        for (int digits = 1; digits < 19; digits++) {
            if (value < bound) {
                return digits;
            }
            bound *= 10;
        }
        return 19;
    }
}

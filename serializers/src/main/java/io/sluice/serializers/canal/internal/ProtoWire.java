package io.sluice.serializers.canal.internal;

/**
 * Protobuf wire-format arithmetic: the encoded size of values. Sizes must agree exactly with what
 * {@link ProtoWriter} writes, because nested lengths are written before the nested bytes.
 */
public final class ProtoWire {

    private ProtoWire() {}

    /** Size of {@code value} as an unsigned varint: lengths and non-negative numbers. */
    public static int varint32Size(int value) {
        // 7 payload bits per byte; "| 1" makes 0 take one byte.
        return (38 - Integer.numberOfLeadingZeros(value | 1)) / 7;
    }

    /**
     * Size of an {@code int32} field value: protobuf sign-extends negatives to 64 bits, so they
     * always take 10 bytes (no zigzag for int32).
     */
    public static int int32Size(int value) {
        return value < 0 ? 10 : varint32Size(value);
    }

    /** Size of an {@code int64} field value (10 bytes when negative). */
    public static int varint64Size(long value) {
        return (70 - Long.numberOfLeadingZeros(value | 1)) / 7;
    }

    /** Size of a length-delimited payload of {@code length} bytes, length prefix included. */
    public static int delimitedSize(int length) {
        return varint32Size(length) + length;
    }

    /** Number of digits of a non-negative {@code value} in decimal. */
    public static int decimalLength(int value) {
        int digits = 1;
        while (value >= 10) {
            value /= 10;
            digits++;
        }
        return digits;
    }

    /**
     * Number of bytes {@link ProtoWriter#utf8(String)} writes for {@code text}. Like protobuf-java
     * (which falls back to {@code String.getBytes(UTF_8)}), a lone surrogate becomes one {@code
     * '?'}.
     */
    public static int utf8Length(String text) {
        int n = text.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (!Character.isSurrogate(c)) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < n
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 2; // two chars, four bytes
                i++;
            }
            // else: a lone surrogate is one '?', already counted
        }
        return bytes;
    }
}

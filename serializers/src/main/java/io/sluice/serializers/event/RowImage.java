package io.sluice.serializers.event;

import io.sluice.serializers.internal.DecimalDigits;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The values of one row image as Canal renders them, stored as the UTF-8 bytes of every value back
 * to back plus one end offset per column. SQL NULL is marked by a complemented end offset.
 *
 * <p>One array per image keeps a change compact in memory and on the wire, and lets encoders copy
 * value bytes straight into their output without building Strings.
 */
public final class RowImage {

    private final byte[] utf8;
    private final int[] ends;

    private RowImage(byte[] utf8, int[] ends) {
        this.utf8 = utf8;
        this.ends = ends;
    }

    /**
     * An image over {@code utf8} and {@code ends} as {@link #utf8()} and {@link #ends()} return
     * them; both arrays are taken over, not copied.
     */
    public static RowImage of(byte[] utf8, int[] ends) {
        int previous = 0;
        for (int i = 0; i < ends.length; i++) {
            int end = decode(ends[i]);
            if (end < previous || end > utf8.length || (ends[i] < 0 && end != previous)) {
                throw new IllegalArgumentException(
                        "Column " + i + " of a row image has a bad end offset " + ends[i]);
            }
            previous = end;
        }
        if (previous != utf8.length) {
            throw new IllegalArgumentException(
                    "Row image holds " + utf8.length + " bytes but its columns end at " + previous);
        }
        return new RowImage(utf8, ends);
    }

    public int columnCount() {
        return ends.length;
    }

    public boolean isNull(int column) {
        return ends[column] < 0;
    }

    /** Offset of the column's first byte in {@link #utf8()}. */
    public int start(int column) {
        return column == 0 ? 0 : decode(ends[column - 1]);
    }

    /** Byte length of the column's value; 0 for NULL. */
    public int length(int column) {
        return decode(ends[column]) - start(column);
    }

    /** The backing bytes. Shared, not copied: callers must not modify them. */
    public byte[] utf8() {
        return utf8;
    }

    /** The backing end offsets. Shared, not copied: callers must not modify them. */
    public int[] ends() {
        return ends;
    }

    /** The value as a String, or null for SQL NULL. Allocates: keep off hot paths. */
    public String text(int column) {
        return isNull(column)
                ? null
                : new String(utf8, start(column), length(column), StandardCharsets.UTF_8);
    }

    /** Whether this image and {@code other} hold the same value (or both NULL) in a column. */
    public boolean sameValue(RowImage other, int column) {
        if (isNull(column) || other.isNull(column)) {
            return isNull(column) == other.isNull(column);
        }
        int start = start(column);
        int otherStart = other.start(column);
        return Arrays.equals(
                utf8,
                start,
                start + length(column),
                other.utf8,
                otherStart,
                otherStart + other.length(column));
    }

    /**
     * {@code String.hashCode()} of the value's text, computed from the UTF-8 bytes without building
     * the String; 0 for NULL (Canal hashes NULL as {@code ""}).
     */
    public int javaHashCode(int column) {
        int h = 0;
        int i = start(column);
        int end = i + length(column);
        while (i < end) {
            int b = utf8[i] & 0xff;
            int codePoint;
            if (b < 0x80) {
                codePoint = b;
                i += 1;
            } else if (b < 0xe0) {
                codePoint = ((b & 0x1f) << 6) | (utf8[i + 1] & 0x3f);
                i += 2;
            } else if (b < 0xf0) {
                codePoint = ((b & 0x0f) << 12) | ((utf8[i + 1] & 0x3f) << 6) | (utf8[i + 2] & 0x3f);
                i += 3;
            } else {
                codePoint =
                        ((b & 0x07) << 18)
                                | ((utf8[i + 1] & 0x3f) << 12)
                                | ((utf8[i + 2] & 0x3f) << 6)
                                | (utf8[i + 3] & 0x3f);
                i += 4;
            }
            if (codePoint < 0x10000) {
                h = 31 * h + codePoint;
            } else {
                h = 31 * h + Character.highSurrogate(codePoint);
                h = 31 * h + Character.lowSurrogate(codePoint);
            }
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RowImage)) {
            return false;
        }
        RowImage that = (RowImage) o;
        return Arrays.equals(utf8, that.utf8) && Arrays.equals(ends, that.ends);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(utf8) + Arrays.hashCode(ends);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < ends.length; i++) {
            out.append(i == 0 ? "" : ", ");
            out.append(isNull(i) ? "NULL" : '"' + text(i) + '"');
        }
        return out.append(']').toString();
    }

    private static int decode(int end) {
        return end < 0 ? ~end : end;
    }

    /**
     * Builds row images value by value into a reused buffer; {@link #build()} copies out exactly
     * what was written and resets the builder for the next image.
     */
    public static final class Builder {
        private byte[] buffer;
        private int[] ends;
        private int size;
        private int columns;

        public Builder() {
            this(256, 16);
        }

        public Builder(int byteCapacity, int columnCapacity) {
            this.buffer = new byte[Math.max(16, byteCapacity)];
            this.ends = new int[Math.max(1, columnCapacity)];
        }

        public Builder appendNull() {
            endColumn(~size);
            return this;
        }

        /**
         * Appends a value given as text; encodes it as UTF-8. A lone surrogate, which has no UTF-8
         * form, becomes {@code '?'} as in {@code String.getBytes} and so in Canal's encoders.
         */
        public Builder append(CharSequence text) {
            if (text instanceof String) {
                // The JDK checks a Latin-1 String for non-ASCII and copies it with vector
                // instructions; a char-at-a-time loop was several times slower on typical columns.
                byte[] utf8 = ((String) text).getBytes(StandardCharsets.UTF_8);
                return appendUtf8(utf8, 0, utf8.length);
            }
            int length = text.length();
            ensure(length);
            int i = 0;
            // ASCII fast path: one byte per char, no encoder.
            while (i < length) {
                char c = text.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                buffer[size++] = (byte) c;
                i++;
            }
            for (; i < length; i++) {
                char c = text.charAt(i);
                if (c < 0x80) {
                    put1(c);
                } else if (c < 0x800) {
                    ensure(2);
                    buffer[size++] = (byte) (0xc0 | (c >> 6));
                    buffer[size++] = (byte) (0x80 | (c & 0x3f));
                } else if (Character.isHighSurrogate(c)
                        && i + 1 < length
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                    int cp = Character.toCodePoint(c, text.charAt(++i));
                    ensure(4);
                    buffer[size++] = (byte) (0xf0 | (cp >> 18));
                    buffer[size++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                    buffer[size++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                    buffer[size++] = (byte) (0x80 | (cp & 0x3f));
                } else if (Character.isSurrogate(c)) {
                    put1('?');
                } else {
                    ensure(3);
                    buffer[size++] = (byte) (0xe0 | (c >> 12));
                    buffer[size++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                    buffer[size++] = (byte) (0x80 | (c & 0x3f));
                }
            }
            endColumn(size);
            return this;
        }

        /** Appends a decimal number without building a String. */
        public Builder append(long value) {
            ensure(DecimalDigits.MAX_LENGTH);
            size = DecimalDigits.write(value, buffer, size);
            endColumn(size);
            return this;
        }

        /** Appends bytes that already are UTF-8 text. */
        public Builder appendUtf8(byte[] bytes, int offset, int length) {
            ensure(length);
            System.arraycopy(bytes, offset, buffer, size, length);
            size += length;
            endColumn(size);
            return this;
        }

        /** Appends {@code row}'s value of {@code column}, or null. */
        public Builder appendColumn(RowImage row, int column) {
            return row.isNull(column)
                    ? appendNull()
                    : appendUtf8(row.utf8, row.start(column), row.length(column));
        }

        /**
         * Appends raw bytes read as ISO-8859-1, one char per byte, as Canal renders BINARY and BLOB
         * values.
         */
        public Builder appendLatin1(byte[] bytes, int offset, int length) {
            ensure(length * 2);
            for (int i = offset; i < offset + length; i++) {
                int b = bytes[i] & 0xff;
                if (b < 0x80) {
                    buffer[size++] = (byte) b;
                } else {
                    buffer[size++] = (byte) (0xc0 | (b >> 6));
                    buffer[size++] = (byte) (0x80 | (b & 0x3f));
                }
            }
            endColumn(size);
            return this;
        }

        /** Number of values appended since the last {@link #build()}. */
        public int columnCount() {
            return columns;
        }

        public RowImage build() {
            RowImage image =
                    new RowImage(Arrays.copyOf(buffer, size), Arrays.copyOf(ends, columns));
            size = 0;
            columns = 0;
            return image;
        }

        private void put1(char c) {
            ensure(1);
            buffer[size++] = (byte) c;
        }

        private void endColumn(int end) {
            if (columns == ends.length) {
                ends = Arrays.copyOf(ends, columns * 2);
            }
            ends[columns++] = end;
        }

        private void ensure(int more) {
            if (size + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
            }
        }
    }
}

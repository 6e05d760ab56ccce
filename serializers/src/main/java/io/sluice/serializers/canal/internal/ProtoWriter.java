package io.sluice.serializers.canal.internal;

/**
 * Writes protobuf wire format into a byte array that the caller has sized with {@link ProtoWire}.
 * There are no capacity checks per value: the caller measures first, so an overrun is a bug and
 * surfaces as {@link ArrayIndexOutOfBoundsException}.
 */
public final class ProtoWriter {

    private byte[] buffer = new byte[0];
    private int position;

    /** Starts writing at the beginning of {@code target}. */
    public void reset(byte[] target) {
        this.buffer = target;
        this.position = 0;
    }

    /** Number of bytes written since {@link #reset(byte[])}. */
    public int position() {
        return position;
    }

    /** A tag from {@link io.sluice.serializers.canal.proto.ProtoCanalTags}. */
    public void tag(int tag) {
        varint32(tag);
    }

    /** An unsigned varint: lengths and non-negative numbers. */
    public void varint32(int value) {
        while ((value & ~0x7f) != 0) {
            buffer[position++] = (byte) ((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        buffer[position++] = (byte) value;
    }

    /** An {@code int32} field value; a negative one is sign-extended to ten bytes. */
    public void int32(int value) {
        if (value >= 0) {
            varint32(value);
        } else {
            varint64(value);
        }
    }

    /** An {@code int64} field value. */
    public void varint64(long value) {
        while ((value & ~0x7fL) != 0) {
            buffer[position++] = (byte) ((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        buffer[position++] = (byte) value;
    }

    public void bool(boolean value) {
        buffer[position++] = (byte) (value ? 1 : 0);
    }

    public void bytes(byte[] source, int offset, int length) {
        System.arraycopy(source, offset, buffer, position, length);
        position += length;
    }

    /** A non-negative {@code value} as ASCII decimal digits, {@link ProtoWire#decimalLength}. */
    public void decimal(int value) {
        int end = position + ProtoWire.decimalLength(value);
        for (int p = end - 1; p >= position; p--) {
            buffer[p] = (byte) ('0' + value % 10);
            value /= 10;
        }
        position = end;
    }

    /** {@code text} as UTF-8, exactly {@link ProtoWire#utf8Length(String)} bytes. */
    public void utf8(String text) {
        int n = text.length();
        byte[] out = buffer;
        int p = position;
        int i = 0;
        // ASCII fast path: column names, types, file names and most SQL.
        while (i < n) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                break;
            }
            out[p++] = (byte) c;
            i++;
        }
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out[p++] = (byte) c;
            } else if (c < 0x800) {
                out[p++] = (byte) (0xc0 | (c >> 6));
                out[p++] = (byte) (0x80 | (c & 0x3f));
            } else if (!Character.isSurrogate(c)) {
                out[p++] = (byte) (0xe0 | (c >> 12));
                out[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                out[p++] = (byte) (0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < n
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                out[p++] = (byte) (0xf0 | (cp >> 18));
                out[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                out[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                out[p++] = (byte) (0x80 | (cp & 0x3f));
            } else {
                out[p++] = '?'; // what protobuf-java writes for a lone surrogate
            }
        }
        position = p;
    }
}

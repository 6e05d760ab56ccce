package io.sluice.job.canal;

import java.nio.charset.StandardCharsets;

/**
 * Reads protobuf wire format field by field: just what decoding Canal's binary messages needs
 * (canal.protocol is not on the job's runtime classpath). Malformed input throws {@link
 * IllegalArgumentException}.
 */
final class ProtoReader {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LEN = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private final int end;
    private int pos;
    private int wireType;

    ProtoReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    private ProtoReader(byte[] bytes, int from, int end) {
        this.bytes = bytes;
        this.pos = from;
        this.end = end;
    }

    boolean more() {
        return pos < end;
    }

    /**
     * The next field's tag, its number and wire type as {@code ProtoCanalTags} has them; its value
     * must be read or skipped next. A known field number with an unexpected wire type does not
     * match its tag, so it is skipped rather than misread.
     */
    int tag() {
        long tag = varint();
        wireType = (int) (tag & 7);
        long field = tag >>> 3;
        if (field <= 0
                || field > Integer.MAX_VALUE >>> 3
                || wireType == 3
                || wireType == 4
                || wireType > 5) {
            throw new IllegalArgumentException("invalid protobuf tag " + tag + " at byte " + pos);
        }
        return (int) tag;
    }

    long varint() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw new IllegalArgumentException("truncated protobuf varint");
            }
            byte b = bytes[pos++];
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("malformed protobuf varint");
    }

    /** A length-delimited value as a reader of its own. */
    ProtoReader message() {
        int length = length();
        ProtoReader nested = new ProtoReader(bytes, pos, pos + length);
        pos += length;
        return nested;
    }

    String string() {
        int length = length();
        String text = new String(bytes, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return text;
    }

    void skip() {
        switch (wireType) {
            case VARINT:
                varint();
                break;
            case FIXED64:
                advance(8);
                break;
            case LEN:
                advance(length());
                break;
            default:
                advance(4);
        }
    }

    private int length() {
        long length = varint();
        if (wireType != LEN || length < 0 || length > end - pos) {
            throw new IllegalArgumentException("truncated protobuf field of " + length + " bytes");
        }
        return (int) length;
    }

    private void advance(int count) {
        if (count > end - pos) {
            throw new IllegalArgumentException("truncated protobuf field");
        }
        pos += count;
    }
}

package io.sluice.serializers.canal.internal;

import com.fasterxml.jackson.core.SerializableString;
import io.sluice.serializers.event.RowImage;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Assembles one {@code data}/{@code old} row object, {@code {"col":"value",...}}, into a reused
 * byte buffer, for the generator to copy as one raw value. Per column this is two array copies (the
 * pre-encoded {@code "name":} and the value) instead of a generator call per name and value, whose
 * context bookkeeping dominated narrow rows.
 *
 * <p>Escaping is the encoder's (and fastjson2's): {@code \" \\ \b \t \n \f \r}, other characters
 * below U+0020 as lower-case {@code \}{@code u00xx}, all else copied as UTF-8. Only the {@link
 * #appendUnquotedUTF8} and {@link #asUnquotedUTF8} views that raw writes use are supported.
 */
public final class FlatRowWriter implements SerializableString {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    /** For each byte below 0x60: 0 copy, else the escape kind. */
    private static final byte[] ESCAPES = new byte[0x60];

    static {
        for (int b = 0; b < 0x20; b++) {
            ESCAPES[b] = 'u';
        }
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\n'] = 'n';
        ESCAPES['\f'] = 'f';
        ESCAPES['\r'] = 'r';
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
    }

    private byte[] buffer = new byte[512];
    private int length;
    private boolean firstField;

    /** The bytes of {@code "name":} for a column name, escaped as values are. */
    public static byte[] fieldPrefix(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        FlatRowWriter writer = new FlatRowWriter();
        writer.putQuoted(utf8, 0, utf8.length);
        writer.put((byte) ':');
        return Arrays.copyOf(writer.buffer, writer.length);
    }

    public void beginObject() {
        length = 0;
        firstField = true;
        put((byte) '{');
    }

    /** Appends {@code ,"name":value}; {@code prefix} comes from {@link #fieldPrefix}. */
    public void field(byte[] prefix, RowImage row, int column) {
        if (!firstField) {
            put((byte) ',');
        }
        firstField = false;
        putRaw(prefix, 0, prefix.length);
        if (row.isNull(column)) {
            putRaw(NULL, 0, NULL.length);
        } else {
            putQuoted(row.utf8(), row.start(column), row.length(column));
        }
    }

    public void endObject() {
        put((byte) '}');
    }

    private void putQuoted(byte[] utf8, int start, int count) {
        ensure(count + 2);
        buffer[length++] = '"';
        int end = start + count;
        int run = start;
        for (int i = start; i < end; i++) {
            int b = utf8[i] & 0xff;
            if (b < 0x60 && ESCAPES[b] != 0) {
                putRaw(utf8, run, i - run);
                putEscape(b);
                run = i + 1;
            }
        }
        putRaw(utf8, run, end - run);
        put((byte) '"');
    }

    private void putEscape(int b) {
        ensure(6);
        byte kind = ESCAPES[b];
        buffer[length++] = '\\';
        if (kind == 'u') {
            buffer[length++] = 'u';
            buffer[length++] = '0';
            buffer[length++] = '0';
            buffer[length++] = HEX[b >> 4];
            buffer[length++] = HEX[b & 0xf];
        } else {
            buffer[length++] = kind;
        }
    }

    private void putRaw(byte[] bytes, int start, int count) {
        ensure(count);
        System.arraycopy(bytes, start, buffer, length, count);
        length += count;
    }

    private void put(byte b) {
        ensure(1);
        buffer[length++] = b;
    }

    private void ensure(int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }

    @Override
    public int appendUnquotedUTF8(byte[] out, int offset) {
        if (offset + length > out.length) {
            return -1;
        }
        System.arraycopy(buffer, 0, out, offset, length);
        return length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return Arrays.copyOf(buffer, length);
    }

    @Override
    public String getValue() {
        return new String(buffer, 0, length, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(buffer, 0, length);
        return length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer out) {
        if (out.remaining() < length) {
            return -1;
        }
        out.put(buffer, 0, length);
        return length;
    }

    @Override
    public char[] asQuotedChars() {
        throw unsupported();
    }

    @Override
    public byte[] asQuotedUTF8() {
        throw unsupported();
    }

    @Override
    public int appendQuotedUTF8(byte[] out, int offset) {
        throw unsupported();
    }

    @Override
    public int appendQuoted(char[] out, int offset) {
        throw unsupported();
    }

    @Override
    public int appendUnquoted(char[] out, int offset) {
        throw unsupported();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
        throw unsupported();
    }

    @Override
    public int putQuotedUTF8(ByteBuffer out) {
        throw unsupported();
    }

    private static UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException("A row is only written raw");
    }
}

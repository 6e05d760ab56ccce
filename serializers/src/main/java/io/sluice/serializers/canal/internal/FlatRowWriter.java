package io.sluice.serializers.canal.internal;

import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.internal.DecimalDigits;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Assembles a flat row message in a reused byte buffer: the table's pre-encoded runs, the varying
 * top-level fields, and the {@code data}/{@code old} row objects ({@code {"col":"value",...}}),
 * returned as one exact copy. Per column this is two array copies (the pre-encoded {@code "name":}
 * and the value) instead of a generator call per name and per value, whose context bookkeeping
 * dominated narrow rows.
 *
 * <p>Escaping is the encoder's (and fastjson2's): {@code \" \\ \b \t \n \f \r}, other characters
 * below U+0020 as lower-case {@code \}{@code u00xx}, all else copied as UTF-8.
 */
public final class FlatRowWriter {

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_STRING = {'"', '"'};

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
        FlatRowWriter writer = new FlatRowWriter();
        writer.quoted(name);
        writer.put((byte) ':');
        return writer.toByteArray();
    }

    /** The bytes of a JSON string, escaped as values are. */
    public static byte[] quotedString(String text) {
        FlatRowWriter writer = new FlatRowWriter();
        writer.quoted(text);
        return writer.toByteArray();
    }

    /** Starts a new message: what was written is dropped. */
    public void reset() {
        length = 0;
    }

    /** Appends bytes that already are JSON. */
    public void raw(byte[] json) {
        putRaw(json, 0, json.length);
    }

    public void raw(char ascii) {
        put((byte) ascii);
    }

    /** Appends a JSON number. */
    public void number(long value) {
        ensure(DecimalDigits.MAX_LENGTH);
        length = DecimalDigits.write(value, buffer, length);
    }

    /** Appends a JSON string. */
    public void quoted(String text) {
        if (text.isEmpty()) {
            putRaw(EMPTY_STRING, 0, EMPTY_STRING.length);
            return;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        putQuoted(utf8, 0, utf8.length);
    }

    public void beginObject() {
        firstField = true;
        put((byte) '{');
    }

    /** Appends {@code ,"name":value}; {@code prefix} comes from {@link #fieldPrefix}. */
    public void field(byte[] prefix, RowImage row, int column) {
        // One capacity check for the name and a value without escapes; escapes check again.
        ensure(1 + prefix.length + row.length(column) + NULL.length);
        if (!firstField) {
            buffer[length++] = ',';
        }
        firstField = false;
        System.arraycopy(prefix, 0, buffer, length, prefix.length);
        length += prefix.length;
        value(row, column);
    }

    /** Appends a column's value: a JSON string, or {@code null} for SQL NULL. */
    public void value(RowImage row, int column) {
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
        int clean = cleanPrefix(utf8, start, end);
        System.arraycopy(utf8, start, buffer, length, clean - start);
        length += clean - start;
        int run = clean;
        for (int i = clean; i < end; i++) {
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

    /**
     * The end of the longest prefix of {@code utf8[start, end)} that needs no escaping, checked
     * eight bytes at a time: no byte below 0x20, no '"', no '\\'.
     */
    private static int cleanPrefix(byte[] utf8, int start, int end) {
        int i = start;
        while (i + 8 <= end) {
            long word = (long) LONGS.get(utf8, i);
            if (hasByteBelow20(word)
                    || hasByte(word, 0x2222222222222222L)
                    || hasByte(word, 0x5c5c5c5c5c5c5c5cL)) {
                break;
            }
            i += 8;
        }
        while (i < end) {
            int b = utf8[i] & 0xff;
            if (b < 0x60 && ESCAPES[b] != 0) {
                return i;
            }
            i++;
        }
        return i;
    }

    private static boolean hasByteBelow20(long word) {
        return ((word - 0x2020202020202020L) & ~word & 0x8080808080808080L) != 0;
    }

    private static boolean hasByte(long word, long repeated) {
        long x = word ^ repeated;
        return ((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0;
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

    /** What was written since {@link #reset()}, as a new array. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }
}

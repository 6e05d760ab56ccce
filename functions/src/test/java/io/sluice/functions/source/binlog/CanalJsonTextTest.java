package io.sluice.functions.source.binlog;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL binary JSON documents built byte by byte (MySQL's {@code json_binary} layout) and the text
 * {@link CanalJsonText} writes for them: Canal 1.1.7's where Canal's is JSON, as
 * CanalSideBySideITCase compares with a real Canal server on MySQL 8.0.
 */
class CanalJsonTextTest {

    /** MySQL's field types of opaque JSON values. */
    private static final int TIMESTAMP = 7;

    private static final int DATE = 10;
    private static final int TIME = 11;
    private static final int DATETIME = 12;
    private static final int VARCHAR = 15;
    private static final int NEWDECIMAL = 246;

    private static final int SMALL_OBJECT = 0x00;
    private static final int SMALL_ARRAY = 0x02;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;
    private static final int OPAQUE = 0x0f;

    @Test
    void writesTimeWithSixFractionDigitsAndItsSign() throws IOException {
        assertThat(text(opaque(TIME, time(false, 12, 34, 56, 0)))).isEqualTo("\"12:34:56.000000\"");
        assertThat(text(opaque(TIME, time(false, 12, 34, 56, 789_012))))
                .isEqualTo("\"12:34:56.789012\"");
        assertThat(text(opaque(TIME, time(false, 0, 0, 0, 500_000))))
                .isEqualTo("\"00:00:00.500000\"");
        assertThat(text(opaque(TIME, time(false, 838, 59, 59, 0))))
                .isEqualTo("\"838:59:59.000000\"");
        assertThat(text(opaque(TIME, time(true, 1, 2, 3, 500_000))))
                .isEqualTo("\"-01:02:03.500000\"");
        assertThat(text(opaque(TIME, time(true, 0, 30, 0, 0)))).isEqualTo("\"-00:30:00.000000\"");
        // Canal's one exception: the zero TIME has no fraction.
        assertThat(text(opaque(TIME, 0))).isEqualTo("\"00:00:00\"");
    }

    @Test
    void writesDatesAndDatetimesAsCanalsDatetime() throws IOException {
        assertThat(text(opaque(DATE, dateTime(2024, 2, 29, 0, 0, 0, 0))))
                .isEqualTo("\"2024-02-29 00:00:00.000000\"");
        assertThat(text(opaque(DATETIME, dateTime(2024, 2, 29, 12, 0, 0, 0))))
                .isEqualTo("\"2024-02-29 12:00:00.000000\"");
        assertThat(text(opaque(DATETIME, dateTime(2024, 2, 29, 12, 0, 0, 120_000))))
                .isEqualTo("\"2024-02-29 12:00:00.120000\"");
        assertThat(text(opaque(DATETIME, dateTime(999, 1, 1, 0, 0, 0, 1))))
                .isEqualTo("\"0999-01-01 00:00:00.000001\"");
        assertThat(text(opaque(TIMESTAMP, dateTime(2024, 2, 29, 23, 59, 59, 500_000))))
                .isEqualTo("\"2024-02-29 23:59:59.500000\"");
        // The zero date, of a DATE or a DATETIME: no fraction.
        assertThat(text(opaque(DATE, 0))).isEqualTo("\"0000-00-00 00:00:00\"");
        assertThat(text(opaque(DATETIME, 0))).isEqualTo("\"0000-00-00 00:00:00\"");
    }

    @Test
    void writesTemporalValuesInsideObjectsAndArrays() throws IOException {
        byte[] object =
                object(
                        new String[] {"d", "t"},
                        new byte[][] {
                            opaque(DATE, dateTime(2024, 2, 29, 0, 0, 0, 0)),
                            opaque(TIME, time(true, 0, 30, 0, 0))
                        });
        assertThat(text(object))
                .isEqualTo("{\"d\": \"2024-02-29 00:00:00.000000\", \"t\": \"-00:30:00.000000\"}");
        byte[] array = array(opaque(TIME, time(false, 1, 0, 0, 0)), opaque(TIME, 0), string("x"));
        assertThat(text(array)).isEqualTo("[\"01:00:00.000000\", \"00:00:00\", \"x\"]");
    }

    @Test
    void escapesStringsAndKeysAsCanalEscapesStrings() throws IOException {
        assertThat(
                        text(
                                string(
                                        "tab\tnl\ncr\r\"q\" \\ bs\bff\f\u0001\u001f"
                                                + " del\u007f nbsp\u00a0 é😀")))
                .isEqualTo(
                        "\"tab\\tnl\\ncr\\r\\\"q\\\" \\\\ bs\\u0008ff\\u000c\\u0001\\u001f"
                                + " del\\u007f nbsp\\u00a0 é😀\"");
        // Canal writes a key as it is; here it is escaped as a value is.
        assertThat(text(object(new String[] {"k\t\"q"}, new byte[][] {string("v")})))
                .isEqualTo("{\"k\\t\\\"q\": \"v\"}");
    }

    @Test
    void keepsU0000Base64BytesDecimalScaleAndWritesCanalsDoubles() throws IOException {
        assertThat(text(string("a\u0000b"))).isEqualTo("\"a\\u0000b\"");
        assertThat(text(opaque(VARCHAR, new byte[] {0, (byte) 0xff}))).isEqualTo("\"AP8=\"");
        // DECIMAL(5,2) 10.00: precision, scale, then MySQL's binary decimal (the sign bit set, 10
        // in
        // two bytes, 00 in one).
        assertThat(text(opaque(NEWDECIMAL, new byte[] {5, 2, (byte) 0x80, 0x0a, 0})))
                .isEqualTo("10.00");
        assertThat(text(scalar(DOUBLE, le(Double.doubleToLongBits(1e-7))))).isEqualTo("1.0E-7");
        assertThat(text(object(new String[0], new byte[0][]))).isEqualTo("{}");
        assertThat(text(array())).isEqualTo("[]");
    }

    private static String text(byte[] json) throws IOException {
        return CanalJsonText.of(json);
    }

    /** MySQL's packed TIME: {@code (hour << 12 | minute << 6 | second) << 24 | micros}, negated. */
    private static long time(boolean negative, int hour, int minute, int second, int micros) {
        long packed = ((long) hour << 12 | minute << 6 | second) << 24 | micros;
        return negative ? -packed : packed;
    }

    /** MySQL's packed DATE and DATETIME: the date and time over 24 bits of microseconds. */
    private static long dateTime(
            int year, int month, int day, int hour, int minute, int second, int micros) {
        long ymd = ((long) year * 13 + month) << 5 | day;
        long hms = hour << 12 | minute << 6 | second;
        return (ymd << 17 | hms) << 24 | micros;
    }

    /** A document that is one opaque temporal value: its field type, length 8, the packed value. */
    private static byte[] opaque(int fieldType, long packed) {
        return opaque(fieldType, le(packed));
    }

    private static byte[] opaque(int fieldType, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(OPAQUE);
        out.write(fieldType);
        out.write(data.length); // one byte of variable-length size: under 128
        out.writeBytes(data);
        return out.toByteArray();
    }

    private static byte[] string(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(STRING);
        out.write(utf8.length);
        out.writeBytes(utf8);
        return out.toByteArray();
    }

    private static byte[] scalar(int type, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        out.writeBytes(data);
        return out.toByteArray();
    }

    private static byte[] le(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    /** A small object of documents (each a type byte and its value), no value inlined. */
    private static byte[] object(String[] keys, byte[][] values) {
        return container(SMALL_OBJECT, keys, values);
    }

    private static byte[] array(byte[]... values) {
        return container(SMALL_ARRAY, null, values);
    }

    private static byte[] container(int type, String[] keys, byte[][] values) {
        int n = values.length;
        int header = 4 + (keys == null ? 0 : 4 * n) + 3 * n;
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        ByteBuffer head = ByteBuffer.allocate(header).order(ByteOrder.LITTLE_ENDIAN);
        head.putShort((short) n).putShort((short) 0); // the size, set below
        if (keys != null) {
            int at = header;
            for (String key : keys) {
                int length = key.getBytes(StandardCharsets.UTF_8).length;
                head.putShort((short) at).putShort((short) length);
                at += length;
            }
            for (String key : keys) {
                tail.writeBytes(key.getBytes(StandardCharsets.UTF_8));
            }
        }
        for (byte[] value : values) {
            head.put(value[0]).putShort((short) (header + tail.size()));
            tail.write(value, 1, value.length - 1);
        }
        head.putShort(2, (short) (header + tail.size()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        out.writeBytes(head.array());
        out.writeBytes(tail.toByteArray());
        return out.toByteArray();
    }
}

package io.sluice.serializers.progress;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link ProgressMarker} as a message Canal's consumers read and can skip.
 *
 * <p>Flat JSON: a FlatMessage of {@code "type":"PROGRESS"}, {@code isDdl false}, no database, table
 * or rows, and the marker's fields in a top-level {@code sluiceProgress} object, which Canal's
 * {@code FlatMessage} ignores.
 *
 * <p>Binary: a Canal packet of one entry of type TRANSACTIONEND (clients that read rows skip it, as
 * they skip Canal's own), whose header carries the binlog file, position, time and GTID, and a
 * {@code sluiceProgress} property with the marker's fields; its TransactionEnd value names the
 * checkpoint. Markers are rare (one per partition and checkpoint), so this is written plainly.
 */
public final class ProgressMarkerEncoder {

    private static final int LEN = 2;
    private static final int VARINT = 0;

    private ProgressMarkerEncoder() {}

    /** The marker as Canal flat JSON; {@code buildTime} is Canal's {@code ts}. */
    public static byte[] flat(ProgressMarker marker, long buildTime) {
        String json =
                "{\"data\":null,\"database\":\"\",\"es\":"
                        + marker.executeTime()
                        + ",\"gtid\":"
                        + ProgressMarker.quote(marker.gtid())
                        + ",\"id\":0,\"isDdl\":false,\"mysqlType\":null,\"old\":null,"
                        + "\"pkNames\":null,\"sql\":\"\",\"sqlType\":null,\"table\":\"\",\"ts\":"
                        + buildTime
                        + ",\"type\":\""
                        + ProgressMarker.TYPE
                        + "\",\""
                        + ProgressMarker.PROPERTY
                        + "\":"
                        + marker.json()
                        + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /** The marker as a Canal binary packet of one TRANSACTIONEND entry. */
    public static byte[] binary(ProgressMarker marker) {
        Proto pair = new Proto().string(1, ProgressMarker.PROPERTY).string(2, marker.json());
        Proto header =
                new Proto()
                        .varint(1, 1) // version
                        .string(2, marker.binlogFile())
                        .varint(3, marker.binlogPosition())
                        .string(5, "UTF-8")
                        .varint(6, marker.executeTime())
                        .varint(7, 2) // sourceType MYSQL
                        .string(8, "")
                        .string(9, "")
                        .message(12, pair)
                        .string(13, marker.gtid());
        Proto transactionEnd =
                new Proto().string(2, Long.toString(marker.checkpointId())).message(3, pair);
        Proto entry =
                new Proto()
                        .message(1, header)
                        .varint(2, 3) // entryType TRANSACTIONEND
                        .message(3, transactionEnd);
        Proto messages = new Proto().message(2, entry);
        return new Proto()
                .varint(2, 1) // version
                .varint(3, 7) // type MESSAGES
                .message(5, messages)
                .bytes();
    }

    /** A protobuf message written field by field. */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Proto varint(int field, long value) {
            raw((long) field << 3 | VARINT);
            raw(value);
            return this;
        }

        Proto string(int field, String value) {
            return delimited(field, value.getBytes(StandardCharsets.UTF_8));
        }

        Proto message(int field, Proto message) {
            return delimited(field, message.bytes());
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private Proto delimited(int field, byte[] value) {
            raw((long) field << 3 | LEN);
            raw(value.length);
            out.write(value, 0, value.length);
            return this;
        }

        private void raw(long value) {
            while ((value & ~0x7FL) != 0) {
                out.write((int) (value & 0x7F) | 0x80);
                value >>>= 7;
            }
            out.write((int) value);
        }
    }
}

package io.sluice.tools.bench;

import io.sluice.job.canal.ProgressMarkerReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.ToIntFunction;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.ENTRY_STORE_VALUE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.MESSAGES_MESSAGES;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PACKET_BODY;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ROW_CHANGE_ROW_DATAS;

/**
 * Counts the rows of a Canal message without decoding it, for runs whose messages may hold several
 * rows ({@code format.group-rows: event}): a flat message's {@code data} objects, a binary
 * message's RowDatas. A statement counts as one, as it counts one message otherwise.
 */
final class MessageRows {

    private static final int VARINT = 0;
    private static final int I64 = 1;
    private static final int LEN = 2;
    private static final int I32 = 5;

    private MessageRows() {}

    /** The counter for {@code format}: canal-flat or canal-binary. */
    static ToIntFunction<byte[]> of(String format) {
        return format.equals("canal-flat") ? MessageRows::flat : MessageRows::binary;
    }

    /**
     * As {@link #of}, but a progress marker ({@code encode.progress-markers}) counts no row, so a
     * run with markers ends at the same rows as one without.
     */
    static ToIntFunction<byte[]> skippingMarkers(String format) {
        ToIntFunction<byte[]> rows = of(format);
        boolean flat = format.equals("canal-flat");
        return message -> {
            // Rows carry a data array: only the rare other messages are decoded.
            if (flat && indexAfter(message, "{\"data\":[") > 0) {
                return rows.applyAsInt(message);
            }
            try {
                return ProgressMarkerReader.marker(message) != null ? 0 : rows.applyAsInt(message);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** The objects in {@code "data":[...]}, which Sluice writes first; 1 for {@code null}. */
    static int flat(byte[] json) {
        int i = indexAfter(json, "{\"data\":[");
        if (i < 0) {
            return 1;
        }
        int rows = 0;
        int depth = 0;
        for (; i < json.length; i++) {
            byte b = json[i];
            if (b == '"') {
                // Skip the string, escapes included.
                for (i++; i < json.length && json[i] != '"'; i++) {
                    if (json[i] == '\\') {
                        i++;
                    }
                }
            } else if (b == '{') {
                if (depth++ == 0) {
                    rows++;
                }
            } else if (b == '}') {
                depth--;
            } else if (b == ']' && depth == 0) {
                return rows;
            }
        }
        throw new IllegalArgumentException("A flat message's data array does not end");
    }

    /** The RowDatas of every entry of a Canal packet; 1 for an entry without rows. */
    static int binary(byte[] packet) {
        int rows = 0;
        Reader messages = new Reader(packet, 0, packet.length).field(PACKET_BODY);
        while (messages != null) {
            Reader entry = messages.field(MESSAGES_MESSAGES);
            if (entry == null) {
                break;
            }
            Reader change = entry.field(ENTRY_STORE_VALUE);
            int count = change == null ? 0 : change.count(ROW_CHANGE_ROW_DATAS);
            rows += Math.max(1, count);
        }
        return Math.max(1, rows);
    }

    private static int indexAfter(byte[] bytes, String prefix) {
        if (bytes.length < prefix.length()) {
            return -1;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (bytes[i] != prefix.charAt(i)) {
                return -1;
            }
        }
        return prefix.length();
    }

    /** A protobuf message's bytes, walked field by field. */
    private static final class Reader {
        final byte[] bytes;
        int pos;
        final int end;

        Reader(byte[] bytes, int from, int end) {
            this.bytes = bytes;
            this.pos = from;
            this.end = end;
        }

        /** The next length-delimited field of {@code wanted} tag from here, or null. */
        Reader field(int wanted) {
            while (pos < end) {
                int tag = (int) varint();
                if (tag == wanted && (tag & 7) == LEN) {
                    int length = (int) varint();
                    Reader inner = new Reader(bytes, pos, pos + length);
                    pos += length;
                    return inner;
                }
                skip(tag & 7);
            }
            return null;
        }

        /** How many fields of {@code wanted} tag the rest holds. */
        int count(int wanted) {
            int n = 0;
            while (pos < end) {
                int tag = (int) varint();
                if (tag == wanted) {
                    n++;
                }
                skip(tag & 7);
            }
            return n;
        }

        private void skip(int wireType) {
            switch (wireType) {
                case VARINT:
                    varint();
                    break;
                case I64:
                    pos += 8;
                    break;
                case LEN:
                    int length = (int) varint();
                    pos += length;
                    break;
                case I32:
                    pos += 4;
                    break;
                default:
                    throw new IllegalArgumentException("Unknown protobuf wire type " + wireType);
            }
        }

        private long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte b = bytes[pos++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("Malformed varint");
        }
    }
}

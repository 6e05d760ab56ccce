package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * MariaDB's compressed binlog events ({@code log_bin_compress=ON}), which the binlog client 0.27.2
 * does not know (it reads them as UNKNOWN and drops them): QUERY_COMPRESSED (165) and the
 * WRITE/UPDATE/DELETE_ROWS_COMPRESSED events, v1 (166–168) and v2 (169–171). The header
 * deserializer gives each the type of its uncompressed form; the body deserializers of those types
 * inflate the compressed part first and hand the result to the type's own deserializer, as
 * MariaDB's {@code query_event_uncompress} and {@code row_log_event_uncompress} do.
 *
 * <p>The compressed part is the query text of a query event, and the rows of a rows event (after
 * the post-header, the column count and the column bitmaps). It starts with one byte {@code 1AAA
 * 0LLL} (A: the algorithm, 0 = zlib, the only one; L: how many bytes of length follow), then the
 * uncompressed length, high byte first, then the zlib stream.
 *
 * <p>One instance per {@link EventDeserializer}: the header deserializer tells the body
 * deserializer that runs next, on the same thread, that the event was compressed.
 */
final class CompressedEvents {

    private static final int QUERY_COMPRESSED = 165;
    private static final int FIRST_ROWS_V1 = 166;
    private static final int FIRST_ROWS_V2 = 169;
    private static final int LAST = 171;

    /** The post-header of a query event: thread id, time, db length, error code, status length. */
    private static final int QUERY_POST_HEADER = 13;

    /** The post-header of a rows event: table id (6 bytes) and flags. */
    private static final int ROWS_POST_HEADER = 8;

    private static final EventType[] ROWS_TYPES = {
        EventType.WRITE_ROWS,
        EventType.UPDATE_ROWS,
        EventType.DELETE_ROWS,
        EventType.EXT_WRITE_ROWS,
        EventType.EXT_UPDATE_ROWS,
        EventType.EXT_DELETE_ROWS
    };

    /** The compressed type of the event whose header was read last, 0 if it is not compressed. */
    private int pending;

    /**
     * Installs the compressed events' bodies in {@code deserializer}, whose header deserializer
     * must be an {@link EventHeaderReader} of this instance. Call it after the compatibility mode
     * is set: the wrapped deserializers keep theirs.
     */
    void install(EventDeserializer deserializer) {
        wrap(deserializer, EventType.QUERY);
        for (EventType type : ROWS_TYPES) {
            wrap(deserializer, type);
        }
    }

    /**
     * The type of an event whose header names {@code number}: {@code plain} (the client's type for
     * it), or a compressed event's uncompressed type, noted for the body deserializer next.
     */
    EventType type(int number, EventType plain) {
        pending = number >= QUERY_COMPRESSED && number <= LAST ? number : 0;
        return pending != 0 ? uncompressed(number) : plain;
    }

    private static EventType uncompressed(int type) {
        return type == QUERY_COMPRESSED ? EventType.QUERY : ROWS_TYPES[type - FIRST_ROWS_V1];
    }

    private void wrap(EventDeserializer deserializer, EventType type) {
        EventDataDeserializer<?> inner = deserializer.getEventDataDeserializer(type);
        deserializer.setEventDataDeserializer(
                type,
                (EventDataDeserializer<EventData>)
                        in -> {
                            int compressed = pending;
                            pending = 0;
                            if (compressed == 0) {
                                return inner.deserialize(in);
                            }
                            return inner.deserialize(
                                    new ByteArrayInputStream(inflate(compressed, in)));
                        });
    }

    /** The event's body as it was before compression. */
    private static byte[] inflate(int type, ByteArrayInputStream in) throws IOException {
        byte[] body = in.read(in.available());
        int at;
        if (type == QUERY_COMPRESSED) {
            int databaseLength = body[8] & 0xff;
            int statusLength = (body[11] & 0xff) | (body[12] & 0xff) << 8;
            at = QUERY_POST_HEADER + statusLength + databaseLength + 1;
        } else {
            at = ROWS_POST_HEADER;
            if (type >= FIRST_ROWS_V2) {
                at += (body[at] & 0xff) | (body[at + 1] & 0xff) << 8; // extra data, with its length
            }
            int first = body[at] & 0xff;
            long columns;
            if (first < 251) {
                columns = first;
                at += 1;
            } else {
                int bytes = first == 252 ? 2 : first == 253 ? 3 : 8;
                columns = 0;
                for (int i = 0; i < bytes; i++) {
                    columns |= (long) (body[at + 1 + i] & 0xff) << (8 * i);
                }
                at += 1 + bytes;
            }
            int bitmaps = type == FIRST_ROWS_V1 + 1 || type == FIRST_ROWS_V2 + 1 ? 2 : 1;
            at += bitmaps * (int) ((columns + 7) / 8);
        }
        return inflate(type, body, at);
    }

    /** {@code body} with its compressed part from {@code at} on inflated. */
    private static byte[] inflate(int type, byte[] body, int at) throws IOException {
        if (at >= body.length) {
            throw malformed(type, "it ends before its compressed part");
        }
        int head = body[at] & 0xff;
        int lengthBytes = head & 0x07;
        if ((head & 0xf0) != 0x80 || lengthBytes < 1 || lengthBytes > 4) {
            throw malformed(
                    type,
                    String.format(
                            "its compression header 0x%02x is not zlib (0x8N, N = 1 to 4 length"
                                    + " bytes)",
                            head));
        }
        long length = 0;
        for (int i = 1; i <= lengthBytes; i++) {
            length = length << 8 | (body[at + i] & 0xff);
        }
        if (length > Integer.MAX_VALUE - 8 - at) {
            throw malformed(type, "its uncompressed length " + length + " is too large");
        }
        byte[] out = new byte[at + (int) length];
        System.arraycopy(body, 0, out, 0, at);
        Inflater inflater = new Inflater();
        try {
            int data = at + 1 + lengthBytes;
            inflater.setInput(body, data, body.length - data);
            int filled = at;
            while (filled < out.length && !inflater.finished()) {
                int n = inflater.inflate(out, filled, out.length - filled);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                filled += n;
            }
            if (filled != out.length) {
                throw malformed(
                        type,
                        String.format(
                                "it inflates to %d bytes, not the %d it states",
                                filled - at, length));
            }
        } catch (DataFormatException e) {
            throw malformed(type, "its zlib data is corrupt: " + e.getMessage());
        } finally {
            inflater.end();
        }
        return out;
    }

    private static IOException malformed(int type, String why) {
        return new IOException(
                String.format(
                        "Cannot read MariaDB's compressed binlog event (type %d, written with"
                                + " log_bin_compress=ON): %s",
                        type, why));
    }
}

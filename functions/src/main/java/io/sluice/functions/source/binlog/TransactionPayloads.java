package io.sluice.functions.source.binlog;

import com.github.luben.zstd.Zstd;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.TransactionPayloadEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * MySQL's compressed transactions ({@code binlog_transaction_compression=ON}, 8.0.20+): after its
 * GTID event a transaction is one TRANSACTION_PAYLOAD_EVENT (type 40) whose body is its other
 * events (BEGIN, rows-query, table maps, rows, XID), zstd-compressed, without checksums. This reads
 * them with the reader's own parsers ({@code inner}: the same deserializers and table maps as the
 * outer events, no checksum), so that the reader takes them as if they were not compressed.
 *
 * <p>The binlog client 0.27.2 registers a payload parser of its own, but it reads the inner events
 * with a new default deserializer: the client's row values and table maps, not the reader's.
 *
 * <p>The payload's header is a list of fields, each a type, a length and a value (length-encoded
 * integers), up to a field of type 0: the compressed size (1), the compression (2: 0 zstd, 255
 * none) and the uncompressed size (3). The compressed bytes follow.
 */
final class TransactionPayloads implements EventDataDeserializer<TransactionPayloadEventData> {

    private static final int HEADER_END = 0;
    private static final int PAYLOAD_SIZE = 1;
    private static final int COMPRESSION = 2;
    private static final int UNCOMPRESSED_SIZE = 3;

    private static final int ZSTD = 0;
    private static final int NONE = 255;

    private final EventDeserializer inner;

    /**
     * @param inner the deserializer of the payload's events: no checksum, the reader's parsers
     */
    TransactionPayloads(EventDeserializer inner) {
        this.inner = inner;
    }

    @Override
    public TransactionPayloadEventData deserialize(ByteArrayInputStream in) throws IOException {
        long size = -1;
        int compression = ZSTD;
        long uncompressedSize = -1;
        while (in.available() > 0) {
            int field = in.readPackedInteger();
            if (field == HEADER_END) {
                break;
            }
            int length = in.readPackedInteger();
            switch (field) {
                case PAYLOAD_SIZE:
                    size = in.readPackedNumber().longValue();
                    break;
                case COMPRESSION:
                    compression = in.readPackedInteger();
                    break;
                case UNCOMPRESSED_SIZE:
                    uncompressedSize = in.readPackedNumber().longValue();
                    break;
                default:
                    in.skip(length);
            }
        }
        if (size < 0 || size > in.available()) {
            size = in.available();
        }
        byte[] payload = in.read((int) size);
        byte[] events = uncompressed(payload, compression, uncompressedSize);
        ArrayList<Event> list = new ArrayList<>();
        ByteArrayInputStream stream = new ByteArrayInputStream(events);
        for (Event event = inner.nextEvent(stream);
                event != null;
                event = inner.nextEvent(stream)) {
            list.add(event);
        }
        TransactionPayloadEventData data = new TransactionPayloadEventData();
        data.setPayloadSize(payload.length);
        data.setCompressionType(compression);
        data.setUncompressedSize(events.length);
        data.setUncompressedEvents(list);
        return data;
    }

    private static byte[] uncompressed(byte[] payload, int compression, long size)
            throws IOException {
        if (compression == NONE) {
            return payload;
        }
        if (compression != ZSTD) {
            throw malformed(
                    "its compression is type "
                            + compression
                            + ", not zstd (0) or none (255), the ones MySQL 8.0 writes");
        }
        if (size < 0 || size > Integer.MAX_VALUE - 8) {
            throw malformed("its uncompressed size " + size + " is not one Java can hold");
        }
        byte[] out = new byte[(int) size];
        long filled = Zstd.decompressByteArray(out, 0, out.length, payload, 0, payload.length);
        if (Zstd.isError(filled)) {
            throw malformed("zstd cannot decompress it: " + Zstd.getErrorName(filled));
        }
        if (filled != size) {
            throw malformed(
                    "it decompresses to " + filled + " bytes, not the " + size + " it states");
        }
        return out;
    }

    /**
     * The payload's events, each placed at the payload's end ({@code end}, where the next event of
     * the binlog starts), with no length of its own: the reader counts positions from the events'
     * headers, and a resume inside the transaction starts at its GTID event and skips what it read,
     * counted by events, not by position.
     */
    static List<Event> events(EventData payload, long end) {
        List<Event> events = ((TransactionPayloadEventData) payload).getUncompressedEvents();
        for (Event event : events) {
            EventHeaderV4 header = event.getHeader();
            header.setNextPosition(end);
            header.setEventLength(0);
        }
        return events;
    }

    private static IOException malformed(String why) {
        return new IOException(
                "Cannot read MySQL's compressed transaction (TRANSACTION_PAYLOAD_EVENT, type 40,"
                        + " written with binlog_transaction_compression=ON): "
                        + why);
    }
}

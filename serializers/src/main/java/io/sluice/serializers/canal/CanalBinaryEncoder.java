package io.sluice.serializers.canal;

import io.sluice.serializers.canal.internal.ProtoHeader;
import io.sluice.serializers.canal.internal.ProtoLayoutCache;
import io.sluice.serializers.canal.internal.ProtoRowChange;
import io.sluice.serializers.canal.internal.ProtoTableLayout;
import io.sluice.serializers.canal.internal.ProtoWire;
import io.sluice.serializers.canal.internal.ProtoWriter;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.TableSchema;

import java.util.Arrays;
import java.util.List;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.ENTRY_ENTRY_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ENTRY_HEADER;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ENTRY_STORE_VALUE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.ENTRY_TYPE_ROWDATA;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.MESSAGES_BATCH_ID;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.MESSAGES_MESSAGES;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PACKET_BODY;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PACKET_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PACKET_TYPE_MESSAGES;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PACKET_VERSION;

/**
 * Encodes changes as Canal 1.1.8's binary (protobuf) Kafka/RocketMQ message: the bytes of a {@code
 * CanalPacket.Packet} that Canal's {@code CanalMessageDeserializer} reads back into a {@code
 * Message}. The protobuf wire format is written by hand, so this module needs no protobuf-java.
 *
 * <h2>Layout</h2>
 *
 * <pre>
 * Packet   { version=1, type=MESSAGES, body=Messages }
 * Messages { batch_id=messageId (left out when 0, proto3), messages=[Entry] }
 * Entry    { header, entryType=ROWDATA, storeValue=RowChange }
 * </pre>
 *
 * Canal has two packet layouts (docs/dev/canal-format-notes.md §3.4): its raw path writes no
 * version but a batch_id and keeps TRANSACTIONBEGIN/END entries; its partitioned/dynamic-topic path
 * writes version=1, no batch_id, and one entry per partition. This encoder takes from both:
 * version=1 <em>and</em> batch_id, one Entry per call (one binlog rows event, or one DDL), and no
 * TRANSACTIONBEGIN/END entries, which Sluice does not see as events. Canal's consumer accepts every
 * combination: it checks only the packet type and compression.
 *
 * <p>The Entry, Header, RowChange, RowData and Column bytes are what Canal's {@code
 * LogEventConvert} produces through its proto2 builders, field for field: every field Canal sets is
 * written, defaults included ({@code index 0}, {@code isKey false}, {@code isDdl false}, …), and a
 * column's {@code value} is absent exactly when it is NULL. Header details are in {@link
 * ProtoHeader}; RowChange details in {@link ProtoRowChange}. {@code buildTime} is not part of the
 * binary format (it is the flat format's {@code ts}) and is ignored.
 *
 * <h2>How</h2>
 *
 * Everything is written flat into one reused buffer in one pass, then copied out at its exact size
 * (messages over 1 MiB are written straight into their own array instead). A nested message's
 * length comes before its bytes, so a size pass runs first: it measures every column, row, the
 * header and the framing, caching the sizes in reused int arrays; the write pass then never
 * serializes a nested message to copy it into its parent, unlike protobuf-java's {@code
 * toByteString()} chain. The column fields that depend only on the table (index, sqlType, name,
 * isKey, mysqlType) are encoded once per table version and copied in.
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class CanalBinaryEncoder implements ChangeEncoder {

    /** Packet version and type: one-byte tags with one-byte values. */
    private static final int PACKET_FIXED_BYTES = 4;

    /**
     * Largest buffer kept between calls. A bigger message is written straight into its own array,
     * so one huge row does not pin its size in memory for the encoder's lifetime.
     */
    private static final int MAX_RETAINED_BUFFER = 1 << 20;

    private final ProtoLayoutCache layouts = new ProtoLayoutCache();
    private final ProtoHeader header = new ProtoHeader();
    private final ProtoRowChange rowChange = new ProtoRowChange();
    private final ProtoWriter out = new ProtoWriter();
    private byte[] buffer = new byte[4096];

    @Override
    public byte[] encode(
            List<ChangeEvent> changes, long messageId, long buildTime, String name, String json) {
        header.extra(ChangeEncoder.checkPropertyName(name), json);
        try {
            return encode(changes, messageId, buildTime);
        } finally {
            header.extra(null, null);
        }
    }

    @Override
    public byte[] encode(List<ChangeEvent> changes, long messageId, long buildTime) {
        ChangeEvent first = checkOneEvent(changes);
        ProtoTableLayout layout = layouts.get(first.schema());

        // Size pass: innermost first.
        int rowChangeSize = checkedSize(rowChange.measure(changes, layout));
        int headerSize = header.measure(first, layout, first.isRow() ? changes.size() : 0);
        int entrySize =
                checkedSize(
                        1L
                                + ProtoWire.delimitedSize(headerSize)
                                + 2
                                + 1
                                + ProtoWire.delimitedSize(rowChangeSize));
        int messagesSize =
                checkedSize(
                        (messageId == 0 ? 0L : 1 + ProtoWire.varint64Size(messageId))
                                + 1
                                + ProtoWire.delimitedSize(entrySize));
        int packetSize =
                checkedSize(PACKET_FIXED_BYTES + 1L + ProtoWire.delimitedSize(messagesSize));

        // Write pass: outermost first, each length before its bytes.
        byte[] target = target(packetSize);
        out.reset(target);
        out.tag(PACKET_VERSION);
        out.varint32(1);
        out.tag(PACKET_TYPE);
        out.varint32(PACKET_TYPE_MESSAGES);
        out.tag(PACKET_BODY);
        out.varint32(messagesSize);
        if (messageId != 0) {
            // Messages is proto3: a batch_id of 0 is the default and is not written.
            out.tag(MESSAGES_BATCH_ID);
            out.varint64(messageId);
        }
        out.tag(MESSAGES_MESSAGES);
        out.varint32(entrySize);
        out.tag(ENTRY_HEADER);
        out.varint32(headerSize);
        header.write(out);
        out.tag(ENTRY_ENTRY_TYPE);
        out.varint32(ENTRY_TYPE_ROWDATA);
        out.tag(ENTRY_STORE_VALUE);
        out.varint32(rowChangeSize);
        rowChange.write(out);
        if (out.position() != packetSize) {
            throw new IllegalStateException(
                    "Measured " + packetSize + " bytes but wrote " + out.position());
        }
        return target == buffer ? Arrays.copyOf(buffer, packetSize) : target;
    }

    /**
     * The reused buffer, grown if needed, or for an oversized message an exact array of its own.
     */
    private byte[] target(int packetSize) {
        if (packetSize > MAX_RETAINED_BUFFER) {
            return new byte[packetSize];
        }
        if (buffer.length < packetSize) {
            buffer =
                    new byte
                            [Math.min(
                                    MAX_RETAINED_BUFFER, Math.max(packetSize, 2 * buffer.length))];
        }
        return buffer;
    }

    /** Checks that {@code changes} form one Canal entry, and returns the first. */
    private static ChangeEvent checkOneEvent(List<ChangeEvent> changes) {
        if (changes == null || changes.isEmpty()) {
            throw new IllegalArgumentException("A Canal message needs at least one change");
        }
        ChangeEvent first = changes.get(0);
        for (int i = 1, n = changes.size(); i < n; i++) {
            ChangeEvent change = changes.get(i);
            if (change.type() != first.type() || !sameSchema(change.schema(), first.schema())) {
                throw new IllegalArgumentException(
                        String.format(
                                "One Canal message holds changes of one table and one type, but"
                                        + " change 0 is %s of %s and change %d is %s of %s",
                                first.type(),
                                describe(first.schema(), change.schema()),
                                i,
                                change.type(),
                                describe(change.schema(), first.schema())));
            }
        }
        if (!first.isRow() && changes.size() > 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "A statement (%s of %s.%s) is encoded alone, but %d changes were given",
                            first.type(), first.database(), first.table(), changes.size()));
        }
        return first;
    }

    private static boolean sameSchema(TableSchema a, TableSchema b) {
        return a == b || a.equals(b);
    }

    /** db.table, or the whole column list when {@code other} is another version of the table. */
    private static String describe(TableSchema schema, TableSchema other) {
        boolean sameName =
                schema.database().equals(other.database()) && schema.table().equals(other.table());
        return sameName && !sameSchema(schema, other)
                ? schema.toString()
                : schema.database() + "." + schema.table();
    }

    private static int checkedSize(long size) {
        if (size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(
                    "A Canal message of " + size + " bytes is too large to encode");
        }
        return (int) size;
    }
}

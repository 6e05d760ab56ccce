package io.sluice.serializers.canal;

import com.alibaba.otter.canal.protocol.CanalEntry.Entry;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.CanalPacket;

/**
 * Canal's own framing of one entry into a Kafka value, with its protobuf builders: the nested
 * serialize-then-copy that Sluice's binary encoder writes flat. Shared by the byte-equality tests
 * and the benchmark's Canal side.
 */
public final class CanalPacketFraming {

    private CanalPacketFraming() {}

    /** {@code Packet{version=1, MESSAGES, Messages{batchId, [Entry{header, ROWDATA, change}]}}}. */
    public static byte[] packet(Header header, RowChange change, long batchId) {
        Entry entry =
                Entry.newBuilder()
                        .setHeader(header)
                        .setEntryType(EntryType.ROWDATA)
                        .setStoreValue(change.toByteString())
                        .build();
        CanalPacket.Messages messages =
                CanalPacket.Messages.newBuilder()
                        .setBatchId(batchId)
                        .addMessages(entry.toByteString())
                        .build();
        return CanalPacket.Packet.newBuilder()
                .setVersion(1)
                .setType(CanalPacket.PacketType.MESSAGES)
                .setBody(messages.toByteString())
                .build()
                .toByteArray();
    }
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.core.memory.DataOutputSerializer;

import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RocketMqCommittableSerializerTest {

    private final RocketMqCommittableSerializer serializer = new RocketMqCommittableSerializer();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static RocketMqCommittable sample() {
        return new RocketMqCommittable(
                -7L,
                3,
                List.of(
                        new QueueBatch(
                                "orders",
                                2,
                                List.of(
                                        new Entry(bytes("[\"db\",\"t\",1]"), "t", bytes("v1")),
                                        new Entry(null, null, bytes("ddl")),
                                        new Entry(bytes("k"), "t\u00e9", new byte[0]))),
                        new QueueBatch("topic-b", 0, List.of())));
    }

    @Test
    void roundTripsEveryField() throws Exception {
        RocketMqCommittable committable = sample();
        RocketMqCommittable back =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(committable));
        assertThat(back).isEqualTo(committable);
        assertThat(back.queues().get(0).messages().get(1).key()).isNull();
        assertThat(back.queues().get(0).messages().get(1).tag()).isNull();
        assertThat(back.messageCount()).isEqualTo(3);
    }

    /** Bytes version 1 wrote for {@link #sample()}; every later version must read them. */
    private static final String VERSION_1_BYTES =
            "fffffffffffffff9000000000000000300000002000000066f7264657273000000020000000300"
                    + "00000c5b226462222c2274222c315d0000000174000000027631ffffffffffffffff000000"
                    + "0364646c000000016b0000000374c3a90000000000000007746f7069632d62000000000000"
                    + "0000";

    @Test
    void readsVersion1Bytes() throws Exception {
        byte[] version1 = HexFormat.of().parseHex(VERSION_1_BYTES);
        assertThat(serializer.deserialize(RocketMqCommittableSerializer.VERSION_1, version1))
                .isEqualTo(sample());
    }

    @Test
    void writesVersion1AsPinned() throws Exception {
        assertThat(serializer.getVersion()).isEqualTo(RocketMqCommittableSerializer.VERSION_1);
        assertThat(HexFormat.of().formatHex(serializer.serialize(sample())))
                .isEqualTo(VERSION_1_BYTES);
    }

    @Test
    void writesEachInstanceOnce() throws Exception {
        // Flink's committer state asks for the same committable's bytes many times per checkpoint.
        RocketMqCommittable committable = sample();
        byte[] first = serializer.serialize(committable);
        assertThat(serializer.serialize(committable)).isSameAs(first);
        RocketMqCommittable equal = sample();
        assertThat(serializer.serialize(equal)).isNotSameAs(first).isEqualTo(first);
    }

    @Test
    void copiesTheQueueLogsItIsBuiltFrom() throws Exception {
        // The writer builds a committable from views of its queue logs, then reuses their buffers.
        DataOutputSerializer out = new DataOutputSerializer(16);
        for (Entry entry : sample().queues().get(0).messages()) {
            QueueBatch.writeEntry(
                    entry.key(),
                    entry.tag() == null ? null : bytes(entry.tag()),
                    entry.body(),
                    out);
        }
        byte[] log = out.getSharedBuffer();
        QueueBatch view = new QueueBatch("orders", 2, 3, log, 0, out.length());
        RocketMqCommittable committable =
                new RocketMqCommittable(
                        -7L, 3, List.of(view, new QueueBatch("topic-b", 0, List.of())));
        Arrays.fill(log, (byte) 0);
        assertThat(committable).isEqualTo(sample());
        assertThat(HexFormat.of().formatHex(serializer.serialize(committable)))
                .isEqualTo(VERSION_1_BYTES);
    }

    @Test
    void decodesARunOfOneTagAsOneString() {
        QueueBatch batch =
                new QueueBatch(
                        "orders",
                        0,
                        List.of(
                                new Entry(null, "orders", bytes("a")),
                                new Entry(null, "orders", bytes("b")),
                                new Entry(null, null, bytes("c")),
                                new Entry(null, "items", bytes("d"))));
        List<Entry> entries = batch.messages();
        assertThat(entries)
                .extracting(Entry::tag)
                .containsExactly("orders", "orders", null, "items");
        assertThat(entries.get(1).tag()).isSameAs(entries.get(0).tag());
        assertThat(entries)
                .extracting(e -> new String(e.body(), StandardCharsets.UTF_8))
                .containsExactly("a", "b", "c", "d");
    }

    @Test
    void refusesNegativeCounts() throws Exception {
        byte[] written = serializer.serialize(sample());
        byte[] negative = Arrays.copyOf(written, written.length);
        negative[16] = (byte) 0xff; // the queue count's first byte
        assertThatThrownBy(() -> serializer.deserialize(1, negative))
                .hasMessageContaining("queues: corrupt");
    }

    @Test
    void refusesAFormCutShort() throws Exception {
        byte[] written = serializer.serialize(sample());
        for (int length : new int[] {0, 19, 30, 40, 50, written.length - 1}) {
            byte[] shorter = Arrays.copyOf(written, length);
            assertThatThrownBy(() -> serializer.deserialize(1, shorter))
                    .as("cut at %d", length)
                    .hasMessageContaining("cut short");
        }
    }

    @Test
    void refusesUnknownVersions() {
        assertThatThrownBy(() -> serializer.deserialize(2, new byte[0]))
                .hasMessageContaining("Unknown version 2")
                .hasMessageContaining("reads version 1");
    }

    @Test
    void refusesTrailingBytes() throws Exception {
        byte[] written = serializer.serialize(sample());
        byte[] longer = Arrays.copyOf(written, written.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(1, longer))
                .hasMessageContaining("1 bytes left");
    }
}

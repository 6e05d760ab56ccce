package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import io.sluice.functions.types.internal.NullableFields;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checkpoint format of {@link RocketMqCommittable}. Version 1: run, batch, then per queue its
 * topic, queue id and messages (key, tag, body; lengths prefixed, -1 for null). A new version must
 * keep reading every older one: committables outlive the code that wrote them in savepoints.
 */
@Internal
public final class RocketMqCommittableSerializer
        implements SimpleVersionedSerializer<RocketMqCommittable> {

    public static final int VERSION_1 = 1;
    private static final int CURRENT = VERSION_1;
    private static final Charset UTF8 = StandardCharsets.UTF_8;

    @Override
    public int getVersion() {
        return CURRENT;
    }

    /**
     * Writes a committable once and returns the same bytes for every later call on that instance:
     * the committer's state writes a committable many times per checkpoint (see {@link
     * RocketMqCommittable}). Callers only copy the bytes out, as Flink's state serializers do.
     */
    @Override
    public byte[] serialize(RocketMqCommittable committable) throws IOException {
        byte[] form = committable.serialized();
        if (form == null) {
            form = write(committable);
            committable.serialized(form);
        }
        return form;
    }

    /**
     * Writes into a buffer of the exact size and returns it without a copy: a committable holds a
     * checkpoint interval's messages, and a growing buffer's copies were 38 % of the sink thread's
     * garbage.
     */
    private static byte[] write(RocketMqCommittable committable) throws IOException {
        Map<String, byte[]> utf8 = new HashMap<>();
        int size = 8 + 8 + 4;
        for (QueueBatch queue : committable.queues()) {
            size += 4 + utf8(queue.topic(), utf8).length + 4 + 4;
            for (Entry entry : queue.messages()) {
                size +=
                        12
                                + length(entry.key())
                                + length(utf8(entry.tag(), utf8))
                                + length(entry.body());
            }
        }
        DataOutputSerializer out = new DataOutputSerializer(size);
        out.writeLong(committable.run());
        out.writeLong(committable.batch());
        out.writeInt(committable.queues().size());
        for (QueueBatch queue : committable.queues()) {
            NullableFields.writeBytes(utf8(queue.topic(), utf8), out);
            out.writeInt(queue.queue());
            out.writeInt(queue.messages().size());
            for (Entry entry : queue.messages()) {
                NullableFields.writeBytes(entry.key(), out);
                NullableFields.writeBytes(utf8(entry.tag(), utf8), out);
                NullableFields.writeBytes(entry.body(), out);
            }
        }
        if (out.length() != size) {
            throw new IllegalStateException(
                    "Wrote " + out.length() + " bytes of " + committable + ", sized for " + size);
        }
        return out.getSharedBuffer();
    }

    /** Topics and tags repeat in every message: each is encoded once per committable. */
    private static byte[] utf8(String text, Map<String, byte[]> encoded) {
        return text == null ? null : encoded.computeIfAbsent(text, t -> t.getBytes(UTF8));
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    @Override
    public RocketMqCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown version "
                            + version
                            + " of a RocketMQ sink committable; this build reads version "
                            + VERSION_1);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        long run = in.readLong();
        long batch = in.readLong();
        int queueCount = in.readInt();
        List<QueueBatch> queues = new ArrayList<>(queueCount);
        for (int q = 0; q < queueCount; q++) {
            String topic = new String(NullableFields.readBytes(in), UTF8);
            int queue = in.readInt();
            int count = in.readInt();
            List<Entry> messages = new ArrayList<>(count);
            for (int m = 0; m < count; m++) {
                byte[] key = NullableFields.readBytes(in);
                byte[] tag = NullableFields.readBytes(in);
                byte[] body = NullableFields.readBytes(in);
                messages.add(new Entry(key, tag == null ? null : new String(tag, UTF8), body));
            }
            queues.add(new QueueBatch(topic, queue, messages));
        }
        if (in.available() > 0) {
            throw new IOException(
                    in.available() + " bytes left after a RocketMQ sink committable: corrupt");
        }
        return new RocketMqCommittable(run, batch, queues);
    }
}

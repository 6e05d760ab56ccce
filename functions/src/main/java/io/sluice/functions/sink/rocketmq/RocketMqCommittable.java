package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import io.sluice.functions.internal.NullableFields;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The messages one writer took in between two checkpoints, per queue, in arrival order: the
 * write-ahead log entry the committer sends once the checkpoint that holds it completed.
 *
 * <p>{@code run} is random per writer instance and {@code batch} counts that writer's committables,
 * so {@code (run, batch, index in its queue)} names every message; the committer stamps it on the
 * message and, after a restore, skips what a queue's tail shows was already sent.
 *
 * <p>A committable is its checkpoint form (see {@link RocketMqCommittableSerializer}), built once:
 * Flink 1.20's committer state writes every pending committable 8 times per checkpoint (each of its
 * three nested lists serializes an element twice), and again at the next checkpoint while it waits
 * for its commit. Each queue's messages stay encoded, read back only when sent: a checkpoint
 * interval's messages are a few large arrays, not a few objects per message to walk again.
 */
@Internal
public final class RocketMqCommittable {

    private final long run;
    private final long batch;
    private final byte[] form;
    private final List<QueueBatch> queues;

    /** Writes {@code queues} into a new checkpoint form; their encoded messages are copied. */
    public RocketMqCommittable(long run, long batch, List<QueueBatch> queues) {
        this.run = run;
        this.batch = batch;
        int size = 8 + 8 + 4;
        List<byte[]> topics = new ArrayList<>(queues.size());
        for (QueueBatch queue : queues) {
            byte[] topic = queue.topic.getBytes(StandardCharsets.UTF_8);
            topics.add(topic);
            size += 4 + topic.length + 4 + 4 + (queue.to - queue.from);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putLong(run).putLong(batch).putInt(queues.size());
        List<QueueBatch> placed = new ArrayList<>(queues.size());
        for (int q = 0; q < queues.size(); q++) {
            QueueBatch queue = queues.get(q);
            out.putInt(topics.get(q).length).put(topics.get(q));
            out.putInt(queue.queue).putInt(queue.count);
            int from = out.position();
            out.put(queue.data, queue.from, queue.to - queue.from);
            placed.add(
                    new QueueBatch(
                            queue.topic,
                            queue.queue,
                            queue.count,
                            out.array(),
                            from,
                            out.position()));
        }
        this.form = out.array();
        this.queues = List.copyOf(placed);
    }

    private RocketMqCommittable(long run, long batch, byte[] form, List<QueueBatch> queues) {
        this.run = run;
        this.batch = batch;
        this.form = form;
        this.queues = List.copyOf(queues);
    }

    /** Reads a checkpoint form without copying it; fails if it is cut short or runs on. */
    static RocketMqCommittable read(byte[] form) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(form);
        try {
            long run = in.getLong();
            long batch = in.getLong();
            int queueCount = count(in.getInt(), "queues");
            List<QueueBatch> queues = new ArrayList<>(Math.min(queueCount, 1024));
            for (int q = 0; q < queueCount; q++) {
                byte[] topic = new byte[count(in.getInt(), "topic bytes")];
                in.get(topic);
                int queue = in.getInt();
                int count = count(in.getInt(), "messages");
                int from = in.position();
                int to = QueueBatch.skip(form, from, count);
                queues.add(
                        new QueueBatch(
                                new String(topic, StandardCharsets.UTF_8),
                                queue,
                                count,
                                form,
                                from,
                                to));
                in.position(to);
            }
            if (in.hasRemaining()) {
                throw new IOException(
                        in.remaining() + " bytes left after a RocketMQ sink committable: corrupt");
            }
            return new RocketMqCommittable(run, batch, form, queues);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IOException("A RocketMQ sink committable is cut short: corrupt", e);
        }
    }

    private static int count(int count, String what) throws IOException {
        if (count < 0) {
            throw new IOException(
                    "A RocketMQ sink committable holds " + count + " " + what + ": corrupt");
        }
        return count;
    }

    public long run() {
        return run;
    }

    public long batch() {
        return batch;
    }

    public List<QueueBatch> queues() {
        return queues;
    }

    /** The checkpoint form; callers must not change it. */
    byte[] form() {
        return form;
    }

    public int messageCount() {
        return queues.stream().mapToInt(QueueBatch::size).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RocketMqCommittable
                && Arrays.equals(form, ((RocketMqCommittable) o).form);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(form);
    }

    @Override
    public String toString() {
        return "RocketMqCommittable{run="
                + Long.toHexString(run)
                + ", batch="
                + batch
                + ", queues="
                + queues.size()
                + ", messages="
                + messageCount()
                + "}";
    }

    /**
     * One queue's messages of a committable, in order, encoded as the checkpoint form holds them:
     * per message key, tag (UTF-8) and body, each length-prefixed, -1 for null.
     */
    public static final class QueueBatch {

        private final String topic;
        private final int queue;
        private final int count;
        private final byte[] data;
        private final int from;
        private final int to;

        /** Encodes {@code messages}. */
        public QueueBatch(String topic, int queue, List<Entry> messages) {
            this(topic, queue, messages.size(), encode(messages));
        }

        private QueueBatch(String topic, int queue, int count, byte[] encoded) {
            this(topic, queue, count, encoded, 0, encoded.length);
        }

        /**
         * The {@code count} messages {@link #writeEntry} encoded into {@code data} between {@code
         * from} and {@code to}, not copied: the caller keeps them unchanged while this batch is in
         * use.
         */
        public QueueBatch(String topic, int queue, int count, byte[] data, int from, int to) {
            this.topic = Objects.requireNonNull(topic, "topic must not be null");
            this.queue = queue;
            this.count = count;
            this.data = data;
            this.from = from;
            this.to = to;
        }

        public String topic() {
            return topic;
        }

        public int queue() {
            return queue;
        }

        public int size() {
            return count;
        }

        /** The messages, decoded anew on each call; a tag repeated in a row is one string. */
        public List<Entry> messages() {
            List<Entry> entries = new ArrayList<>(count);
            DataInputDeserializer in = new DataInputDeserializer(data, from, to - from);
            String tag = null;
            byte[] tagBytes = null;
            try {
                for (int i = 0; i < count; i++) {
                    byte[] key = NullableFields.readBytes(in);
                    int tagLength = in.readInt();
                    int at = in.getPosition();
                    if (tagLength < 0) {
                        tag = null;
                        tagBytes = null;
                    } else {
                        if (tagBytes == null
                                || !Arrays.equals(
                                        data, at, at + tagLength, tagBytes, 0, tagBytes.length)) {
                            tagBytes = Arrays.copyOfRange(data, at, at + tagLength);
                            tag = new String(tagBytes, StandardCharsets.UTF_8);
                        }
                        in.skipBytesToRead(tagLength);
                    }
                    entries.add(new Entry(key, tag, NullableFields.readBytes(in)));
                }
            } catch (IOException e) {
                // The bounds were checked when the batch was made.
                throw new UncheckedIOException(e);
            }
            return entries;
        }

        /** Where {@code count} messages from {@code from} end; fails if the array ends first. */
        private static int skip(byte[] data, int from, int count) {
            ByteBuffer in = ByteBuffer.wrap(data);
            in.position(from);
            for (int i = 0; i < count * 3; i++) {
                int length = in.getInt();
                in.position(in.position() + Math.max(length, 0));
            }
            return in.position();
        }

        private static byte[] encode(List<Entry> messages) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            try {
                for (Entry entry : messages) {
                    writeEntry(
                            entry.key(),
                            entry.tag() == null
                                    ? null
                                    : entry.tag().getBytes(StandardCharsets.UTF_8),
                            entry.body(),
                            out);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.getCopyOfBuffer();
        }

        /** Appends one message in the form a batch holds; {@code tag} is UTF-8. */
        public static void writeEntry(byte[] key, byte[] tag, byte[] body, DataOutputSerializer out)
                throws IOException {
            NullableFields.writeBytes(key, out);
            NullableFields.writeBytes(tag, out);
            NullableFields.writeBytes(Objects.requireNonNull(body, "body must not be null"), out);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof QueueBatch)) {
                return false;
            }
            QueueBatch other = (QueueBatch) o;
            return topic.equals(other.topic)
                    && queue == other.queue
                    && count == other.count
                    && Arrays.equals(data, from, to, other.data, other.from, other.to);
        }

        @Override
        public int hashCode() {
            return Objects.hash(topic, queue, count);
        }

        @Override
        public String toString() {
            return "QueueBatch{" + topic + "/" + queue + ", " + count + " messages}";
        }
    }

    /** One message: key (null without primary key), tag (null without table) and body. */
    public record Entry(byte[] key, String tag, byte[] body) {
        public Entry {
            Objects.requireNonNull(body, "body must not be null");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry
                    && Arrays.equals(key, ((Entry) o).key)
                    && Objects.equals(tag, ((Entry) o).tag)
                    && Arrays.equals(body, ((Entry) o).body);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Arrays.hashCode(key) + Objects.hashCode(tag)) + Arrays.hashCode(body);
        }

        @Override
        public String toString() {
            return "Entry{" + (tag == null ? "" : tag + ", ") + body.length + " bytes}";
        }
    }
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;

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
 */
@Internal
public final class RocketMqCommittable {

    private final long run;
    private final long batch;
    private final List<QueueBatch> queues;

    /**
     * The checkpoint form, kept once written: Flink 1.20's committer state writes every pending
     * committable 8 times per checkpoint (each of its three nested lists serializes an element
     * twice, once for the length and once for the bytes), and again at the next checkpoint while it
     * waits for its commit.
     */
    private volatile byte[] serialized;

    public RocketMqCommittable(long run, long batch, List<QueueBatch> queues) {
        this.run = run;
        this.batch = batch;
        this.queues = List.copyOf(queues);
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

    /** The form {@link RocketMqCommittableSerializer} wrote for this instance, or null. */
    byte[] serialized() {
        return serialized;
    }

    void serialized(byte[] form) {
        this.serialized = form;
    }

    public int messageCount() {
        return queues.stream().mapToInt(q -> q.messages().size()).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RocketMqCommittable
                && run == ((RocketMqCommittable) o).run
                && batch == ((RocketMqCommittable) o).batch
                && queues.equals(((RocketMqCommittable) o).queues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(run, batch, queues);
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

    /** One queue's messages of a committable, in order. */
    public record QueueBatch(String topic, int queue, List<Entry> messages) {
        public QueueBatch {
            Objects.requireNonNull(topic, "topic must not be null");
            messages = List.copyOf(messages);
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

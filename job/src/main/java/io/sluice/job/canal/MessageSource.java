package io.sluice.job.canal;

import java.util.List;
import java.util.Set;

/**
 * The messages of one side's topics, from their start to the end they have when reading starts
 * (committed messages only), in batches.
 */
interface MessageSource extends AutoCloseable {

    /** One message: its place, whether it has a key, its value. */
    final class Message {
        final String topic;
        final int partition;
        final long offset;
        final boolean keyed;
        final byte[] value;

        Message(String topic, int partition, long offset, boolean keyed, byte[] value) {
            this.topic = topic;
            this.partition = partition;
            this.offset = offset;
            this.keyed = keyed;
            this.value = value;
        }
    }

    /** Every partition (queue) read, as {@code topic-partition}. */
    List<String> partitions();

    /** How many messages there are to read, about. */
    long total();

    /** The next messages, none from a partition in {@code paused}; may be empty. */
    List<Message> poll(Set<String> paused);

    /** Whether {@code partition} has been read to its end. */
    boolean finished(String partition);

    @Override
    void close();

    static String partition(String topic, int partition) {
        return topic + "-" + partition;
    }
}

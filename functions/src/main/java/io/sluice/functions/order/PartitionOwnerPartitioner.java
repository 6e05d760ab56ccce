package io.sluice.functions.order;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.util.MathUtils;

import io.sluice.functions.encode.OrderedMessage;

/**
 * Gives each (topic, partition) one owner subtask for the whole run, so one writer writes each
 * partition (or queue) in order. A topic's partitions go to consecutive owners, spreading a topic
 * over all of them.
 */
@Internal
public final class PartitionOwnerPartitioner implements Partitioner<OrderedMessage> {

    private static final long serialVersionUID = 1L;

    @Override
    public int partition(OrderedMessage message, int numPartitions) {
        return ownerOf(message.message().topic(), message.message().partition(), numPartitions);
    }

    /** The owner subtask of {@code partition} of {@code topic} among {@code owners}. */
    public static int ownerOf(String topic, int partition, int owners) {
        return Math.floorMod(MathUtils.murmurHash(topic.hashCode()) + partition, owners);
    }
}

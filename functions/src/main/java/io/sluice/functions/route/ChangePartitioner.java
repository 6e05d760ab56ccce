package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.util.MathUtils;

/**
 * Sends a row to the subtask its table and primary key hash to, so every change of a row takes the
 * same path, and a statement copy to the subtask it names.
 */
@Internal
public final class ChangePartitioner implements Partitioner<RoutedChange> {

    private static final long serialVersionUID = 1L;

    @Override
    public int partition(RoutedChange change, int numPartitions) {
        int target = change.target();
        if (target >= 0) {
            if (target >= numPartitions) {
                throw new IllegalStateException(
                        "A statement copy is meant for subtask "
                                + target
                                + " but there are only "
                                + numPartitions);
            }
            return target;
        }
        return MathUtils.murmurHash(change.keyHash()) % numPartitions;
    }
}

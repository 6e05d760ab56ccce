package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.util.MathUtils;

import io.sluice.functions.normalize.RoutedChange;

/**
 * Sends a change to the subtask its table and primary key hash to, so every change of a row takes
 * the same path; a statement takes its table's path.
 */
@Internal
public final class ChangePartitioner implements Partitioner<RoutedChange> {

    private static final long serialVersionUID = 1L;

    @Override
    public int partition(RoutedChange change, int numPartitions) {
        return MathUtils.murmurHash(change.keyHash()) % numPartitions;
    }
}

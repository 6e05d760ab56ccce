package io.sluice.functions.route;

import java.io.Serializable;

/** Tells how many partitions (or queues) a topic has. One instance per operator subtask. */
public interface PartitionCounts extends AutoCloseable {

    /** The partition count of {@code topic}; fails clearly if the topic does not exist. */
    int countOf(String topic);

    @Override
    void close();

    /** Creates the counts of a subtask when it opens, on the task manager. */
    interface Factory extends Serializable {
        PartitionCounts create();
    }
}

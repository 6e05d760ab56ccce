package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.VisibleForTesting;

import java.io.IOException;

/**
 * Fault injection for tests of the committer: called after each stored batch, it may throw to
 * simulate a failure in the middle of a commit or a replay. A no-op unless a test installs one.
 */
@VisibleForTesting
@FunctionalInterface
public interface CommitFaults {

    CommitFaults NONE = (topic, queue, storedSoFar, toStore, replay) -> {};

    /**
     * @param storedSoFar messages of this queue's batch stored so far
     * @param toStore messages of this queue's batch this commit stores in all, so a test can break
     *     a commit where part of the batch is still to come
     * @param replay whether this is the first commit of a committer restored from a checkpoint,
     *     which in Flink 1.20 is the replay of the restored committables (done while the committer
     *     operator initializes, before any new committable arrives)
     */
    void afterStored(String topic, int queue, int storedSoFar, int toStore, boolean replay)
            throws IOException;
}

package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;

/**
 * The largest message each topic of a sink takes, and a message's size as that sink counts it. One
 * instance per operator subtask.
 */
@Internal
public interface MessageLimits extends AutoCloseable {

    /** The most bytes a message to {@code topic} may take, as {@link #sizeOf} counts them. */
    long limitOf(String topic);

    /** The bytes the broker counts for a message of {@code key} (or null) and {@code value}. */
    long sizeOf(byte[] key, byte[] value);

    /** Where {@link #limitOf} comes from, for the error that names it. */
    String describe(String topic);

    @Override
    void close();

    /** Creates the limits of a subtask when it opens, on the task manager. */
    interface Factory extends Serializable {
        MessageLimits create();
    }
}

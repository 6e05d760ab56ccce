package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Collector;

/**
 * An encoding function that may hold rows back to group them ({@link GroupingEncodeOperator}).
 *
 * @param <OUT> what it emits per message
 */
@Internal
public interface GroupedEncoding<OUT> {

    /** Whether some row waits in a group. */
    boolean isPending();

    /** Writes every waiting row to {@code out}. */
    void flush(Collector<OUT> out);

    /** How long a pending group waits when no input arrives. */
    long idleFlushMillis();
}

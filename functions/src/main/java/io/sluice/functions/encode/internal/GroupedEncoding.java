package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.SinkMessage;

/** An encoding function that may hold rows back to group them ({@link GroupingEncodeOperator}). */
@Internal
public interface GroupedEncoding {

    /** Whether some row waits in a group. */
    boolean isPending();

    /** Writes every waiting row to {@code out}. */
    void flush(Collector<SinkMessage> out);

    /** How long a pending group waits when no input arrives. */
    long idleFlushMillis();
}

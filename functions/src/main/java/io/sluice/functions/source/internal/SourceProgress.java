package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

/**
 * When a source reader last read something: a row, a snapshot chunk, a binlog heartbeat or a split
 * it was given. Marked by the reader's task thread, read by its stall watch and metric threads.
 */
@Internal
public final class SourceProgress {

    private volatile long lastNanos = System.nanoTime();

    public void mark() {
        lastNanos = System.nanoTime();
    }

    /** The {@link System#nanoTime()} of the last mark. */
    public long lastNanos() {
        return lastNanos;
    }

    /** Milliseconds since the last mark. */
    public long millisSince() {
        return (System.nanoTime() - lastNanos) / 1_000_000L;
    }
}

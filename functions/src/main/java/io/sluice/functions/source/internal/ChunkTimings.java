package io.sluice.functions.source.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * Where one snapshot reader's time goes, chunk by chunk: waiting for the next chunk, opening the
 * chunk reader (connections, Debezium's schema), waiting for the chunk's first event, the rows
 * between the low and high watermark, the backfill up to the binlog-end event, and the time of all
 * of them blocked in Debezium's queue. Logged at DEBUG per chunk and at INFO every {@value
 * #SUMMARY_EVERY} chunks, summed, so a slow snapshot shows whether it waits or works.
 */
final class ChunkTimings {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkTimings.class);
    private static final int SUMMARY_EVERY = 20;

    private final int subtask;
    private long finishedAt;
    private long submittedAt;
    private long chunks;
    private long rows;
    private long betweenChunks;
    private long opening;
    private long toLowWatermark;
    private long toHighWatermark;
    private long toBinlogEnd;
    private long inQueuePoll;

    ChunkTimings(int subtask) {
        this.subtask = subtask;
    }

    /** The reader holds no chunk any more. */
    synchronized void finished() {
        finishedAt = System.nanoTime();
    }

    /** A chunk was handed over, {@code openNanos} of it spent opening a new chunk reader. */
    synchronized void submitted(long openNanos) {
        long now = System.nanoTime();
        if (finishedAt > 0) {
            betweenChunks += now - finishedAt - openNanos;
        }
        opening += openNanos;
        submittedAt = now;
    }

    /**
     * One chunk read: the moments its low watermark, high watermark and binlog-end events came out
     * of the queue, its rows, and the time spent inside the queue's poll.
     */
    synchronized void read(long low, long high, long end, long chunkRows, long pollNanos) {
        long start = submittedAt > 0 ? submittedAt : low;
        chunks++;
        rows += chunkRows;
        toLowWatermark += low - start;
        toHighWatermark += high - low;
        toBinlogEnd += end - high;
        inQueuePoll += pollNanos;
        if (LOG.isDebugEnabled()) {
            LOG.debug(
                    "Snapshot reader {}: chunk of {} rows: {} ms to the low watermark, {} ms of"
                            + " rows, {} ms to the binlog end; {} ms blocked in the queue",
                    subtask,
                    chunkRows,
                    millis(low - start),
                    millis(high - low),
                    millis(end - high),
                    millis(pollNanos));
        }
        if (chunks % SUMMARY_EVERY == 0) {
            LOG.info(summary());
        }
        submittedAt = 0;
    }

    synchronized String summary() {
        return String.format(
                Locale.ROOT,
                "Snapshot reader %d: %d chunks, %d rows; per chunk (ms): %.1f waiting for the"
                        + " chunk, %.1f opening its reader, %.1f to the low watermark, %.1f reading"
                        + " rows, %.1f to the binlog end; %.1f of these blocked in Debezium's queue",
                subtask,
                chunks,
                rows,
                perChunk(betweenChunks),
                perChunk(opening),
                perChunk(toLowWatermark),
                perChunk(toHighWatermark),
                perChunk(toBinlogEnd),
                perChunk(inQueuePoll));
    }

    private double perChunk(long nanos) {
        return chunks == 0 ? 0 : nanos / 1e6 / chunks;
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}

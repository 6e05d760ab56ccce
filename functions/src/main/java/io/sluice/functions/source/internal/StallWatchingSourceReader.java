package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Gauge;

import io.sluice.functions.source.SourceStalledException;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * A source reader that fails when it holds splits but has read nothing from them for longer than
 * the stall timeout, instead of looking healthy while it waits forever.
 *
 * <p>Progress is whatever the reader's emitter marks on {@link SourceProgress} (rows, snapshot
 * chunks, binlog heartbeats), a split given or finished, or holding no split at all: an idle
 * database still sends heartbeats, so only a reader stuck below the emitter goes quiet. A stuck
 * reader's task waits for data that never comes, so a watch thread makes the reader look available
 * once the timeout passed; the task thread then polls it and, if still nothing came, fails with the
 * reader's splits named. A backpressured task does not poll at all, so it is not taken for stuck:
 * its next poll finds the records waiting.
 *
 * <p>It wraps any reader that says how many splits it holds: Flink CDC's ({@code SourceReaderBase})
 * and Sluice's binlog reader.
 */
@Internal
public final class StallWatchingSourceReader<T, SplitT extends SourceSplit>
        implements SourceReader<T, SplitT> {

    private final SourceReader<T, SplitT> reader;
    private final IntSupplier assignedSplits;
    private final SourceProgress progress;
    private final Duration timeout;
    private final String timeoutKey;
    private final int subtask;
    private final ScheduledExecutorService watch;
    private volatile boolean holdsSplits;
    private volatile CompletableFuture<Void> timedOut = new CompletableFuture<>();

    /**
     * @param reader the watched reader
     * @param assignedSplits how many splits {@code reader} holds now (called on the task thread)
     * @param progress what {@code reader} marks whenever it reads something
     */
    public StallWatchingSourceReader(
            SourceReader<T, SplitT> reader,
            IntSupplier assignedSplits,
            SourceProgress progress,
            Duration timeout,
            String timeoutKey,
            SourceReaderContext context) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "A stall watch needs a positive timeout, not " + timeout);
        }
        this.reader = reader;
        this.assignedSplits = assignedSplits;
        this.progress = progress;
        this.timeout = timeout;
        this.timeoutKey = timeoutKey;
        this.subtask = context.getIndexOfSubtask();
        this.watch =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "sluice-stall-watch-" + subtask);
                            thread.setDaemon(true);
                            return thread;
                        });
        context.metricGroup()
                .addGroup("sluice")
                .gauge(
                        "millisSinceProgress",
                        (Gauge<Long>) () -> holdsSplits ? progress.millisSince() : 0L);
    }

    @Override
    public void start() {
        progress.mark();
        reader.start();
        holdsSplits = assignedSplits.getAsInt() > 0;
        long period = Math.max(50L, timeout.toMillis() / 4);
        watch.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        int before = assignedSplits.getAsInt();
        InputStatus status = reader.pollNext(output);
        int after = assignedSplits.getAsInt();
        if (after != before || after == 0) {
            progress.mark();
        }
        holdsSplits = after > 0;
        if (timedOut.isDone()) {
            timedOut = new CompletableFuture<>();
            if (holdsSplits && stalled()) {
                throw new SourceStalledException(
                        String.format(
                                "Source subtask %d read nothing from its splits %s for %s"
                                        + " (no rows, snapshot chunks or binlog heartbeats; '%s'"
                                        + " = %s). It fails so that Flink restarts it from the"
                                        + " last checkpoint.",
                                subtask,
                                splitIds(),
                                Duration.ofMillis(progress.millisSince()),
                                timeoutKey,
                                timeout));
            }
        }
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> available = reader.isAvailable();
        return available.isDone()
                ? available
                : CompletableFuture.anyOf(available, timedOut).thenApply(ignored -> null);
    }

    @Override
    public void addSplits(List<SplitT> splits) {
        progress.mark();
        reader.addSplits(splits);
        holdsSplits = assignedSplits.getAsInt() > 0;
    }

    @Override
    public List<SplitT> snapshotState(long checkpointId) {
        return reader.snapshotState(checkpointId);
    }

    @Override
    public void notifyNoMoreSplits() {
        reader.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        reader.handleSourceEvents(event);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        reader.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<String> splitsToPause, Collection<String> splitsToResume) {
        reader.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void close() throws Exception {
        watch.shutdownNow();
        reader.close();
    }

    private void check() {
        if (holdsSplits && stalled()) {
            timedOut.complete(null);
        }
    }

    private boolean stalled() {
        return progress.millisSince() >= timeout.toMillis();
    }

    /** The splits the reader holds, by its own account (its checkpoint state). */
    private List<String> splitIds() {
        return reader.snapshotState(-1L).stream()
                .map(SourceSplit::splitId)
                .collect(Collectors.toList());
    }
}

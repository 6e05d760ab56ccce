package io.sluice.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the load generator committed: transactions, row changes (what Sluice turns into messages),
 * updates (a canal-json pipeline in Flink SQL writes two messages per update), and, when latency is
 * tracked, one latency sample per inserted row, keyed by its message key's table and id.
 */
public final class LoadStats {

    public final AtomicLong transactions = new AtomicLong();
    public final AtomicLong rows = new AtomicLong();
    final AtomicLong updates = new AtomicLong();

    /**
     * Per insert not yet paired: {@link #COMMITTING} until the load notes its commit, then its
     * commit time (≥ 0); or, when its message was read before the load noted the commit, minus one
     * minus the read time.
     */
    private final Map<String, Long> unpaired;

    private final List<Long> latencies = new ArrayList<>();

    private static final long COMMITTING = Long.MIN_VALUE;

    public LoadStats(boolean trackCommits) {
        this.unpaired = trackCommits ? new ConcurrentHashMap<>() : null;
    }

    void committed(int rowChanges, int updateRows) {
        transactions.incrementAndGet();
        rows.addAndGet(rowChanges);
        updates.addAndGet(updateRows);
    }

    boolean tracksCommits() {
        return unpaired != null;
    }

    /** Notes that the insert of {@code table}/{@code id} is about to commit. */
    void insertCommitting(String table, long id) {
        unpaired.put(keyOf(table, id), COMMITTING);
    }

    /**
     * Notes that the insert of {@code table}/{@code id} committed at {@code commitMillis}. Its
     * message may already have been read: the load notes commits after {@code commit()} returns,
     * and a fast pipeline can deliver in between.
     */
    void insertCommitted(String table, long id, long commitMillis) {
        unpaired.compute(
                keyOf(table, id),
                (key, read) -> {
                    if (read == null || read == COMMITTING) {
                        return commitMillis;
                    }
                    // Read before the commit was noted: the commit happened no later than the read.
                    sample(Math.max(0, -1 - read - commitMillis));
                    return null;
                });
    }

    /**
     * Notes that a message of {@code tableAndId} was read at {@code readMillis}. Messages of rows
     * not inserted by the load's tracked inserts, later changes of a row, and a message read again
     * (at-least-once) after its sample was taken are not sampled.
     */
    void inserted(String tableAndId, long readMillis) {
        unpaired.computeIfPresent(
                tableAndId,
                (key, committed) -> {
                    if (committed == COMMITTING) {
                        return -1 - readMillis;
                    }
                    if (committed < 0) {
                        return committed;
                    }
                    sample(readMillis - committed);
                    return null;
                });
    }

    private void sample(long millis) {
        synchronized (latencies) {
            latencies.add(millis);
        }
    }

    /** Latency samples in ms, one per insert committed and read. */
    List<Long> latencies() {
        synchronized (latencies) {
            return List.copyOf(latencies);
        }
    }

    /** Inserts committing or committed whose message was never read, as {@code table/id}. */
    List<String> unreadInserts() {
        List<String> unread = new ArrayList<>();
        unpaired.forEach(
                (key, value) -> {
                    if (value >= 0 || value == COMMITTING) {
                        unread.add(key);
                    }
                });
        return unread;
    }

    static String keyOf(String table, long id) {
        return table + '/' + id;
    }
}

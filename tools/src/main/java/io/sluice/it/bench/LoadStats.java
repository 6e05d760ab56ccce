package io.sluice.it.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the load generator committed: transactions, row changes (what Sluice turns into messages),
 * updates (a canal-json pipeline in Flink SQL writes two messages per update), and, when latency is
 * tracked, the commit time of each inserted row by its message key's table and id.
 */
public final class LoadStats {

    public final AtomicLong transactions = new AtomicLong();
    public final AtomicLong rows = new AtomicLong();
    final AtomicLong updates = new AtomicLong();
    private final Map<String, Long> insertCommits;

    public LoadStats(boolean trackCommits) {
        this.insertCommits = trackCommits ? new ConcurrentHashMap<>() : null;
    }

    void committed(int rowChanges, int updateRows) {
        transactions.incrementAndGet();
        rows.addAndGet(rowChanges);
        updates.addAndGet(updateRows);
    }

    boolean tracksCommits() {
        return insertCommits != null;
    }

    void insertCommitted(String table, long id, long commitMillis) {
        insertCommits.put(keyOf(table, id), commitMillis);
    }

    /** The commit time of the insert of {@code table}/{@code id}, removed; null if unknown. */
    Long takeCommit(String tableAndId) {
        return insertCommits == null ? null : insertCommits.remove(tableAndId);
    }

    static String keyOf(String table, long id) {
        return table + '/' + id;
    }
}

package io.sluice.functions.source.binlog;

import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Hands what the binlog reader's thread reads to the source's task thread, in order, in batches
 * that are reused: two batches, one filled by the reader while the task thread emits the other. The
 * task thread takes whatever the reader handed over so far, so a change waits for no batch to fill;
 * the reader waits when its batch is full and the task thread still holds the other (backpressure).
 *
 * <p>The reader stages entries on its own ({@link #add}) and hands them over together ({@link
 * #flush}, when it has read all the server sent so far, or a batch is full): one lock and at most
 * one wake-up of the task thread per read of the connection rather than per row or rows event.
 *
 * <p>An entry is a change (or null: a heartbeat or a statement not emitted), the position after it
 * (a change's in parts: its transaction's position and the counts, built only for the entry a
 * checkpoint needs, {@link Batch#after}), and the table schemas after it when a DDL statement
 * changed them.
 */
final class BinlogHandover {

    /** Entries handed over together; the task thread gives it back with {@link #recycle}. */
    static final class Batch {
        final ChangeEvent[] changes;
        final TableSchemas.State[] schemas;

        /**
         * An on-demand snapshot's entry: a chunk's rows (emitted together, so that no checkpoint
         * falls among them) and the snapshots' state after it; null for the rest.
         */
        final OnDemandSnapshots.Entry[] snapshots;

        /** The position after the entry, or its transaction's when {@link #events} is >= 0. */
        private final BinlogPosition[] positions;

        private final long[] events;
        private final long[] rows;
        int size;

        Batch(int capacity) {
            changes = new ChangeEvent[capacity];
            positions = new BinlogPosition[capacity];
            events = new long[capacity];
            rows = new long[capacity];
            schemas = new TableSchemas.State[capacity];
            snapshots = new OnDemandSnapshots.Entry[capacity];
        }

        /** The position after entry {@code i}. */
        BinlogPosition after(int i) {
            return events[i] < 0 ? positions[i] : positions[i].withCounts(events[i], rows[i]);
        }

        private void set(
                int i,
                @Nullable ChangeEvent change,
                BinlogPosition position,
                long events,
                long rows,
                @Nullable TableSchemas.State schemas,
                @Nullable OnDemandSnapshots.Entry snapshot) {
            this.changes[i] = change;
            this.positions[i] = position;
            this.events[i] = events;
            this.rows[i] = rows;
            this.schemas[i] = schemas;
            this.snapshots[i] = snapshot;
        }

        /** Entries {@code from..from+count} of {@code source} after this one's. */
        private void append(Batch source, int from, int count) {
            System.arraycopy(source.changes, from, changes, size, count);
            System.arraycopy(source.positions, from, positions, size, count);
            System.arraycopy(source.events, from, events, size, count);
            System.arraycopy(source.rows, from, rows, size, count);
            System.arraycopy(source.schemas, from, schemas, size, count);
            System.arraycopy(source.snapshots, from, snapshots, size, count);
            size += count;
        }

        private void clear() {
            Arrays.fill(changes, 0, size, null);
            Arrays.fill(positions, 0, size, null);
            Arrays.fill(schemas, 0, size, null);
            Arrays.fill(snapshots, 0, size, null);
            size = 0;
        }
    }

    private final int capacity;

    /** The reader thread's own: entries added, not handed over yet. */
    private final Batch staged;

    private Batch filling;
    private Batch spare;
    private Throwable failure;
    private boolean closed;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    BinlogHandover(int capacity) {
        this.capacity = capacity;
        this.staged = new Batch(capacity);
        this.filling = new Batch(capacity);
        this.spare = new Batch(capacity);
    }

    /**
     * Called by the reader's thread: one entry, handed over with those added before it. Waits while
     * the batch is full and the task thread holds the other; returns without adding once closed.
     */
    void put(
            @Nullable ChangeEvent change,
            BinlogPosition after,
            @Nullable TableSchemas.State schemas) {
        stage(change, after, -1, 0, schemas, null);
        flush();
    }

    /**
     * Called by the reader's thread (or, while it waits, by the thread that holds its output): an
     * on-demand snapshot's entry, at {@code after}, handed over with those added before it.
     */
    void put(OnDemandSnapshots.Entry snapshot, BinlogPosition after) {
        stage(null, after, -1, 0, null, snapshot);
        flush();
    }

    /**
     * Called by the reader's thread: a change whose position after it is {@code transaction} with
     * {@code events} rows events read and {@code rows} rows of the next emitted; handed over at the
     * next {@link #flush} (or when the staged entries fill a batch).
     */
    void add(ChangeEvent change, BinlogPosition transaction, long events, long rows) {
        stage(change, transaction, events, rows, null, null);
    }

    private void stage(
            @Nullable ChangeEvent change,
            BinlogPosition position,
            long events,
            long rows,
            @Nullable TableSchemas.State schemas,
            @Nullable OnDemandSnapshots.Entry snapshot) {
        if (staged.size == capacity) {
            flush();
        }
        staged.set(staged.size++, change, position, events, rows, schemas, snapshot);
    }

    /**
     * Called by the reader's thread: hands the staged entries over, waiting for room while the task
     * thread holds the other batch; drops them once closed.
     */
    void flush() {
        try {
            handOver();
        } finally {
            staged.clear(); // Handed over, or dropped once closed (or interrupted).
        }
    }

    private void handOver() {
        int from = 0;
        while (from < staged.size) {
            CompletableFuture<Void> wake = null;
            synchronized (this) {
                while (filling.size == capacity && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                int count = Math.min(staged.size - from, capacity - filling.size);
                if (filling.size == 0) {
                    wake = available;
                }
                filling.append(staged, from, count);
                from += count;
            }
            if (wake != null) {
                wake.complete(null);
            }
        }
    }

    /** Called by the reader's thread when it ends with {@code cause}, after what it staged. */
    void fail(Throwable cause) {
        flush();
        CompletableFuture<Void> wake;
        synchronized (this) {
            failure = cause;
            wake = available;
        }
        wake.complete(null);
    }

    /**
     * Called by the task thread: the entries handed over since the last call, or null when none.
     * The batch must be given back ({@link #recycle}) before the next call.
     *
     * @throws Exception the reader's failure, once every entry before it was taken
     */
    synchronized Batch poll() throws Exception {
        if (filling.size == 0) {
            if (failure != null) {
                throw failure instanceof Exception
                        ? (Exception) failure
                        : new RuntimeException(failure);
            }
            return null;
        }
        if (spare == null) {
            throw new IllegalStateException("The last batch was not given back");
        }
        Batch taken = filling;
        filling = spare;
        spare = null;
        notifyAll();
        return taken;
    }

    /** Called by the task thread: a batch it took, emitted. */
    synchronized void recycle(Batch batch) {
        batch.clear();
        spare = batch;
    }

    /** Completes when an entry or a failure waits for {@link #poll}. */
    synchronized CompletableFuture<Void> available() {
        if (filling.size > 0 || failure != null) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    /** Lets a waiting reader thread go; later entries are dropped. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }
}

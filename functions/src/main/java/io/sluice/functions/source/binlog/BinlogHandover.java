package io.sluice.functions.source.binlog;

import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Hands what the binlog reader's thread reads to the source's task thread, in order, in batches
 * that are reused: two batches, one filled by the reader while the task thread emits the other. The
 * task thread takes whatever the reader put in so far, so a change waits for no batch to fill; the
 * reader waits when its batch is full and the task thread still holds the other (backpressure).
 *
 * <p>An entry is a change (or null: a heartbeat or a statement not emitted), the position after it,
 * and the table schemas after it when a DDL statement changed them.
 */
final class BinlogHandover {

    /** Entries handed over together; the task thread gives it back with {@link #recycle}. */
    static final class Batch {
        final ChangeEvent[] changes;
        final BinlogPosition[] positions;
        final TableSchemas.State[] schemas;
        int size;

        Batch(int capacity) {
            changes = new ChangeEvent[capacity];
            positions = new BinlogPosition[capacity];
            schemas = new TableSchemas.State[capacity];
        }

        private void clear() {
            Arrays.fill(changes, 0, size, null);
            Arrays.fill(positions, 0, size, null);
            Arrays.fill(schemas, 0, size, null);
            size = 0;
        }
    }

    private final int capacity;
    private Batch filling;
    private Batch spare;
    private Throwable failure;
    private boolean closed;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    BinlogHandover(int capacity) {
        this.capacity = capacity;
        this.filling = new Batch(capacity);
        this.spare = new Batch(capacity);
    }

    /**
     * Called by the reader's thread: one entry. Waits while the batch is full and the task thread
     * holds the other; returns without adding once closed.
     */
    void put(
            @Nullable ChangeEvent change,
            BinlogPosition after,
            @Nullable TableSchemas.State schemas) {
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
            int i = filling.size++;
            filling.changes[i] = change;
            filling.positions[i] = after;
            filling.schemas[i] = schemas;
            if (i == 0) {
                wake = available;
            }
        }
        if (wake != null) {
            wake.complete(null);
        }
    }

    /** Called by the reader's thread when it ends with {@code cause}. */
    void fail(Throwable cause) {
        CompletableFuture<Void> wake;
        synchronized (this) {
            failure = cause;
            wake = available;
        }
        wake.complete(null);
    }

    /**
     * Called by the task thread: the entries put since the last call, or null when none. The batch
     * must be given back ({@link #recycle}) before the next call.
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

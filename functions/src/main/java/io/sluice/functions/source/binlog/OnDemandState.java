package io.sluice.functions.source.binlog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The on-demand snapshots' progress as of one point of the binlog: the queue of requests (the first
 * one being read), the key of the last row of the last chunk emitted (empty before the first), and
 * the chunks and rows emitted so far. Immutable; a checkpoint stores it next to the binlog position
 * in the split's offset map ({@link #KEY}), which an older savepoint lacks: none queued then.
 */
public final class OnDemandState {

    /** The offset-map key that holds the state; absent when nothing is queued. */
    static final String KEY = "sluice_on_demand";

    private static final int VERSION = 1;

    static final OnDemandState EMPTY =
            new OnDemandState(List.of(), List.of(), 0, 0, List.of(), List.of());

    private final List<SnapshotRequest> queue;
    private final List<String> lastKey;
    private final long chunks;
    private final long rows;

    /**
     * Ids of the signals taken (requests and stops), so that a replayed signal is not taken twice.
     */
    private final List<String> seen;

    /** Tables that appeared while the job ran and are left out (new-tables: ignore). */
    private final List<String> ignored;

    private OnDemandState(
            List<SnapshotRequest> queue,
            List<String> lastKey,
            long chunks,
            long rows,
            List<String> seen,
            List<String> ignored) {
        this.queue = List.copyOf(queue);
        this.lastKey = List.copyOf(lastKey);
        this.chunks = chunks;
        this.rows = rows;
        this.seen = List.copyOf(seen);
        this.ignored = List.copyOf(ignored);
    }

    /** The tables left out as new, database.table. */
    List<String> ignored() {
        return ignored;
    }

    /** With {@code table} (database.table) left out as new. */
    OnDemandState ignoring(String table) {
        List<String> more = new ArrayList<>(ignored);
        more.add(table);
        return new OnDemandState(queue, lastKey, chunks, rows, seen, more);
    }

    /** How many signal ids are remembered against replays. */
    private static final int SEEN_KEPT = 256;

    List<SnapshotRequest> queue() {
        return queue;
    }

    /** The request being read, null when none is queued. */
    SnapshotRequest current() {
        return queue.isEmpty() ? null : queue.get(0);
    }

    /** The last key emitted of the current request, each column's value as bound in the query. */
    List<String> lastKey() {
        return lastKey;
    }

    long chunks() {
        return chunks;
    }

    long rows() {
        return rows;
    }

    boolean seen(String signalId) {
        return seen.contains(signalId);
    }

    /** With {@code request} queued last and its signal id remembered. */
    OnDemandState queued(SnapshotRequest request) {
        List<SnapshotRequest> more = new ArrayList<>(queue);
        more.add(request);
        return new OnDemandState(more, lastKey, chunks, rows, remember(request.id()), ignored);
    }

    /** With signal {@code id} remembered, nothing else changed. */
    OnDemandState remembered(String id) {
        return new OnDemandState(queue, lastKey, chunks, rows, remember(id), ignored);
    }

    /** After a chunk of the current request: its last key and its rows. */
    OnDemandState chunkDone(List<String> key, int emitted) {
        return new OnDemandState(queue, key, chunks + 1, rows + emitted, seen, ignored);
    }

    /** The current request done (or stopped): the next one starts from its first row. */
    OnDemandState next() {
        return new OnDemandState(queue.subList(1, queue.size()), List.of(), 0, 0, seen, ignored);
    }

    /** Without the requests {@code stopped} says to drop. */
    OnDemandState without(List<SnapshotRequest> stopped, String signalId) {
        List<SnapshotRequest> left = new ArrayList<>(queue);
        boolean currentStopped = !queue.isEmpty() && stopped.contains(queue.get(0));
        left.removeAll(stopped);
        return currentStopped
                ? new OnDemandState(left, List.of(), 0, 0, remember(signalId), ignored)
                : new OnDemandState(left, lastKey, chunks, rows, remember(signalId), ignored);
    }

    private List<String> remember(String id) {
        List<String> ids = new ArrayList<>(seen);
        ids.add(id);
        return ids.size() > SEEN_KEPT ? ids.subList(ids.size() - SEEN_KEPT, ids.size()) : ids;
    }

    /** The state a checkpoint's offset map holds; {@link #EMPTY} when it holds none. */
    static OnDemandState of(Map<String, String> offset) {
        String text = offset.get(KEY);
        return text == null || text.isEmpty() ? EMPTY : decode(text);
    }

    /** Puts this state into {@code offset}, or nothing when it is empty. */
    void into(Map<String, String> offset) {
        if (!equals(EMPTY)) {
            offset.put(KEY, encode());
        }
    }

    String encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION);
            out.writeInt(queue.size());
            for (SnapshotRequest request : queue) {
                out.writeUTF(request.id());
                out.writeUTF(request.database());
                out.writeUTF(request.table());
                out.writeBoolean(request.condition() != null);
                if (request.condition() != null) {
                    out.writeUTF(request.condition());
                }
            }
            out.writeInt(lastKey.size());
            for (String value : lastKey) {
                out.writeBoolean(value != null);
                if (value != null) {
                    out.writeUTF(value);
                }
            }
            out.writeLong(chunks);
            out.writeLong(rows);
            out.writeInt(seen.size());
            for (String id : seen) {
                out.writeUTF(id);
            }
            out.writeInt(ignored.size());
            for (String table : ignored) {
                out.writeUTF(table);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    static OnDemandState decode(String text) {
        try (DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IllegalArgumentException(
                        String.format(
                                "Unknown version %d of the on-demand snapshot state under the"
                                        + " offset key '%s'; this Sluice reads version %d",
                                version, KEY, VERSION));
            }
            List<SnapshotRequest> queue = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                String id = in.readUTF();
                String database = in.readUTF();
                String table = in.readUTF();
                String condition = in.readBoolean() ? in.readUTF() : null;
                queue.add(new SnapshotRequest(id, database, table, condition));
            }
            List<String> key = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                key.add(in.readBoolean() ? in.readUTF() : null);
            }
            long chunks = in.readLong();
            long rows = in.readLong();
            List<String> seen = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                seen.add(in.readUTF());
            }
            List<String> ignored = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                ignored.add(in.readUTF());
            }
            return new OnDemandState(queue, key, chunks, rows, seen, ignored);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read the on-demand snapshot state under the offset key '" + KEY + "'",
                    e);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OnDemandState)) {
            return false;
        }
        OnDemandState that = (OnDemandState) o;
        return chunks == that.chunks
                && rows == that.rows
                && queue.equals(that.queue)
                && lastKey.equals(that.lastKey)
                && seen.equals(that.seen)
                && ignored.equals(that.ignored);
    }

    @Override
    public int hashCode() {
        return Objects.hash(queue, lastKey, chunks, rows, seen, ignored);
    }

    @Override
    public String toString() {
        return queue.isEmpty()
                ? "no snapshot queued"
                : String.format(
                        "%s: %d chunks, %d rows emitted, after key %s; %d more queued",
                        queue.get(0), chunks, rows, lastKey, queue.size() - 1);
    }
}

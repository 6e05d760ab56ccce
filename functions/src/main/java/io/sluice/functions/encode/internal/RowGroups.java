package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the rows of one binlog rows event into one message per (topic, partition, rank), as
 * Canal writes an event's rows ({@code format.group-rows: event}). One per encoding subtask; it
 * shares the subtask's encoder and large-message guard.
 *
 * <p>The open groups all belong to one event: a row of another event writes them all first. A row
 * starts another event when its server id, binlog file or position differs, or when its index in
 * the event does not follow the last one's: on MariaDB every rows event of a transaction carries
 * the transaction's start position (see {@code ChangeRecordConverter}), and each event counts its
 * rows from 0. The two halves of a split primary-key change share an index and differ in type.
 * Within a group rows keep their arrival order, and one partition has one open group per rank, so
 * every key's changes leave in the order they came. A row that would take its group's row data
 * beyond the size bound, or of another type or table version (a primary-key change split into
 * DELETE and INSERT), writes the group first.
 *
 * <p>A message of several rows has no key (Canal writes none); one row keeps its key. A message of
 * several rows above its sink's limit is written one row per message instead, each judged by the
 * large-message policy, so a single oversized row meets the configured policy as without grouping.
 */
@Internal
public final class RowGroups {

    /** Where written messages go, with the rank of their group and how many rows. */
    public interface Emitter {
        void emit(SinkMessage message, long rank, int rows);
    }

    /** Per column: its name and framing in the message, roughly. */
    private static final int COLUMN_OVERHEAD = 16;

    private final ChangeEncoder encoder;
    private final LargeMessageGuard guard;
    private final long maxBytes;
    private final List<Group> open = new ArrayList<>();
    private final List<Group> spare = new ArrayList<>();
    private final List<ChangeEvent> one = new ArrayList<>(1);
    private Group last;
    private long nextId = 1;
    private long serverId;
    private String binlogFile;
    private long binlogPosition;
    private int lastRow;
    private ChangeType lastType;

    /**
     * @param guard the large-message policy, or null for no check (tests that write to no broker)
     * @param maxBytes about the largest row data one message takes
     */
    public RowGroups(ChangeEncoder encoder, LargeMessageGuard guard, long maxBytes) {
        this.encoder = encoder;
        this.guard = guard;
        this.maxBytes = maxBytes;
        one.add(null);
    }

    /** Whether {@code change} may share a message: a row read from the binlog. */
    public static boolean groupable(ChangeEvent change) {
        return change.isRow() && !change.binlogFile().isEmpty();
    }

    /** The next message id; the caller's own messages take theirs from here too. */
    public long nextId() {
        return nextId++;
    }

    /** Whether some row waits in a group. */
    public boolean isPending() {
        return !open.isEmpty();
    }

    /**
     * Adds a {@link #groupable} row, bound for {@code topic} and {@code partition} with {@code
     * rank}; writes the groups it closes to {@code out}.
     *
     * @param row the change as the message carries it
     * @param key the row's message key
     * @param tag the message's tag (the table)
     */
    public void add(
            ChangeEvent row,
            String topic,
            int partition,
            byte[] key,
            String tag,
            long rank,
            Emitter out) {
        if (!open.isEmpty() && !ofOpenEvent(row)) {
            flush(out);
        }
        if (open.isEmpty()) {
            serverId = row.serverId();
            binlogFile = row.binlogFile();
            binlogPosition = row.binlogPosition();
        }
        lastRow = row.rowInEvent();
        lastType = row.type();
        long bytes = estimate(row);
        Group group = find(topic, partition, rank);
        if (group == null) {
            group = spare.isEmpty() ? new Group() : spare.remove(spare.size() - 1);
            group.open(topic, partition, rank, tag);
            open.add(group);
        } else if (!group.takes(row, bytes, maxBytes)) {
            write(group, out);
        }
        group.add(row, key, bytes);
        last = group;
    }

    /** Writes every open group to {@code out}, in the order they were opened. */
    public void flush(Emitter out) {
        for (int i = 0, n = open.size(); i < n; i++) {
            Group group = open.get(i);
            if (!group.rows.isEmpty()) {
                write(group, out);
            }
            spare.add(group);
        }
        open.clear();
        last = null;
    }

    private boolean ofOpenEvent(ChangeEvent row) {
        int index = row.rowInEvent();
        return row.binlogPosition() == binlogPosition
                && row.serverId() == serverId
                && (index > lastRow || index == lastRow && row.type() != lastType)
                && row.binlogFile().equals(binlogFile);
    }

    private Group find(String topic, int partition, long rank) {
        if (last != null && last.is(topic, partition, rank)) {
            return last;
        }
        for (int i = 0, n = open.size(); i < n; i++) {
            Group group = open.get(i);
            if (group.is(topic, partition, rank)) {
                return group;
            }
        }
        return null;
    }

    private void write(Group group, Emitter out) {
        List<ChangeEvent> rows = group.rows;
        int n = rows.size();
        long id = nextId++;
        byte[] value = encoder.encode(rows, id, System.currentTimeMillis());
        SinkMessage message = group.message(n == 1 ? group.keys.get(0) : null, value);
        if (guard == null) {
            out.emit(message, group.rank, n);
        } else if (n == 1) {
            out.emit(guard.check(rows.get(0), message, id), group.rank, 1);
        } else if (guard.fits(message)) {
            out.emit(message, group.rank, n);
        } else {
            for (int i = 0; i < n; i++) {
                writeAlone(group, rows.get(i), group.keys.get(i), out);
            }
        }
        group.clear();
    }

    private void writeAlone(Group group, ChangeEvent row, byte[] key, Emitter out) {
        long id = nextId++;
        one.set(0, row);
        byte[] value;
        try {
            value = encoder.encode(one, id, System.currentTimeMillis());
        } finally {
            one.set(0, null);
        }
        out.emit(guard.check(row, group.message(key, value), id), group.rank, 1);
    }

    /** About the bytes {@code row} adds to a message: its images and its column names. */
    private static long estimate(ChangeEvent row) {
        return bytesOf(row.before())
                + bytesOf(row.after())
                + (long) COLUMN_OVERHEAD * row.schema().columnCount();
    }

    private static int bytesOf(RowImage image) {
        return image == null ? 0 : image.utf8().length;
    }

    private static boolean sameSchema(TableSchema a, TableSchema b) {
        return a == b || a.equals(b);
    }

    /** The rows waiting for one message, and where it goes. */
    private static final class Group {
        final List<ChangeEvent> rows = new ArrayList<>();
        final List<byte[]> keys = new ArrayList<>();
        String topic;
        int partition;
        long rank;
        String tag;
        long bytes;

        void open(String topic, int partition, long rank, String tag) {
            this.topic = topic;
            this.partition = partition;
            this.rank = rank;
            this.tag = tag;
        }

        boolean is(String topic, int partition, long rank) {
            return this.partition == partition && this.rank == rank && this.topic.equals(topic);
        }

        /** Whether {@code row} may join the rows already here (an empty group takes any). */
        boolean takes(ChangeEvent row, long rowBytes, long maxBytes) {
            if (rows.isEmpty()) {
                return true;
            }
            ChangeEvent first = rows.get(0);
            return first.type() == row.type()
                    && sameSchema(first.schema(), row.schema())
                    && bytes + rowBytes <= maxBytes;
        }

        void add(ChangeEvent row, byte[] key, long rowBytes) {
            rows.add(row);
            keys.add(key);
            bytes += rowBytes;
        }

        SinkMessage message(byte[] key, byte[] value) {
            return new SinkMessage(topic, partition, key, value, rows.get(0).executeTime(), tag);
        }

        void clear() {
            rows.clear();
            keys.clear();
            bytes = 0;
        }
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffsetKind;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where the binlog reader resumes so that exactly the changes after a given one come next: the
 * binlog file, the position of the transaction's first event, how many rows events of that
 * transaction were read, how many rows of the next one were emitted, the GTID set before the
 * transaction (MySQL {@code uuid:1-5,...} or MariaDB {@code domain-server-seq,...}; "" when not
 * known), the id of the server that wrote it, and the server whose binlog the file and position are
 * in ({@link #binlogServer()}: after a failover another server's file of the same name is another
 * binlog, so only the GTID set says where to go on there).
 *
 * <p>Positions compare as (file, position, events, rows), rows included: Flink CDC's {@code
 * BinlogOffset.compareTo} leaves the rows out when both offsets carry the same GTID set (upstream
 * FLINK-38531), so two positions inside one rows event compare equal there.
 *
 * <p>Stored as Flink CDC's {@link BinlogOffset} under its keys. Flink CDC (Debezium) counts in
 * {@code event} every event from the transaction's BEGIN, not rows events only; a position read
 * from an offset Sluice did not write ({@link #fromBinlogOffset}) keeps that count ({@link
 * #countsAllEvents()}) and the reader skips by it.
 */
public final class BinlogPosition implements Comparable<BinlogPosition>, Serializable {

    private static final long serialVersionUID = 1L;

    /** The offset key that marks {@code event} as Sluice's count of rows events. */
    static final String ROWS_EVENTS_KEY = "sluice_rows_events";

    /** The offset key of {@link #binlogServer()}. */
    static final String BINLOG_SERVER_KEY = "sluice_binlog_server";

    private final String file;
    private final long position;
    private final long events;
    private final long rows;
    private final String gtids;
    private final long serverId;
    private final boolean countsAllEvents;
    private final String binlogServer;

    private BinlogPosition(
            String file,
            long position,
            long events,
            long rows,
            String gtids,
            long serverId,
            boolean countsAllEvents,
            String binlogServer) {
        this.file = Objects.requireNonNull(file, "file");
        if (position < 0 || events < 0 || rows < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "A binlog position needs position, events and rows >= 0, got %s:%d"
                                    + " events=%d rows=%d",
                            file, position, events, rows));
        }
        this.position = position;
        this.events = events;
        this.rows = rows;
        this.gtids = gtids == null ? "" : gtids.trim();
        this.serverId = serverId;
        this.countsAllEvents = countsAllEvents;
        this.binlogServer = binlogServer == null ? "" : binlogServer;
    }

    /** The start of a transaction (or the binlog's next event) at {@code file:position}. */
    public static BinlogPosition at(String file, long position) {
        return new BinlogPosition(file, position, 0, 0, "", 0, false, "");
    }

    /**
     * The start after the GTID set {@code gtids} (MySQL {@code uuid:1-5,...}, MariaDB {@code
     * domain-server-seq,...}) alone: no file yet, the server finds where to start.
     *
     * @throws IllegalArgumentException if {@code gtids} is blank
     */
    public static BinlogPosition afterGtids(String gtids) {
        if (gtids == null || gtids.isBlank()) {
            throw new IllegalArgumentException("A start at a GTID set needs a GTID set, got none");
        }
        return new BinlogPosition("", 0, 0, 0, gtids, 0, false, "");
    }

    /**
     * @param events rows events of the transaction already read
     * @param rows rows of the next rows event already emitted
     * @param gtids the GTID set before the transaction, "" when not known
     */
    public static BinlogPosition of(
            String file, long position, long events, long rows, String gtids, long serverId) {
        return new BinlogPosition(file, position, events, rows, gtids, serverId, false, "");
    }

    /** The same, in the binlog of {@code binlogServer} ({@link #binlogServer()}). */
    public static BinlogPosition of(
            String file,
            long position,
            long events,
            long rows,
            String gtids,
            long serverId,
            String binlogServer) {
        return new BinlogPosition(
                file, position, events, rows, gtids, serverId, false, binlogServer);
    }

    /**
     * This position, its file and position in the binlog of {@code server}: its {@code server_uuid}
     * (MySQL) or {@code server_id} (MariaDB), "" when not known.
     */
    public BinlogPosition inBinlogOf(String server) {
        return new BinlogPosition(
                file, position, events, rows, gtids, serverId, countsAllEvents, server);
    }

    /** This position with {@code gtids} as the set before the transaction. */
    public BinlogPosition withGtids(String gtids) {
        return new BinlogPosition(
                file, position, events, rows, gtids, serverId, countsAllEvents, binlogServer);
    }

    /**
     * This transaction's position with {@code events} rows events read and {@code rows} rows of the
     * next emitted.
     */
    BinlogPosition withCounts(long events, long rows) {
        return new BinlogPosition(
                file, position, events, rows, gtids, serverId, countsAllEvents, binlogServer);
    }

    /**
     * The position of a Flink CDC offset with a file (a checkpointed binlog split's), the same
     * point in the binlog; an offset Sluice wrote comes back as it was.
     *
     * @throws IllegalArgumentException if the offset names no file (earliest, latest, timestamp or
     *     GTID-only offsets are resolved by the enumerator, not here)
     */
    public static BinlogPosition fromBinlogOffset(BinlogOffset offset) {
        String file = offset.getFilename();
        if (file == null || file.isEmpty()) {
            throw new IllegalArgumentException(
                    "The Flink CDC offset " + offset + " names no binlog file");
        }
        Long serverId = offset.getServerId();
        return new BinlogPosition(
                file,
                offset.getPosition(),
                offset.getRestartSkipEvents(),
                offset.getRestartSkipRows(),
                offset.getGtidSet(),
                serverId == null ? 0 : serverId,
                !"true".equals(offset.getOffset().get(ROWS_EVENTS_KEY)),
                offset.getOffset().get(BINLOG_SERVER_KEY));
    }

    /** This position as a Flink CDC offset, under its keys, for the binlog split. */
    public BinlogOffset toBinlogOffset() {
        Map<String, String> offset = new HashMap<>();
        offset.put(BinlogOffset.OFFSET_KIND_KEY, String.valueOf(BinlogOffsetKind.SPECIFIC));
        offset.put(BinlogOffset.BINLOG_FILENAME_OFFSET_KEY, file);
        offset.put(BinlogOffset.BINLOG_POSITION_OFFSET_KEY, String.valueOf(position));
        offset.put(BinlogOffset.EVENTS_TO_SKIP_OFFSET_KEY, String.valueOf(events));
        offset.put(BinlogOffset.ROWS_TO_SKIP_OFFSET_KEY, String.valueOf(rows));
        offset.put(BinlogOffset.SERVER_ID_KEY, String.valueOf(serverId));
        if (!gtids.isEmpty()) {
            offset.put(BinlogOffset.GTID_SET_KEY, gtids);
        }
        if (!countsAllEvents) {
            offset.put(ROWS_EVENTS_KEY, "true");
        }
        if (!binlogServer.isEmpty()) {
            offset.put(BINLOG_SERVER_KEY, binlogServer);
        }
        return new BinlogOffset(offset);
    }

    public String file() {
        return file;
    }

    /** The position of the transaction's first event in {@link #file()}. */
    public long position() {
        return position;
    }

    /** Rows events of the transaction already read (every event, see {@link #countsAllEvents}). */
    public long events() {
        return events;
    }

    /** Rows of the next rows event already emitted. */
    public long rows() {
        return rows;
    }

    /** The GTID set before the transaction; "" when not known. */
    public String gtids() {
        return gtids;
    }

    /** The id of the server that wrote the event (on a replica: the primary's). */
    public long serverId() {
        return serverId;
    }

    /**
     * The server whose binlog {@link #file()} and {@link #position()} are in: its {@code
     * server_uuid} (MySQL) or {@code server_id} (MariaDB); "" when not known (a position Sluice did
     * not read, or read before it recorded the server).
     */
    public String binlogServer() {
        return binlogServer;
    }

    /**
     * Whether {@link #events()} counts every event from {@link #position()} (a Flink CDC offset)
     * rather than rows events only.
     */
    public boolean countsAllEvents() {
        return countsAllEvents;
    }

    @Override
    public int compareTo(BinlogPosition other) {
        int byFile = compareFiles(file, other.file);
        if (byFile != 0) {
            return byFile;
        }
        int byPosition = Long.compare(position, other.position);
        if (byPosition != 0) {
            return byPosition;
        }
        int byEvents = Long.compare(events, other.events);
        return byEvents != 0 ? byEvents : Long.compare(rows, other.rows);
    }

    /** By the file's number ({@code mysql-bin.000010} after {@code .000009}), then by name. */
    private static int compareFiles(String a, String b) {
        int dotA = a.lastIndexOf('.');
        int dotB = b.lastIndexOf('.');
        if (dotA > 0 && dotB > 0 && a.substring(0, dotA).equals(b.substring(0, dotB))) {
            try {
                return Long.compare(
                        Long.parseLong(a.substring(dotA + 1)),
                        Long.parseLong(b.substring(dotB + 1)));
            } catch (NumberFormatException e) {
                // Not numbered: by name.
            }
        }
        return a.compareTo(b);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BinlogPosition)) {
            return false;
        }
        BinlogPosition that = (BinlogPosition) o;
        return position == that.position
                && events == that.events
                && rows == that.rows
                && serverId == that.serverId
                && countsAllEvents == that.countsAllEvents
                && file.equals(that.file)
                && gtids.equals(that.gtids)
                && binlogServer.equals(that.binlogServer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(file, position, events, rows, gtids, serverId);
    }

    @Override
    public String toString() {
        return file
                + ":"
                + position
                + " events="
                + events
                + (countsAllEvents ? "(all)" : "")
                + " rows="
                + rows
                + (gtids.isEmpty() ? "" : " gtids=" + gtids)
                + " server="
                + serverId
                + (binlogServer.isEmpty() ? "" : " in the binlog of " + binlogServer);
    }
}

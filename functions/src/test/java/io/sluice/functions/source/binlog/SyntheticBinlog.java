package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.MariadbGtidSet;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.PreviousGtidSetEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * A binlog as MySQL 8.0 or MariaDB 11.4 writes it, built a statement at a time with the binlog
 * client's event data classes as the reader receives them, and what the server sends a new
 * connection: from a file position ({@link #fromFilePosition}) or after a GTID set ({@link
 * #fromGtids}). Every table has one INT key column, {@code id}.
 *
 * <p>What each server writes (as {@code SHOW BINLOG EVENTS} shows it):
 *
 * <ul>
 *   <li>MySQL: a file opens with FORMAT_DESCRIPTION and PREVIOUS_GTIDS; a transaction is GTID,
 *       {@code BEGIN}, table map and v2 rows events per statement, XID (or a {@code COMMIT} query
 *       for a non-transactional table); DDL is GTID and the statement. Every event states its end.
 *   <li>MariaDB: a file opens with FORMAT_DESCRIPTION, GTID_LIST and a binlog checkpoint (type 161,
 *       unknown to the client); a transaction is a GTID event (no {@code BEGIN}: the GTID opens
 *       it), annotate-rows, table map and v1 rows events per statement, XID (or {@code COMMIT});
 *       DDL is a GTID event with FL_STANDALONE and the statement. With {@code
 *       binlog_legacy_event_pos=OFF} (11.4's default) the events after a transaction's GTID event
 *       state no end position (0); the GTID event and DDL do.
 *   <li>Both: a full file ends with a ROTATE naming the next one.
 * </ul>
 */
final class SyntheticBinlog {

    static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    static final long SERVER_ID = 1;
    static final long TIME = 1_700_000_000_000L;
    static final String DATABASE = "shop";

    enum Server {
        MYSQL,
        MARIADB
    }

    /** An event where the server keeps it; a heartbeat is not in the file but sent there. */
    private static final class Placed {
        final String file;
        final long at;
        final long group;
        final Event event;

        Placed(String file, long at, long group, Event event) {
            this.file = file;
            this.at = at;
            this.group = group;
            this.event = event;
        }

        boolean isHeartbeat() {
            return event.getHeader().getEventType() == EventType.HEARTBEAT;
        }
    }

    private final Server server;
    private final List<Placed> placed = new ArrayList<>();
    private final Map<String, Long> tableIds;
    private String file;
    private long next;

    /** The open group's GTID sequence, 0 between groups. */
    private long group;

    /** The last group's GTID sequence: what a new file's GTID list or previous set holds. */
    private long last;

    private long lastEventAt;

    private SyntheticBinlog(Server server, String file, long last, Map<String, Long> tableIds) {
        this.server = server;
        this.last = last;
        this.tableIds = tableIds;
        openFile(file);
    }

    /** MySQL 8.0's binlog from {@code file}'s start, after {@code UUID:1-last}. */
    static SyntheticBinlog mySql(String file, long last, Map<String, Long> tableIds) {
        return new SyntheticBinlog(Server.MYSQL, file, last, tableIds);
    }

    /** MariaDB 11.4's binlog from {@code file}'s start, after {@code 0-1-last}. */
    static SyntheticBinlog mariaDb(String file, long last, Map<String, Long> tableIds) {
        return new SyntheticBinlog(Server.MARIADB, file, last, tableIds);
    }

    /** The GTID set of the groups written so far, as the server states it. */
    String gtids() {
        return gtids(last);
    }

    private String gtids(long upTo) {
        return server == Server.MYSQL ? UUID + ":1-" + upTo : "0-" + SERVER_ID + "-" + upTo;
    }

    /** A group's GTID, as a change carries it. */
    String gtid(long sequence) {
        return server == Server.MYSQL ? UUID + ":" + sequence : "0-" + SERVER_ID + "-" + sequence;
    }

    String file() {
        return file;
    }

    /** Where the next event starts in {@link #file()}. */
    long position() {
        return next;
    }

    /** Where the last event of the file starts (a statement's rows event, a DDL's query). */
    long lastEventAt() {
        return lastEventAt;
    }

    /** A transaction (of a transactional table) with GTID {@code sequence} begins. */
    SyntheticBinlog begin(long sequence) {
        return begin(
                sequence,
                MariadbGtidEventData.FL_TRANSACTIONAL | MariadbGtidEventData.FL_ALLOW_PARALLEL);
    }

    /** A statement on a non-transactional table (MyISAM) begins, ended by {@link #commit()}. */
    SyntheticBinlog beginNonTransactional(long sequence) {
        return begin(sequence, MariadbGtidEventData.FL_ALLOW_PARALLEL);
    }

    private SyntheticBinlog begin(long sequence, int mariaDbFlags) {
        gtidEvent(sequence, mariaDbFlags);
        if (server == Server.MYSQL) {
            add(query("BEGIN"), EventType.QUERY, 73, true);
        }
        return this;
    }

    SyntheticBinlog insert(String table, int... ids) {
        WriteRowsEventData rows = new WriteRowsEventData();
        rows.setTableId(tableId(table));
        rows.setIncludedColumns(allColumns());
        rows.setRows(rows(ids));
        return statement(
                table,
                rows,
                server == Server.MYSQL ? EventType.EXT_WRITE_ROWS : EventType.WRITE_ROWS,
                ids.length);
    }

    /** An UPDATE of each row that leaves its key as it is. */
    SyntheticBinlog update(String table, int... ids) {
        UpdateRowsEventData rows = new UpdateRowsEventData();
        rows.setTableId(tableId(table));
        rows.setIncludedColumnsBeforeUpdate(allColumns());
        rows.setIncludedColumns(allColumns());
        List<Map.Entry<Serializable[], Serializable[]>> pairs = new ArrayList<>();
        for (int id : ids) {
            pairs.add(new AbstractMap.SimpleEntry<>(row(id), row(id)));
        }
        rows.setRows(pairs);
        return statement(
                table,
                rows,
                server == Server.MYSQL ? EventType.EXT_UPDATE_ROWS : EventType.UPDATE_ROWS,
                2 * ids.length);
    }

    SyntheticBinlog delete(String table, int... ids) {
        DeleteRowsEventData rows = new DeleteRowsEventData();
        rows.setTableId(tableId(table));
        rows.setIncludedColumns(allColumns());
        rows.setRows(rows(ids));
        return statement(
                table,
                rows,
                server == Server.MYSQL ? EventType.EXT_DELETE_ROWS : EventType.DELETE_ROWS,
                ids.length);
    }

    /** One statement's events: its text (MariaDB), its table map, its one rows event. */
    private SyntheticBinlog statement(String table, EventData rows, EventType type, int images) {
        if (server == Server.MARIADB) {
            // Its text unread: the reader's deserializer reads it only when queries are wanted.
            add(null, EventType.ANNOTATE_ROWS, 60, false);
        }
        TableMapEventData map = new TableMapEventData();
        map.setTableId(tableId(table));
        map.setDatabase(DATABASE);
        map.setTable(table);
        map.setColumnTypes(new byte[] {(byte) ColumnType.LONG.getCode()});
        map.setColumnMetadata(new int[] {0});
        map.setColumnNullability(new BitSet());
        add(map, EventType.TABLE_MAP, 40 + table.length(), false);
        add(rows, type, 30 + 5 * images, false);
        return this;
    }

    /** The transaction ends with an XID event. */
    SyntheticBinlog xid() {
        XidEventData xid = new XidEventData();
        xid.setXid(1000 + group);
        add(xid, EventType.XID, 31, false);
        return endGroup();
    }

    /** The group ends with a {@code COMMIT} query (a non-transactional table's statement). */
    SyntheticBinlog commit() {
        add(query("COMMIT"), EventType.QUERY, 74, false);
        return endGroup();
    }

    /** A DDL statement, a group of its own: GTID, the statement. */
    SyntheticBinlog ddl(long sequence, String sql) {
        gtidEvent(sequence, MariadbGtidEventData.FL_STANDALONE | MariadbGtidEventData.FL_DDL);
        add(query(sql), EventType.QUERY, 60 + sql.length(), true);
        return endGroup();
    }

    /** A heartbeat the server sends here, when it has nothing more to send for a while. */
    SyntheticBinlog heartbeat() {
        placed.add(new Placed(file, next, group, heartbeat(next)));
        return this;
    }

    /** The file is full: a ROTATE to {@code nextFile}, which opens with its header events. */
    SyntheticBinlog rotate(String nextFile) {
        add(rotateData(nextFile, 4), EventType.ROTATE, 44 + nextFile.length(), true);
        openFile(nextFile);
        return this;
    }

    private void openFile(String name) {
        file = name;
        next = 4;
        FormatDescriptionEventData format = new FormatDescriptionEventData();
        format.setBinlogVersion(4);
        if (server == Server.MYSQL) {
            format.setServerVersion("8.0.31");
            add(format, EventType.FORMAT_DESCRIPTION, 122, true);
            add(new PreviousGtidSetEventData(gtids()), EventType.PREVIOUS_GTIDS, 71, true);
        } else {
            format.setServerVersion("11.4.5-MariaDB-log");
            add(format, EventType.FORMAT_DESCRIPTION, 256, true);
            MariadbGtidListEventData list = new MariadbGtidListEventData();
            list.setMariaGTIDSet(new MariadbGtidSet(gtids()));
            add(list, EventType.MARIADB_GTID_LIST, 43, true);
            add(null, EventType.UNKNOWN, 52, true); // the binlog checkpoint (type 161)
        }
    }

    private void gtidEvent(long sequence, int mariaDbFlags) {
        group = sequence;
        if (server == Server.MYSQL) {
            GtidEventData gtid = new GtidEventData();
            gtid.setGtid(gtid(sequence));
            add(gtid, EventType.GTID, 79, true);
        } else {
            MariadbGtidEventData gtid = new MariadbGtidEventData();
            gtid.setDomainId(0);
            gtid.setServerId(SERVER_ID);
            gtid.setSequence(sequence);
            gtid.setFlags(mariaDbFlags);
            add(gtid, EventType.MARIADB_GTID, 42, true);
        }
    }

    private SyntheticBinlog endGroup() {
        last = group;
        group = 0;
        return this;
    }

    /**
     * An event of the file at {@link #next}; {@code statesEnd}: its header states its end, as every
     * MySQL event and MariaDB's outside a transaction's body do.
     */
    private void add(EventData data, EventType type, int length, boolean statesEnd) {
        boolean end = statesEnd || server == Server.MYSQL;
        lastEventAt = next;
        placed.add(
                new Placed(file, next, group, event(type, data, length, end ? next + length : 0)));
        next += length;
    }

    /**
     * What the server sends a connection at {@code position} of {@code file}: a ROTATE it makes up
     * naming the file, the file's FORMAT_DESCRIPTION (without its position when the connection
     * starts past it), then the events from there on, each further file after a made-up ROTATE.
     */
    List<Event> fromFilePosition(String startFile, long position) {
        List<Event> sent = new ArrayList<>();
        sent.add(madeUp(EventType.ROTATE, rotateData(startFile, position)));
        if (position > 4) {
            Event format = formatDescription(startFile);
            sent.add(
                    new Event(
                            header(
                                    EventType.FORMAT_DESCRIPTION,
                                    ((EventHeaderV4) format.getHeader()).getEventLength(),
                                    0),
                            format.getData()));
        }
        String at = startFile;
        for (Placed event : placed) {
            if (!reached(event, startFile, position)) {
                continue;
            }
            if (!event.file.equals(at)) {
                at = event.file;
                sent.add(madeUp(EventType.ROTATE, rotateData(at, 4)));
            }
            sent.add(event.event);
        }
        return sent;
    }

    /**
     * What the server sends a connection after the GTID set {@code gtids} (of this binlog's form,
     * up to a sequence number): {@code file} from its start without the groups in the set. MySQL
     * (COM_BINLOG_DUMP_GTID) sends a heartbeat where it skipped them, before the first group it
     * sends; MariaDB ({@code @slave_connect_state}) a made-up GTID list after the format
     * description.
     */
    List<Event> fromGtids(String startFile, String gtids) {
        long upTo = Long.parseLong(gtids.substring(gtids.lastIndexOf('-') + 1));
        List<Event> sent = new ArrayList<>();
        sent.add(madeUp(EventType.ROTATE, rotateData(startFile, 4)));
        String at = startFile;
        boolean skipped = false;
        boolean sending = false;
        for (Placed event : placed) {
            if (!reached(event, startFile, 4)) {
                continue;
            }
            if (!event.file.equals(at)) {
                at = event.file;
                sent.add(madeUp(EventType.ROTATE, rotateData(at, 4)));
            }
            if (event.group != 0 && event.group <= upTo || !sending && event.isHeartbeat()) {
                skipped = true;
                continue; // in the set (or idle between such groups): not sent
            }
            if (event.group != 0 && !sending) {
                sending = true;
                if (skipped && server == Server.MYSQL) {
                    sent.add(heartbeat(event.at));
                }
            }
            sent.add(event.event);
            if (server == Server.MARIADB
                    && event.event.getHeader().getEventType() == EventType.FORMAT_DESCRIPTION) {
                MariadbGtidListEventData list = new MariadbGtidListEventData();
                list.setMariaGTIDSet(new MariadbGtidSet(gtids));
                sent.add(madeUp(EventType.MARIADB_GTID_LIST, list));
            }
        }
        return sent;
    }

    /** Whether {@code event} is at or after {@code position} of {@code startFile}. */
    private boolean reached(Placed event, String startFile, long position) {
        int file = fileIndex(event.file);
        int start = fileIndex(startFile);
        return file > start || file == start && event.at >= position;
    }

    private int fileIndex(String name) {
        List<String> files = new ArrayList<>();
        for (Placed event : placed) {
            if (!files.contains(event.file)) {
                files.add(event.file);
            }
        }
        return files.indexOf(name);
    }

    private Event formatDescription(String name) {
        for (Placed event : placed) {
            if (event.file.equals(name)
                    && event.event.getHeader().getEventType() == EventType.FORMAT_DESCRIPTION) {
                return event.event;
            }
        }
        throw new IllegalArgumentException("No binlog file " + name);
    }

    private long tableId(String table) {
        Long id = tableIds.get(table);
        if (id == null) {
            throw new IllegalArgumentException("No table id for " + table);
        }
        return id;
    }

    private static BitSet allColumns() {
        BitSet columns = new BitSet();
        columns.set(0);
        return columns;
    }

    private static List<Serializable[]> rows(int... ids) {
        List<Serializable[]> rows = new ArrayList<>();
        for (int id : ids) {
            rows.add(row(id));
        }
        return rows;
    }

    private static Serializable[] row(int id) {
        return new Serializable[] {id};
    }

    static QueryEventData query(String sql) {
        QueryEventData data = new QueryEventData();
        data.setDatabase(DATABASE);
        data.setSql(sql);
        return data;
    }

    static RotateEventData rotateData(String file, long position) {
        RotateEventData rotate = new RotateEventData();
        rotate.setBinlogFilename(file);
        rotate.setBinlogPosition(position);
        return rotate;
    }

    /** The server's heartbeat: no time, not an event of the file, at {@code position}. */
    static Event heartbeat(long position) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setEventType(EventType.HEARTBEAT);
        header.setServerId(SERVER_ID);
        header.setEventLength(39);
        header.setNextPosition(position);
        return new Event(header, null);
    }

    /** An event the server made up for the connection: no time, no position. */
    static Event madeUp(EventType type, EventData data) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setEventType(type);
        header.setServerId(SERVER_ID);
        header.setEventLength(44);
        return new Event(header, data);
    }

    /** An event of a file, {@code length} bytes, ending at {@code end} (0: not stated). */
    static Event event(EventType type, EventData data, int length, long end) {
        return new Event(header(type, length, end), data);
    }

    private static EventHeaderV4 header(EventType type, long length, long end) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setTimestamp(TIME);
        header.setEventType(type);
        header.setServerId(SERVER_ID);
        header.setEventLength(length);
        header.setNextPosition(end);
        return header;
    }
}

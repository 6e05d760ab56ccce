package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.AnnotateRowsEventData;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.PreviousGtidSetEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.RowsQueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.sluice.serializers.event.ChangeEvent;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The binlog reader's event handling on one connection's thread: table maps, transactions and their
 * positions, GTIDs, DDL statements, heartbeats, and the skip of what a resumed position already
 * emitted. {@link BinlogReader} owns the connection and makes a new one per connect.
 *
 * <p>Positions are counted here, not taken from the events: on MariaDB 11.4 the events inside a
 * transaction state no end position ({@code binlog_legacy_event_pos=OFF}), so each event's position
 * is the previous one's plus its length.
 *
 * <p>Statement texts (MariaDB's annotate-rows, MySQL's rows-query events; the reader's deserializer
 * reads them only when they are wanted) go to the first row of the next rows event that emits its
 * first row, as {@code ChangeRecordConverter} gives Debezium's texts: once per statement, and again
 * after a resume at a rows event of the statement (the skip reads the text first).
 */
final class BinlogEvents {

    private final TableDecoders decoders;
    private final BinlogReader.Output out;
    private final StatementLoggedRows statementRows;

    /** Where this connection resumes; what a heartbeat reports until the reader is past it. */
    private final BinlogPosition start;

    /** A transaction began on this connection: the reader is past its start, skips aside. */
    private boolean readSinceStart;

    private final Map<Long, TableMapEventData> tableMaps = new HashMap<>();
    private final Map<Long, RowsEventDecoder> decodersById = new HashMap<>();
    private final GtidState gtids;

    private String file;

    /** Where the next event starts in {@link #file}. */
    private long next;

    private long serverId;

    /** The server whose binlog this connection reads ({@link BinlogPosition#binlogServer()}). */
    private String binlogServer;

    private boolean inTransaction;

    /** A BEGIN (MySQL) or a MariaDB GTID without the standalone flag opened the transaction. */
    private boolean begun;

    private long transactionStart;

    /** The open transaction's position (no events, no rows read), made at its first use. */
    private BinlogPosition transaction;

    private long rowsEventsRead;

    /** What the start position already emitted, skipped in its transaction. */
    private long skipEvents;

    private long skipRows;
    private final boolean skipCountsAllEvents;
    private final long skipFrom;
    private long eventsCounted;
    private boolean skipping;

    /** The text of the statement whose rows come next, until a row takes it; null when none. */
    private String statement;

    /** Where the reader is between transactions, built only when an output asks. */
    private final Supplier<BinlogPosition> between = this::heartbeatPosition;

    /**
     * @param start where to resume; {@code gtids} is its GTID set, or one the server gave for it
     */
    BinlogEvents(
            BinlogPosition start,
            String gtids,
            TableDecoders decoders,
            BinlogReader.Output out,
            StatementLoggedRows statementRows) {
        this.decoders = decoders;
        this.out = out;
        this.statementRows = statementRows;
        this.start = start;
        this.gtids = new GtidState(gtids);
        this.file = start.file();
        this.next = start.position();
        this.serverId = start.serverId();
        this.binlogServer = start.binlogServer();
        this.skipEvents = start.events();
        this.skipRows = start.rows();
        this.skipCountsAllEvents = start.countsAllEvents();
        this.skipFrom = start.position();
        this.skipping = skipEvents > 0 || skipRows > 0;
    }

    /**
     * The connection is on server {@code identity} ({@link BinlogServer#identity()}): the positions
     * read from here on are in its binlog. Called before the first event.
     */
    void readingFrom(String identity) {
        binlogServer = identity;
        transaction = null;
    }

    /** The position between transactions: after the last one that committed. */
    BinlogPosition committed() {
        return BinlogPosition.of(file, next, 0, 0, gtids.toString(), serverId, binlogServer);
    }

    /** Where a resume must start to get what follows: the open transaction's position. */
    BinlogPosition resumeAt(long events, long rows) {
        return transaction().withCounts(events, rows);
    }

    /**
     * The open transaction's position. The GTID state is the one before the transaction until it
     * commits, so it is read here, when first needed, rather than for every transaction.
     */
    private BinlogPosition transaction() {
        BinlogPosition at = transaction;
        if (at == null || at.serverId() != serverId) {
            at =
                    BinlogPosition.of(
                            file, transactionStart, 0, 0, gtids.toString(), serverId, binlogServer);
            transaction = at;
        }
        return at;
    }

    boolean inTransaction() {
        return inTransaction;
    }

    void onEvent(Event event) {
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        EventData data = EventDeserializer.EventDataWrapper.internal(event.getData());
        switch (type) {
            case ROTATE:
                RotateEventData rotate = (RotateEventData) data;
                if (!rotate.getBinlogFilename().equals(file)) {
                    tableMaps.clear();
                    decodersById.clear();
                }
                file = rotate.getBinlogFilename();
                next = rotate.getBinlogPosition();
                between();
                return;
            case HEARTBEAT:
                out.heartbeat(heartbeatPosition());
                return;
            case FORMAT_DESCRIPTION:
                // Sent again after each connect, with the file start's position.
                next = Math.max(next, header.getNextPosition());
                return;
            default:
                break;
        }
        if (header.getTimestamp() == 0 && header.getNextPosition() == 0) {
            return; // An event the server made up for this connection, not in the file.
        }
        long end = header.getNextPosition();
        long at = end > 0 ? end - header.getEventLength() : next;
        next = end > 0 ? end : at + header.getEventLength();
        serverId = header.getServerId();
        if (skipping && skipCountsAllEvents && at >= skipFrom) {
            eventsCounted++; // Flink CDC counts from its position, the transaction's BEGIN.
        }
        switch (type) {
            case GTID:
                openIfNeeded(at);
                gtids.begin(((GtidEventData) data).getGtid());
                begun = false;
                break;
            case MARIADB_GTID:
                MariadbGtidEventData maria = (MariadbGtidEventData) data;
                openIfNeeded(at);
                gtids.beginMariaDb(maria.getDomainId(), header.getServerId(), maria.getSequence());
                begun = (maria.getFlags() & MariadbGtidEventData.FL_STANDALONE) == 0;
                break;
            case MARIADB_GTID_LIST:
                // A known state stays: after a start at a GTID set, the file's list is older.
                if (!inTransaction && !gtids.known()) {
                    gtids.reset(((MariadbGtidListEventData) data).getMariaGTIDSet().toString());
                }
                break;
            case PREVIOUS_GTIDS:
                if (!inTransaction && !gtids.known()) {
                    gtids.reset(((PreviousGtidSetEventData) data).getGtidSet());
                }
                break;
            case QUERY:
            case EXECUTE_LOAD_QUERY: // LOAD DATA logged as a statement, read as its text
                query(at, header, (QueryEventData) data);
                break;
            case XID:
                commit();
                break;
            case XA_PREPARE:
                // XA PREPARE (or XA COMMIT … ONE PHASE) ends the XA transaction's events; an XA
                // COMMIT or XA ROLLBACK of a prepared one is a transaction of its own (query()).
                commit();
                break;
            case ANNOTATE_ROWS:
                if (data != null) {
                    statement = ((AnnotateRowsEventData) data).getRowsQuery();
                }
                break;
            case ROWS_QUERY:
                if (data != null) {
                    statement = ((RowsQueryEventData) data).getQuery();
                }
                break;
            case TABLE_MAP:
                openIfNeeded(at);
                tableMap((TableMapEventData) data);
                break;
            case TRANSACTION_PAYLOAD:
                // MySQL's compressed transaction: its events, in turn, at its end.
                for (Event inner : TransactionPayloads.events(data, next)) {
                    onEvent(inner);
                }
                break;
            default:
                if (EventType.isRowMutation(type) || type == EventType.PARTIAL_UPDATE_ROWS_EVENT) {
                    openIfNeeded(at);
                    rows(header, data);
                }
        }
        between();
    }

    /** Tells the output where the reader is when it is between transactions. */
    private void between() {
        if (!inTransaction) {
            out.betweenTransactions(file, next, between);
        }
    }

    /**
     * Where a heartbeat finds the reader. Until it is past its start (the rows the start says were
     * emitted, or any transaction at all) it is at its start: a resume at a GTID set gets a
     * heartbeat from MySQL before the first event after the transactions the server skipped, and
     * the position between transactions there would lose the start's skip counts (a checkpoint or a
     * reconnect would give the transaction's rows again) and look like progress.
     */
    private BinlogPosition heartbeatPosition() {
        if (skipping || !readSinceStart) {
            return start;
        }
        return inTransaction ? resumeAt(rowsEventsRead, 0) : committed();
    }

    private void openIfNeeded(long at) {
        if (!inTransaction) {
            readSinceStart = true;
            inTransaction = true;
            begun = false;
            transactionStart = at;
            transaction = null;
            rowsEventsRead = 0;
        }
    }

    private void query(long at, EventHeaderV4 header, QueryEventData query) {
        String sql = query.getSql().trim();
        String head = sql.length() > 9 ? sql.substring(0, 9) : sql;
        String upper = head.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN")) {
            openIfNeeded(at);
            begun = true;
        } else if (upper.equals("COMMIT") || upper.equals("ROLLBACK")) {
            commit();
        } else if (upper.startsWith("#")) {
            // A comment the server sends in place of an event the client cannot take.
        } else if (upper.startsWith("XA ")) {
            if (sql.regionMatches(true, 0, "XA COMMIT", 0, 9)
                    || sql.regionMatches(true, 0, "XA ROLLBACK", 0, 11)) {
                commit(); // Of a prepared XA transaction: a transaction of its own, GTID and this.
            } else {
                openIfNeeded(at); // XA START or XA END: the XA transaction's rows are in it.
                begun = true;
            }
        } else if (upper.startsWith("SAVEPOINT")) {
            openIfNeeded(at);
        } else if (inTransaction && begun && isCreateSelect(sql)) {
            createSelect(at, header, query, sql);
        } else if (!readBeforeStart() && isStatementLoggedRows(at, header, query, sql)) {
            // Dealt with (failed, skipped or not captured); one outside a transaction is its own.
            if (!(inTransaction && begun)) {
                openIfNeeded(at);
                commit();
            }
        } else if (inTransaction && begun) {
            // A statement inside a transaction (not ROW format): not a schema change.
        } else {
            openIfNeeded(at);
            String gtid = gtids.current();
            commit(); // A DDL statement is its own transaction.
            // The schemas follow the statement before the table maps after it are read.
            decoders.applyDdl(sql, query.getDatabase(), file + ":" + at);
            decodersById.clear(); // Ask for the tables' decoders again after it.
            out.ddl(
                    sql,
                    query.getDatabase(),
                    new RowsEventOrigin(
                            file, at, header.getTimestamp(), header.getServerId(), gtid),
                    committed());
        }
    }

    /**
     * Whether the statement being read lies before the start position in its transaction: before
     * the rows events it says were read, or before the rows event it says was partly emitted.
     */
    private boolean readBeforeStart() {
        if (!skipping) {
            return false;
        }
        if (skipCountsAllEvents) {
            return eventsCounted - 1 < skipEvents;
        }
        return rowsEventsRead < skipEvents || (rowsEventsRead == skipEvents && skipRows > 0);
    }

    /** Whether {@code sql} is a DML statement logged as text, which {@link #statementRows} took. */
    private boolean isStatementLoggedRows(
            long at, EventHeaderV4 header, QueryEventData query, String sql) {
        return statementRows.handled(
                sql,
                query.getDatabase(),
                new RowsEventOrigin(
                        file, at, header.getTimestamp(), header.getServerId(), gtids.current()));
    }

    /**
     * MySQL 8.0.21+ writes {@code CREATE TABLE … SELECT} as one transaction: BEGIN, the CREATE
     * TABLE statement with {@code START TRANSACTION} appended, the rows, XID.
     */
    private static boolean isCreateSelect(String sql) {
        String suffix = "START TRANSACTION";
        return sql.regionMatches(true, 0, "CREATE", 0, 6)
                && sql.regionMatches(
                        true, sql.length() - suffix.length(), suffix, 0, suffix.length());
    }

    /**
     * The CREATE TABLE of a {@code CREATE TABLE … SELECT} transaction ({@link #isCreateSelect}): a
     * DDL statement inside the transaction, before its rows. It counts as one of the transaction's
     * events, so that the position after it (and after its rows) says it was read: a resume there
     * skips it (the schemas checkpointed with that position have it) and gives the rows.
     */
    private void createSelect(long at, EventHeaderV4 header, QueryEventData query, String sql) {
        long event = rowsEventsRead++;
        if (skipping && (skipCountsAllEvents ? eventsCounted - 1 : event) < skipEvents) {
            return; // Read before the start: applied and given out then.
        }
        decoders.applyDdl(sql, query.getDatabase(), file + ":" + at);
        decodersById.clear();
        out.ddl(
                sql,
                query.getDatabase(),
                new RowsEventOrigin(
                        file, at, header.getTimestamp(), header.getServerId(), gtids.current()),
                resumeAt(event + 1, 0));
    }

    private void commit() {
        gtids.commit();
        statement = null;
        inTransaction = false;
        begun = false;
        skipping = false;
    }

    private void tableMap(TableMapEventData map) {
        TableMapEventData previous = tableMaps.put(map.getTableId(), map);
        if (previous == null
                || !previous.getDatabase().equals(map.getDatabase())
                || !previous.getTable().equals(map.getTable())) {
            decodersById.remove(map.getTableId());
        }
    }

    private void rows(EventHeaderV4 header, EventData data) {
        long eventIndex = rowsEventsRead++;
        long skip = 0;
        if (skipping) {
            long before = skipCountsAllEvents ? eventsCounted - 1 : eventIndex;
            if (before < skipEvents) {
                return;
            }
            skip = skipRows;
            skipping = false;
        }
        long tableId = tableId(data);
        TableMapEventData map = tableMaps.get(tableId);
        if (map == null) {
            throw new IllegalStateException(
                    String.format(
                            "A rows event in %s at %d names table id %d, which no table map before"
                                    + " it did",
                            file, next - header.getEventLength(), tableId));
        }
        RowsEventDecoder decoder = decodersById.get(tableId);
        if (decoder == null && !decodersById.containsKey(tableId)) {
            decoder = decoders.decoder(map.getDatabase(), map.getTable(), map);
            decodersById.put(tableId, decoder); // null: not captured, not asked again
        }
        if (decoder == null) {
            return;
        }
        int count = rowCount(data);
        long[] row = {0};
        long skipped = skip;
        BinlogPosition transaction = transaction();
        decoder.decode(
                map,
                data,
                new RowsEventOrigin(
                        file,
                        reportedPosition(header),
                        header.getTimestamp(),
                        header.getServerId(),
                        gtids.current()),
                change -> {
                    long index = row[0]++;
                    if (index < skipped) {
                        return;
                    }
                    if (index == 0 && statement != null) {
                        change = withStatement(change);
                    }
                    if (index + 1 < count) {
                        out.change(change, transaction, eventIndex, index + 1);
                    } else {
                        out.change(change, transaction, eventIndex + 1, 0);
                    }
                });
    }

    /**
     * The position a rows event's changes report: the event's start where the server states its end
     * ({@code end_log_pos}, as MySQL always does), as Debezium's {@code source.pos} and Canal's
     * {@code logfileOffset}; else (MariaDB 11.4's events inside a transaction state none, and the
     * events of MySQL's compressed transaction) the transaction's start, where a reader resumes.
     */
    private long reportedPosition(EventHeaderV4 header) {
        return header.getNextPosition() > 0 && header.getEventLength() > 0
                ? next - header.getEventLength()
                : transactionStart;
    }

    /** The change with the statement's text, which it takes. */
    private ChangeEvent withStatement(ChangeEvent change) {
        String text = statement;
        statement = null;
        return ChangeEvent.builder(change.schema(), change.type())
                .before(change.before())
                .after(change.after())
                .eventOf(change)
                .query(text)
                .build();
    }

    /** The table id of a rows event. */
    static long tableId(EventData data) {
        if (data instanceof WriteRowsEventData) {
            return ((WriteRowsEventData) data).getTableId();
        } else if (data instanceof UpdateRowsEventData) {
            return ((UpdateRowsEventData) data).getTableId();
        }
        return ((DeleteRowsEventData) data).getTableId();
    }

    private static int rowCount(EventData data) {
        List<?> rows;
        if (data instanceof WriteRowsEventData) {
            rows = ((WriteRowsEventData) data).getRows();
        } else if (data instanceof UpdateRowsEventData) {
            rows = ((UpdateRowsEventData) data).getRows();
        } else {
            rows = ((DeleteRowsEventData) data).getRows();
        }
        return rows.size();
    }
}

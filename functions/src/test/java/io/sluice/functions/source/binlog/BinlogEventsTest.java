package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.PreviousGtidSetEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reader's event handling on event sequences as MySQL 8.0.31 writes and sends them (read from
 * its binlog with {@code SHOW BINLOG EVENTS} in {@code MySqlTransactionsITCase}, which checks the
 * same on the real server): where XA transactions and {@code CREATE TABLE … SELECT} begin and end,
 * which GTIDs join the set, and where a heartbeat finds the reader. Rows events here are of a table
 * that is not captured: counted, not decoded. Whole binlogs of both servers, resumed at every
 * position: {@link BinlogEventSequencesTest}.
 */
class BinlogEventsTest {

    private static final String UUID = SyntheticBinlog.UUID;
    private static final String FILE = "mysql-bin.000002";

    private final List<String> given = new ArrayList<>();
    private long next = 4;

    @Test
    void anXaTransactionEndsAtItsPrepareAndItsCommitIsATransactionOfItsOwn() {
        BinlogEvents events = events(BinlogPosition.of(FILE, 100, 0, 0, UUID + ":1-10", 1));
        next = 100;
        events.onEvent(gtid(11));
        events.onEvent(query("XA START X'7831',X'',1"));
        rowsNotCaptured(events);
        events.onEvent(query("XA END X'7831',X'',1"));
        events.onEvent(event(EventType.XA_PREPARE, new XAPrepareEventData(), 60));
        long prepared = next;
        events.onEvent(heartbeat());
        events.onEvent(gtid(12));
        events.onEvent(query("XA COMMIT X'7831',X'',1"));
        long committed = next;
        events.onEvent(heartbeat());
        // One phase: one transaction, ended by an XA_PREPARE event as well.
        events.onEvent(gtid(13));
        events.onEvent(query("XA START X'7832',X'',1"));
        rowsNotCaptured(events);
        events.onEvent(query("XA END X'7832',X'',1"));
        XAPrepareEventData onePhase = new XAPrepareEventData();
        onePhase.setOnePhase(true);
        events.onEvent(event(EventType.XA_PREPARE, onePhase, 60));
        // Prepared, then rolled back.
        events.onEvent(gtid(14));
        events.onEvent(query("XA START X'7833',X'',1"));
        rowsNotCaptured(events);
        events.onEvent(query("XA END X'7833',X'',1"));
        events.onEvent(event(EventType.XA_PREPARE, new XAPrepareEventData(), 60));
        events.onEvent(gtid(15));
        events.onEvent(query("xa rollback X'7833',X'',1"));
        long rolledBack = next;
        events.onEvent(heartbeat());

        assertThat(given)
                .containsExactly(
                        "heartbeat @ " + FILE + ":" + prepared + " gtids=" + UUID + ":1-11",
                        "heartbeat @ " + FILE + ":" + committed + " gtids=" + UUID + ":1-12",
                        "heartbeat @ " + FILE + ":" + rolledBack + " gtids=" + UUID + ":1-15");
        assertThat(events.inTransaction()).isFalse();
    }

    @Test
    void aHeartbeatReportsTheStartUntilTheReaderIsPastIt() {
        BinlogPosition start = BinlogPosition.of(FILE, 300, 2, 3, UUID + ":1-10", 1);
        BinlogEvents events = events(start);
        // A resume at the start's GTID set: the file's start, then a heartbeat at the end of
        // the transactions the server skipped, then the start's transaction.
        events.onEvent(madeUp(EventType.ROTATE, SyntheticBinlog.rotateData(FILE, 4)));
        next = 4;
        events.onEvent(event(EventType.FORMAT_DESCRIPTION, null, 122));
        events.onEvent(
                event(EventType.PREVIOUS_GTIDS, new PreviousGtidSetEventData(UUID + ":1-9"), 71));
        events.onEvent(heartbeat());
        next = 300;
        events.onEvent(gtid(11));
        events.onEvent(query("BEGIN"));
        rowsNotCaptured(events);
        events.onEvent(heartbeat());
        rowsNotCaptured(events);
        events.onEvent(heartbeat());
        rowsNotCaptured(events); // the start's rows event: the skip ends
        events.onEvent(heartbeat());

        String startText = FILE + ":300 events=2 rows=3 gtids=" + UUID + ":1-10";
        assertThat(given)
                .containsExactly(
                        "heartbeat @ " + startText,
                        "heartbeat @ " + startText,
                        "heartbeat @ " + startText,
                        "heartbeat @ " + FILE + ":300 events=3 gtids=" + UUID + ":1-10");
    }

    @Test
    void anIdleHeartbeatAtAStartBetweenTransactionsReportsTheStart() {
        BinlogPosition start = BinlogPosition.of(FILE, 300, 0, 0, UUID + ":1-10", 1);
        BinlogEvents events = events(start);
        next = 300;
        // At a file position, MySQL sends the file's format description without its position.
        events.onEvent(SyntheticBinlog.event(EventType.FORMAT_DESCRIPTION, null, 122, 0));
        events.onEvent(heartbeat());
        events.onEvent(gtid(11));
        events.onEvent(query("BEGIN"));
        rowsNotCaptured(events);
        events.onEvent(event(EventType.XID, null, 31));
        long after = next;
        events.onEvent(heartbeat());

        assertThat(given)
                .containsExactly(
                        "heartbeat @ " + FILE + ":300 gtids=" + UUID + ":1-10",
                        "heartbeat @ " + FILE + ":" + after + " gtids=" + UUID + ":1-11");
    }

    @Test
    void createTableSelectIsOneTransactionAndItsStatementAnEventOfIt() {
        String create =
                "CREATE TABLE `t2` (\n  `id` int NOT NULL,\n  `v` varchar(700) DEFAULT NULL,\n "
                        + " PRIMARY KEY (`id`)\n) START TRANSACTION";
        TableSchemas schemas =
                TableSchemas.restore(
                        new TableSchemas.State("utf8mb4", Map.of("shop", "utf8mb4"), List.of()),
                        (database, table) -> true,
                        ColumnTypeStyle.MYSQL,
                        ZoneOffset.UTC);
        BinlogEvents events =
                new BinlogEvents(
                        BinlogPosition.of(FILE, 100, 0, 0, UUID + ":1-10", 1),
                        UUID + ":1-10",
                        schemas,
                        output(),
                        new StatementLoggedRows(
                                StatementLoggedChanges.FAIL, "x", schemas, output()));
        next = 100;
        events.onEvent(gtid(11));
        events.onEvent(query("BEGIN"));
        events.onEvent(query(create));
        events.onEvent(event(EventType.XID, null, 31)); // no rows selected
        long after = next;
        events.onEvent(heartbeat());

        assertThat(given)
                .containsExactly(
                        "ddl " + create + " @ " + FILE + ":100 events=1 gtids=" + UUID + ":1-10",
                        "heartbeat @ " + FILE + ":" + after + " gtids=" + UUID + ":1-11");
        assertThat(schemas.columns("shop", "t2"))
                .as("the statement, START TRANSACTION and all, applied to the schemas")
                .extracting(BinlogColumn::name)
                .containsExactly("id", "v");

        // Resumed after the statement: its transaction again, without the statement.
        given.clear();
        BinlogEvents resumed = events(BinlogPosition.of(FILE, 100, 1, 0, UUID + ":1-10", 1));
        next = 100;
        resumed.onEvent(gtid(11));
        resumed.onEvent(query("BEGIN"));
        resumed.onEvent(query(create));
        resumed.onEvent(event(EventType.XID, null, 31));
        resumed.onEvent(heartbeat());
        assertThat(given)
                .containsExactly("heartbeat @ " + FILE + ":" + after + " gtids=" + UUID + ":1-11");
    }

    @Test
    void aStatementLoggedChangeOfACapturedTableFailsAndOneOfAnotherTableIsPassedOver() {
        BinlogPosition start = BinlogPosition.of(FILE, 100, 0, 0, UUID + ":1-10", 1);
        BinlogEvents events = events(start, StatementLoggedChanges.FAIL);
        next = 100;
        events.onEvent(gtid(11));
        events.onEvent(query("BEGIN"));
        events.onEvent(query("INSERT INTO other VALUES (1)"));
        events.onEvent(event(EventType.XID, null, 31));
        events.onEvent(gtid(12));
        events.onEvent(query("BEGIN"));
        rowsNotCaptured(events);
        long at = next;
        assertThatThrownBy(() -> events.onEvent(query("UPDATE orders SET v = 'x' WHERE id = 1")))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("captured table shop.orders as a SQL statement")
                .hasMessageContaining(FILE + ":" + at + " (GTID " + UUID + ":12)")
                .hasMessageContaining(": UPDATE orders SET v = 'x' WHERE id = 1.")
                .hasMessageContaining("binlog_format=ROW")
                .hasMessageContaining("set 'source.statement-logged-changes' = 'skip'");
        assertThat(given).isEmpty();
    }

    @Test
    void aSkippedStatementIsGivenOutAndTheTransactionGoesOn() {
        BinlogEvents events =
                events(
                        BinlogPosition.of(FILE, 100, 0, 0, UUID + ":1-10", 1),
                        StatementLoggedChanges.SKIP);
        next = 100;
        events.onEvent(gtid(11));
        events.onEvent(query("BEGIN"));
        long at = next;
        events.onEvent(query("DELETE o FROM orders o JOIN other t ON o.id = t.id"));
        events.onEvent(event(EventType.XID, null, 31));
        long after = next;
        events.onEvent(heartbeat());
        assertThat(given)
                .containsExactly(
                        "skipped DELETE o FROM orders o JOIN other t ON o.id = t.id in shop @ "
                                + FILE
                                + ":"
                                + at,
                        "heartbeat @ " + FILE + ":" + after + " gtids=" + UUID + ":1-11");
    }

    /**
     * A resume inside the statement's transaction meets it again: before the start's rows events it
     * was passed then (so not again), after them it was not.
     */
    @Test
    void aResumeInsideTheTransactionMeetsTheStatementOnlyIfItLiesAfterTheStart() {
        for (long[] countsAndMet :
                new long[][] {{0, 0, 1}, {1, 0, 1}, {1, 2, 0}, {2, 0, 0}, {2, 1, 0}}) {
            given.clear();
            BinlogPosition start =
                    BinlogPosition.of(
                            FILE, 100, countsAndMet[0], countsAndMet[1], UUID + ":1-10", 1);
            BinlogEvents events = events(start, StatementLoggedChanges.SKIP);
            next = 100;
            events.onEvent(gtid(11));
            events.onEvent(query("BEGIN"));
            rowsNotCaptured(events);
            events.onEvent(query("INSERT INTO orders VALUES (1)"));
            rowsNotCaptured(events);
            rowsNotCaptured(events);
            events.onEvent(event(EventType.XID, null, 31));
            assertThat(given.stream().filter(g -> g.startsWith("skipped")))
                    .as("from %s", start)
                    .hasSize((int) countsAndMet[2]);
        }
    }

    private BinlogEvents events(BinlogPosition start) {
        return new BinlogEvents(
                start,
                start.gtids(),
                (db, table, map) -> null,
                output(),
                new StatementLoggedRows(
                        StatementLoggedChanges.FAIL,
                        "source.statement-logged-changes",
                        (db, table, map) -> null,
                        output()));
    }

    /** Events whose captured table is shop.orders. */
    private BinlogEvents events(BinlogPosition start, StatementLoggedChanges action) {
        TableDecoders decoders =
                new TableDecoders() {
                    @Override
                    public RowsEventDecoder decoder(
                            String database, String table, TableMapEventData tableMap) {
                        return null;
                    }

                    @Override
                    public boolean captures(String database, String table) {
                        return database.equals("shop") && table.equals("orders");
                    }
                };
        BinlogReader.Output out = output();
        return new BinlogEvents(
                start,
                start.gtids(),
                decoders,
                out,
                new StatementLoggedRows(action, "source.statement-logged-changes", decoders, out));
    }

    private BinlogReader.Output output() {
        return new BinlogReader.Output() {
            @Override
            public void change(ChangeEvent change, BinlogPosition after) {
                given.add("change " + change + " @ " + text(after));
            }

            @Override
            public void ddl(String statement, String database, BinlogPosition after) {
                given.add("ddl " + statement + " @ " + text(after));
            }

            @Override
            public void heartbeat(BinlogPosition at) {
                given.add("heartbeat @ " + text(at));
            }

            @Override
            public void skippedStatement(
                    String statement, String database, RowsEventOrigin origin) {
                given.add(
                        "skipped "
                                + statement
                                + " in "
                                + database
                                + " @ "
                                + origin.file()
                                + ":"
                                + origin.position());
            }
        };
    }

    private static String text(BinlogPosition at) {
        return at.file()
                + ":"
                + at.position()
                + (at.events() > 0 ? " events=" + at.events() : "")
                + (at.rows() > 0 ? " rows=" + at.rows() : "")
                + " gtids="
                + at.gtids();
    }

    /** A table map and a rows event of a table that is not captured. */
    private void rowsNotCaptured(BinlogEvents events) {
        TableMapEventData map = new TableMapEventData();
        map.setTableId(7);
        map.setDatabase("shop");
        map.setTable("other");
        events.onEvent(event(EventType.TABLE_MAP, map, 40));
        WriteRowsEventData rows = new WriteRowsEventData();
        rows.setTableId(7);
        rows.setIncludedColumns(new BitSet());
        rows.setRows(List.<Serializable[]>of(new Serializable[0]));
        events.onEvent(event(EventType.EXT_WRITE_ROWS, rows, 50));
    }

    private Event gtid(long sequence) {
        GtidEventData data = new GtidEventData();
        data.setGtid(UUID + ":" + sequence);
        return event(EventType.GTID, data, 79);
    }

    private Event query(String sql) {
        return event(EventType.QUERY, SyntheticBinlog.query(sql), 60 + sql.length());
    }

    /** MySQL's heartbeat: no time, and not an event of the file. */
    private Event heartbeat() {
        return SyntheticBinlog.heartbeat(next);
    }

    /** An event the server made up for the connection: no time, no position. */
    private static Event madeUp(EventType type, EventData data) {
        return SyntheticBinlog.madeUp(type, data);
    }

    /** An event of the file at {@link #next}, {@code length} bytes long. */
    private Event event(EventType type, EventData data, int length) {
        next += length;
        return SyntheticBinlog.event(type, data, length, next);
    }
}

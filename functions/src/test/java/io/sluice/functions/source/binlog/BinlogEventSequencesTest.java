package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sluice.functions.source.binlog.SyntheticBinlog.DATABASE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader's event handling on whole binlogs as MariaDB 11.4 and MySQL 8.0 write and send them
 * ({@link SyntheticBinlog}): a new connection's made-up ROTATE and FORMAT_DESCRIPTION, transactions
 * of several rows events over a captured and an uncaptured table ended by XID or by a {@code
 * COMMIT} query, DDL as a group of its own, heartbeats between and inside transactions, a file
 * rotation. Each test states what a read from the first file's start gives out, then resumes a new
 * reader at every position given out, as {@code BinlogReader} does (by file position, and after the
 * position's GTID set), and checks it gives exactly the changes that followed, once each.
 */
class BinlogEventSequencesTest {

    private static final String ORDERS = "orders";
    private static final String AUDIT = "audit";
    private static final Map<String, Long> TABLE_IDS = Map.of(ORDERS, 108L, AUDIT, 109L);
    private static final String DDL = "CREATE TABLE audit_old (id INT PRIMARY KEY)";

    /** What one reader gave out: a change's or statement's text, or a heartbeat, and where. */
    private static final class Given {
        final String what;
        final BinlogPosition at;

        Given(String what, BinlogPosition at) {
            this.what = what;
            this.at = at;
        }

        boolean isHeartbeat() {
            return what.equals("heartbeat");
        }

        @Override
        public String toString() {
            return what + " @ " + text(at);
        }
    }

    @Test
    void mySqlTransactionsDdlHeartbeatsAndARotationResumeExactlyAtEveryPosition() {
        String file1 = "mysql-bin.000001";
        String file2 = "mysql-bin.000002";
        SyntheticBinlog binlog = SyntheticBinlog.mySql(file1, 10, TABLE_IDS);
        String upTo10 = binlog.gtids();
        long t11 = binlog.position();
        binlog.begin(11).insert(ORDERS, 1, 2, 3);
        long inserted = binlog.lastEventAt();
        binlog.insert(AUDIT, 100).heartbeat().update(ORDERS, 1);
        long updated = binlog.lastEventAt();
        binlog.xid().heartbeat();
        long afterT11 = binlog.position();
        binlog.ddl(12, DDL);
        long ddl = binlog.lastEventAt();
        long afterDdl = binlog.position();
        binlog.beginNonTransactional(13).delete(ORDERS, 2);
        long deleted = binlog.lastEventAt();
        binlog.commit().heartbeat();
        long afterT13 = binlog.position();
        binlog.rotate(file2);
        long t14 = binlog.position();
        binlog.begin(14).insert(ORDERS, 4, 5);
        long inserted2 = binlog.lastEventAt();
        binlog.xid();

        List<Given> read =
                read(
                        BinlogPosition.of(file1, 4, 0, 0, upTo10, 0),
                        binlog.fromFilePosition(file1, 4));

        // A change reports its rows event's start (MySQL states every event's end), and the
        // position after it: its transaction's start and the GTID set before it, with the rows
        // events read and the rows of the next one emitted.
        String g = SyntheticBinlog.UUID;
        assertThat(read)
                .extracting(Given::toString)
                .containsExactly(
                        "INSERT orders 1 "
                                + g
                                + ":11 "
                                + file1
                                + ":"
                                + inserted
                                + "#0 @ "
                                + file1
                                + ":"
                                + t11
                                + " rows=1 gtids="
                                + g
                                + ":1-10",
                        "INSERT orders 2 "
                                + g
                                + ":11 "
                                + file1
                                + ":"
                                + inserted
                                + "#1 @ "
                                + file1
                                + ":"
                                + t11
                                + " rows=2 gtids="
                                + g
                                + ":1-10",
                        "INSERT orders 3 "
                                + g
                                + ":11 "
                                + file1
                                + ":"
                                + inserted
                                + "#2 @ "
                                + file1
                                + ":"
                                + t11
                                + " events=1 gtids="
                                + g
                                + ":1-10",
                        // Inside the transaction, after the audit rows (counted, not decoded).
                        "heartbeat @ " + file1 + ":" + t11 + " events=2 gtids=" + g + ":1-10",
                        "UPDATE orders 1 "
                                + g
                                + ":11 "
                                + file1
                                + ":"
                                + updated
                                + "#0 @ "
                                + file1
                                + ":"
                                + t11
                                + " events=3 gtids="
                                + g
                                + ":1-10",
                        "heartbeat @ " + file1 + ":" + afterT11 + " gtids=" + g + ":1-11",
                        "DDL " + DDL + " " + g + ":12 " + file1 + ":" + ddl + " @ " + file1 + ":"
                                + afterDdl + " gtids=" + g + ":1-12",
                        "DELETE orders 2 "
                                + g
                                + ":13 "
                                + file1
                                + ":"
                                + deleted
                                + "#0 @ "
                                + file1
                                + ":"
                                + afterDdl
                                + " events=1 gtids="
                                + g
                                + ":1-12",
                        "heartbeat @ " + file1 + ":" + afterT13 + " gtids=" + g + ":1-13",
                        "INSERT orders 4 "
                                + g
                                + ":14 "
                                + file2
                                + ":"
                                + inserted2
                                + "#0 @ "
                                + file2
                                + ":"
                                + t14
                                + " rows=1 gtids="
                                + g
                                + ":1-13",
                        "INSERT orders 5 "
                                + g
                                + ":14 "
                                + file2
                                + ":"
                                + inserted2
                                + "#1 @ "
                                + file2
                                + ":"
                                + t14
                                + " events=1 gtids="
                                + g
                                + ":1-13");

        assertEveryPositionResumes(binlog, read);
    }

    @Test
    void mariaDbTransactionsDdlHeartbeatsAndARotationResumeExactlyAtEveryPosition() {
        String file1 = "mariadb-bin.000001";
        String file2 = "mariadb-bin.000002";
        SyntheticBinlog binlog = SyntheticBinlog.mariaDb(file1, 10, TABLE_IDS);
        String upTo10 = binlog.gtids();
        long t11 = binlog.position();
        binlog.begin(11)
                .insert(ORDERS, 1, 2, 3)
                .insert(AUDIT, 100)
                .heartbeat()
                .update(ORDERS, 1)
                .xid()
                .heartbeat();
        long afterT11 = binlog.position();
        binlog.ddl(12, DDL);
        long ddl = binlog.lastEventAt();
        long afterDdl = binlog.position();
        binlog.beginNonTransactional(13).delete(ORDERS, 2).commit().heartbeat();
        long afterT13 = binlog.position();
        binlog.rotate(file2);
        long t14 = binlog.position();
        binlog.begin(14).insert(ORDERS, 4, 5).xid();

        List<Given> read =
                read(
                        BinlogPosition.of(file1, 4, 0, 0, upTo10, 0),
                        binlog.fromFilePosition(file1, 4));

        // The events of a transaction state no end: its changes report its start, where a
        // reader resumes. The GTID, domain-server-sequence, is each change's.
        assertThat(read)
                .extracting(Given::toString)
                .containsExactly(
                        "INSERT orders 1 0-1-11 "
                                + file1
                                + ":"
                                + t11
                                + "#0 @ "
                                + file1
                                + ":"
                                + t11
                                + " rows=1 gtids=0-1-10",
                        "INSERT orders 2 0-1-11 "
                                + file1
                                + ":"
                                + t11
                                + "#1 @ "
                                + file1
                                + ":"
                                + t11
                                + " rows=2 gtids=0-1-10",
                        "INSERT orders 3 0-1-11 "
                                + file1
                                + ":"
                                + t11
                                + "#2 @ "
                                + file1
                                + ":"
                                + t11
                                + " events=1 gtids=0-1-10",
                        "heartbeat @ " + file1 + ":" + t11 + " events=2 gtids=0-1-10",
                        "UPDATE orders 1 0-1-11 "
                                + file1
                                + ":"
                                + t11
                                + "#0 @ "
                                + file1
                                + ":"
                                + t11
                                + " events=3 gtids=0-1-10",
                        "heartbeat @ " + file1 + ":" + afterT11 + " gtids=0-1-11",
                        "DDL "
                                + DDL
                                + " 0-1-12 "
                                + file1
                                + ":"
                                + ddl
                                + " @ "
                                + file1
                                + ":"
                                + afterDdl
                                + " gtids=0-1-12",
                        "DELETE orders 2 0-1-13 "
                                + file1
                                + ":"
                                + afterDdl
                                + "#0 @ "
                                + file1
                                + ":"
                                + afterDdl
                                + " events=1 gtids=0-1-12",
                        "heartbeat @ " + file1 + ":" + afterT13 + " gtids=0-1-13",
                        "INSERT orders 4 0-1-14 "
                                + file2
                                + ":"
                                + t14
                                + "#0 @ "
                                + file2
                                + ":"
                                + t14
                                + " rows=1 gtids=0-1-13",
                        "INSERT orders 5 0-1-14 "
                                + file2
                                + ":"
                                + t14
                                + "#1 @ "
                                + file2
                                + ":"
                                + t14
                                + " events=1 gtids=0-1-13");

        assertEveryPositionResumes(binlog, read);
    }

    @Test
    void aResumeInsideARowsEventSkipsItsEmittedRowsAndAHeartbeatFirstReportsTheStart() {
        for (boolean mariaDb : new boolean[] {false, true}) {
            String file = mariaDb ? "mariadb-bin.000001" : "mysql-bin.000001";
            SyntheticBinlog binlog =
                    mariaDb
                            ? SyntheticBinlog.mariaDb(file, 9, TABLE_IDS)
                            : SyntheticBinlog.mySql(file, 9, TABLE_IDS);
            binlog.begin(10).insert(ORDERS, 9).xid().heartbeat();
            String upTo10 = binlog.gtids();
            long t11 = binlog.position();
            binlog.begin(11).insert(AUDIT, 100).insert(ORDERS, 1, 2, 3, 4).xid();
            long afterT11 = binlog.position();
            // After row 2 of the second rows event (the first is of a table not captured).
            BinlogPosition start = BinlogPosition.of(file, t11, 1, 2, upTo10, 1);

            List<Given> byPosition = read(start, binlog.fromFilePosition(file, t11));
            List<Given> byGtids = read(start, binlog.fromGtids(file, upTo10));

            String gtid = binlog.gtid(11);
            String third = "INSERT orders 3 " + gtid;
            String fourth = "INSERT orders 4 " + gtid;
            assertThat(byPosition)
                    .as("by file position, %s", file)
                    .extracting(given -> given.what.replaceAll(" \\S+#\\d$", ""))
                    .containsExactly("heartbeat", third, fourth);
            assertThat(byPosition)
                    .extracting(given -> text(given.at))
                    .as("the heartbeat before the transaction reports the start, skips and all")
                    .containsExactly(
                            text(start),
                            file + ":" + t11 + " events=1 rows=3 gtids=" + upTo10,
                            file + ":" + t11 + " events=2 gtids=" + upTo10);
            // MySQL skips the transactions in the set with a heartbeat after them; MariaDB skips
            // them silently.
            assertThat(byGtids)
                    .extracting(Given::toString)
                    .as("after the GTID set, %s", file)
                    .containsExactlyElementsOf(
                            (mariaDb ? byPosition.subList(1, 3) : byPosition)
                                    .stream().map(Given::toString).collect(Collectors.toList()));
            // A heartbeat after the transaction: past it, with its GTID.
            List<Given> after = read(start, binlog.heartbeat().fromGtids(file, upTo10));
            assertThat(text(after.get(after.size() - 1).at))
                    .isEqualTo(file + ":" + afterT11 + " gtids=" + binlog.gtids());
        }
    }

    /**
     * Resumed at each position {@code read} gave out (a change's, a statement's, a heartbeat's), by
     * file position and after its GTID set, the binlog gives exactly the changes and statements
     * that followed it, with the same positions; and so does each heartbeat of those resumes.
     */
    private static void assertEveryPositionResumes(SyntheticBinlog binlog, List<Given> read) {
        for (int i = 0; i < read.size(); i++) {
            BinlogPosition at = read.get(i).at;
            List<String> rest = changes(read.subList(i + 1, read.size()));
            for (boolean byGtids : new boolean[] {false, true}) {
                List<Event> sent =
                        byGtids
                                ? binlog.fromGtids(at.file(), at.gtids())
                                : binlog.fromFilePosition(at.file(), at.position());
                List<Given> resumed = read(at, sent);
                String how = byGtids ? "after its GTID set" : "by file position";
                assertThat(changes(resumed))
                        .as("resumed %s after '%s'", how, read.get(i))
                        .containsExactlyElementsOf(rest);
                for (int j = 0; j < resumed.size(); j++) {
                    if (resumed.get(j).isHeartbeat()) {
                        assertThat(changes(read(resumed.get(j).at, sent(binlog, resumed, j))))
                                .as(
                                        "resumed at the heartbeat '%s' of a resume %s after"
                                                + " '%s'",
                                        resumed.get(j), how, read.get(i))
                                .containsExactlyElementsOf(
                                        changes(resumed.subList(j + 1, resumed.size())));
                    }
                }
            }
        }
    }

    private static List<Event> sent(SyntheticBinlog binlog, List<Given> given, int index) {
        BinlogPosition at = given.get(index).at;
        return binlog.fromFilePosition(at.file(), at.position());
    }

    /** The changes and statements of {@code given}, each with the position after it. */
    private static List<String> changes(List<Given> given) {
        return given.stream()
                .filter(g -> !g.isHeartbeat())
                .map(Given::toString)
                .collect(Collectors.toList());
    }

    /** What a new reader at {@code start} gives out of what the server {@code sent}. */
    private static List<Given> read(BinlogPosition start, List<Event> sent) {
        List<Given> given = new ArrayList<>();
        BinlogEvents events =
                new BinlogEvents(
                        start,
                        start.gtids(),
                        BinlogEventSequencesTest::decoder,
                        output(given),
                        new StatementLoggedRows(
                                StatementLoggedChanges.FAIL,
                                "source.statement-logged-changes",
                                BinlogEventSequencesTest::decoder,
                                output(given)));
        for (Event event : sent) {
            events.onEvent(event);
        }
        return given;
    }

    /** Only {@code orders} is captured. */
    private static RowsEventDecoder decoder(String database, String table, TableMapEventData map) {
        if (!database.equals(DATABASE) || !table.equals(ORDERS)) {
            return null;
        }
        return RowsEventDecoder.of(
                database, table, List.of(BinlogColumn.of("id", "int", null, true)), ZoneOffset.UTC);
    }

    private static BinlogReader.Output output(List<Given> given) {
        return new BinlogReader.Output() {
            @Override
            public void change(ChangeEvent change, BinlogPosition after) {
                RowImage row = change.after() != null ? change.after() : change.before();
                given.add(
                        new Given(
                                change.type()
                                        + " "
                                        + change.table()
                                        + " "
                                        + row.text(0)
                                        + " "
                                        + change.gtid()
                                        + " "
                                        + change.binlogFile()
                                        + ":"
                                        + change.binlogPosition()
                                        + "#"
                                        + change.rowInEvent(),
                                after));
            }

            @Override
            public void ddl(
                    String statement,
                    String database,
                    RowsEventOrigin origin,
                    BinlogPosition after) {
                given.add(
                        new Given(
                                "DDL "
                                        + statement
                                        + " "
                                        + origin.gtid()
                                        + " "
                                        + origin.file()
                                        + ":"
                                        + origin.position(),
                                after));
            }

            @Override
            public void heartbeat(BinlogPosition at) {
                given.add(new Given("heartbeat", at));
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
}

package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.BinlogReaderException;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.source.ReaderRun.Emitted;
import io.sluice.it.source.ReaderRun.Reported;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's binlog reader on MySQL 8.0.31 (GTIDs on), on transactions MySQL writes in shapes of its
 * own (issue 42):
 *
 * <ul>
 *   <li>XA transactions: the prepared part ends with an {@code XA_PREPARE} event (type 38), and
 *       {@code XA COMMIT} / {@code XA ROLLBACK} is a transaction of its own (GTID and query);
 *       {@code XA COMMIT … ONE PHASE} ends with an {@code XA_PREPARE} event too. Each closes, and
 *       its GTID joins the reader's set.
 *   <li>{@code CREATE TABLE … SELECT}, one transaction since 8.0.21 (GTID, BEGIN, the CREATE TABLE
 *       with START TRANSACTION appended, its rows, XID): the statement is reported once and applied
 *       to the schemas, and a resume at it or inside its rows gives the rest.
 *   <li>The heartbeat MySQL sends before the first event after the transactions a resume at a GTID
 *       set skipped: it reports the resume position with its skip counts, not the position between
 *       transactions; and a heartbeat alone is no progress, so a persistent error inside a
 *       transaction (an event that fails the server's checksum) fails the reader after its
 *       reconnect attempts instead of re-reading the transaction forever.
 *   <li>A binlog connection the server kills inside a 20 MB transaction: the reader reconnects at
 *       the transaction's GTID set and gives every change once, in order.
 *   <li>Heartbeats on an idle captured database, moving past a transaction of another one with its
 *       GTID.
 * </ul>
 *
 * <p>Each read is resumed after each of its changes, by GTID and by file position, and must give
 * exactly the changes that followed, with the same positions (by file position the reader knows no
 * GTID set until the next file starts, so positions compare without it).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlTransactionsITCase {

    @RegisterExtension
    static final MySqlExtension MYSQL =
            MySqlExtension.own(
                    "--source-verify-checksum=ON, and a binlog file corrupted on purpose: a"
                            + " persistent error inside a transaction for every reader of it",
                    "--source-verify-checksum=ON");

    private static final String TABLE = "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))";
    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    @Test
    void xaTransactionsCloseAtPrepareAndAtCommitOrRollbackAndTheirGtidsJoinTheSet()
            throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("xa", null);
        mysql.execute(database, TABLE, MARKER);
        BinlogPosition start = ReaderRun.current(mysql);
        mysql.execute(
                database,
                "INSERT INTO t VALUES (1, 'before')",
                // Two-phase: the rows end with XA PREPARE, XA COMMIT is a transaction of its own.
                "XA START 'x1'",
                "INSERT INTO t VALUES (2, 'x1'), (3, 'x1')",
                "UPDATE t SET v = 'x1 updated' WHERE id = 1",
                "XA END 'x1'",
                "XA PREPARE 'x1'",
                "XA COMMIT 'x1'",
                "INSERT INTO t VALUES (4, 'between')",
                // One phase: one transaction that ends with an XA_PREPARE event as well.
                "XA START 'x2'",
                "INSERT INTO t VALUES (5, 'one phase'), (6, 'one phase')",
                "XA END 'x2'",
                "XA COMMIT 'x2' ONE PHASE",
                // Prepared, then rolled back: its rows are in the binlog, as prepared.
                "XA START 'x3'",
                "DELETE FROM t WHERE id = 4",
                "XA END 'x3'",
                "XA PREPARE 'x3'",
                "XA ROLLBACK 'x3'",
                "BEGIN",
                "INSERT INTO t VALUES (7, 'after'), (8, 'after')",
                "DELETE FROM t WHERE id = 2",
                "COMMIT");
        String gtidsBeforeMarker = ReaderRun.text(mysql, "SELECT @@global.gtid_executed");
        mysql.execute(database, "INSERT INTO marker VALUES (1)");

        ReaderRun all = ReaderRun.read(mysql, database, start, false);
        assertThat(all.keys())
                .as("every change once: the XA transactions' rows as prepared")
                .hasSize(1 + 3 + 1 + 2 + 1 + 3 + 1);
        // Each transaction's changes carry its start; the next transaction starts elsewhere.
        assertThat(transactionSizes(all.changes))
                .as("changes per transaction, in order (%s)", all.changes)
                .containsExactly(1, 3, 1, 2, 1, 3, 1);
        assertThat(all.changes.get(all.changes.size() - 1).after.gtids())
                .as(
                        "the GTID set before the marker's transaction: every XA PREPARE's, XA COMMIT's"
                                + " and XA ROLLBACK's GTID joined it")
                .isEqualTo(gtidsBeforeMarker.replace("\n", ""));

        for (int i = 0; i < all.changes.size() - 1; i++) {
            checkResume(mysql, database, all.changes, i, UnaryOperator.identity());
            checkResume(mysql, database, all.changes, i, p -> p.withGtids(""));
        }
    }

    @Test
    void createTableSelectIsOneTransactionItsStatementReportedOnceAndResumedInsideItsRows()
            throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("ctas", null);
        int rows = 40;
        mysql.execute(
                database,
                "CREATE TABLE src (id INT PRIMARY KEY, v VARCHAR(700))",
                MARKER,
                "INSERT INTO src WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < "
                        + rows
                        + ") SELECT i, REPEAT(CHAR(97 + i % 26), 600) FROM s");
        BinlogPosition start = ReaderRun.current(mysql);
        // The job's schemas (TableSchemas) as of the start: t2 only from its statement.
        TableSchemas schemasAtStart;
        try (Connection connection = mysql.connect(null)) {
            schemasAtStart =
                    TableSchemas.read(
                            connection,
                            (db, table) -> db.equals(database),
                            ColumnTypeStyle.MYSQL,
                            ZoneId.of("UTC"));
        }
        String ctas = "CREATE TABLE t2 (PRIMARY KEY (id)) SELECT id, v FROM src ORDER BY id";
        mysql.execute(database, "INSERT INTO src VALUES (1000, 'before')");
        String gtidsBefore = ReaderRun.text(mysql, "SELECT @@global.gtid_executed");
        mysql.execute(
                database,
                ctas,
                "INSERT INTO t2 VALUES (2000, 'after')",
                "INSERT INTO marker VALUES (1)");

        ReaderRun all = ReaderRun.readReporting(mysql, database, start, Duration.ofMinutes(10));
        // The statement selects the rows and the one inserted before it.
        assertThat(all.changes).as("every change once").hasSize(1 + (rows + 1) + 1 + 1);
        ReaderRun withSchemas = ReaderRun.read(mysql, database, schemasAtStart, start, false);
        assertThat(withSchemas.keys())
                .as("read with the schemas of the start, as the job reads")
                .isEqualTo(all.keys());
        assertThat(all.ddl)
                .as(
                        "the statement, once (statements of every database: %s; binlog: %s)",
                        all.reported.stream()
                                .filter(r -> r.kind.equals("ddl"))
                                .collect(Collectors.toList()),
                        binlogEvents(mysql, start))
                .hasSize(1);
        assertThat(all.ddl.get(0)).startsWithIgnoringCase("CREATE TABLE");
        List<Emitted> selected = all.changes.subList(1, 1 + rows + 1);
        assertThat(selected.stream().map(e -> e.after.events()).distinct().count())
                .as("rows events of the statement's rows (binlog_row_event_max_size 8 KiB)")
                .isGreaterThanOrEqualTo(3);
        Reported ddl =
                all.reported.stream()
                        .filter(r -> r.kind.equals("ddl") && r.what.equals(all.ddl.get(0)))
                        .findFirst()
                        .orElseThrow();

        // At the statement's own position: its rows and what follows, not the statement again.
        for (UnaryOperator<BinlogPosition> how :
                List.<UnaryOperator<BinlogPosition>>of(p -> p, p -> p.withGtids(""))) {
            BinlogPosition at = how.apply(ddl.at);
            ReaderRun rest = ReaderRun.read(mysql, database, at, false);
            assertThat(rest.keys())
                    .as("resumed at the statement's position %s", at)
                    .isEqualTo(keys(all.changes.subList(1, all.changes.size())));
            assertThat(rest.ddl).as("statements resumed at %s", at).isEmpty();
        }
        for (int i = 0; i < all.changes.size() - 1; i++) {
            ReaderRun byGtid = checkResume(mysql, database, all.changes, i, p -> p);
            ReaderRun byFile = checkResume(mysql, database, all.changes, i, p -> p.withGtids(""));
            int reported = i == 0 ? 1 : 0;
            assertThat(byGtid.ddl)
                    .as("statements resumed after change %d by GTID", i)
                    .hasSize(reported);
            assertThat(byFile.ddl)
                    .as("statements resumed after change %d by file", i)
                    .hasSize(reported);
        }
        // One transaction: the statement and its rows carry its position and the GTID set
        // before it, which a resume inside the rows asks the server for.
        assertThat(ddl.at.gtids())
                .as("the GTID set of the statement's position %s", ddl.at)
                .isEqualTo(gtidsBefore.replace("\n", ""));
        assertThat(selected)
                .as("the statement's rows (the statement at %s)", ddl.at)
                .allSatisfy(
                        e -> {
                            assertThat(e.after.gtids()).isEqualTo(ddl.at.gtids());
                            assertThat(e.after.file()).isEqualTo(ddl.at.file());
                            assertThat(e.after.position()).isEqualTo(ddl.at.position());
                        });
    }

    @Test
    void aHeartbeatBeforeTheNextRowOfAResumeByGtidKeepsTheSkipCounts() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("resume_heartbeat", null);
        // A file of the test's own: the resume skips one transaction, then sends a heartbeat.
        mysql.execute(database, TABLE, MARKER, "FLUSH BINARY LOGS");
        BinlogPosition start = ReaderRun.current(mysql);
        mysql.execute(
                database,
                "INSERT INTO t VALUES (1, 'skipped by the server')",
                "BEGIN",
                "INSERT INTO t VALUES (2, 'a'), (3, 'b'), (4, 'c')",
                "INSERT INTO t VALUES (5, 'd'), (6, 'e')",
                "UPDATE t SET v = 'f' WHERE id <= 3",
                "COMMIT",
                "INSERT INTO marker VALUES (1)");
        ReaderRun all = ReaderRun.read(mysql, database, start, false);
        assertThat(all.changes).hasSize(1 + 3 + 2 + 3 + 1);

        // Inside the first rows event, and inside the second: skip counts of both kinds.
        for (int i : new int[] {2, 4}) {
            BinlogPosition at = all.changes.get(i).after;
            assertThat(at.rows()).as("rows to skip at %s", at).isPositive();
            ReaderRun resumed =
                    ReaderRun.readReporting(mysql, database, at, Duration.ofMinutes(10));
            List<Reported> beforeNextRow = new ArrayList<>();
            for (Reported r : resumed.reported) {
                if (r.kind.equals("change")) {
                    break;
                }
                beforeNextRow.add(r);
            }
            assertThat(beforeNextRow)
                    .as(
                            "the server's heartbeat after the transaction it skipped (%s)",
                            resumed.reported)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.kind).isEqualTo("heartbeat"));
            for (Reported heartbeat : beforeNextRow) {
                assertThat(heartbeat.at)
                        .as(
                                "the position of the heartbeat before the next row, resumed by GTID"
                                        + " at %s",
                                at)
                        .isEqualTo(at);
            }
            List<String> rest = keys(all.changes.subList(i + 1, all.changes.size()));
            assertThat(resumed.keys()).as("resumed at %s", at).isEqualTo(rest);
            for (Reported heartbeat : beforeNextRow) {
                assertThat(ReaderRun.read(mysql, database, heartbeat.at, false).keys())
                        .as("resumed at the heartbeat's position %s", heartbeat.at)
                        .isEqualTo(rest);
            }
        }
    }

    /**
     * The server kills the binlog connection inside one large transaction, again and again: the
     * reader reconnects at the transaction's GTID set, skips the rows it gave, and gives every
     * change once, in order.
     */
    @Test
    void aKilledConnectionResumesByGtidInsideATransactionWithEveryChangeOnce() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("reader_kill", null);
        mysql.execute(database, "CREATE TABLE big (id INT PRIMARY KEY, v VARCHAR(1000))", MARKER);
        BinlogPosition start = ReaderRun.current(mysql);
        // 20 MB of rows in one transaction, more than the sockets between server and reader hold:
        // a kill after 3,000 rows leaves rows of it to the next connection, however fast each is.
        mysql.execute(
                database,
                "SET SESSION cte_max_recursion_depth = 100000",
                "INSERT INTO big WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 20000) SELECT i, REPEAT('x', 1000) FROM s",
                "UPDATE big SET v = 'y' WHERE id <= 1000",
                "INSERT INTO marker VALUES (1)");
        ReaderRun all = ReaderRun.read(mysql, database, start, false);
        assertThat(all.changes).hasSize(20_000 + 1_000 + 1);

        List<Long> killed = new ArrayList<>();
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        List<Long> insertConnections = new ArrayList<>();
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(
                                mysql.host(), mysql.port(), mysql.cdcUser(), mysql.cdcPassword())
                        .serverId(5613)
                        .reconnectAttempts(3, Duration.ofMillis(100))
                        .build(
                                ReaderRun.currentColumns(mysql, database),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        got.add(new Emitted(change, after).key());
                                        long id = self.get().connectionId();
                                        if (got.size() <= 20_000
                                                && !insertConnections.contains(id)) {
                                            insertConnections.add(id);
                                        }
                                        if (killed.size() < 3
                                                && !killed.contains(id)
                                                && got.size() % 3_000 == 0) {
                                            assertThat(after.gtids())
                                                    .as("the position to resume from")
                                                    .isNotEmpty();
                                            killed.add(id);
                                            mysql.execute(null, "KILL " + id);
                                        }
                                        if (change.table().equals("marker")) {
                                            self.get().close();
                                        }
                                    }
                                });
        self.set(reader);
        ReaderRun.untilMarker(reader, start, Duration.ofMinutes(2), () -> got.size() + " changes");
        assertThat(insertConnections)
                .as("connections that gave rows of the one INSERT (killed: %s)", killed)
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(got).as("every change once, in order").isEqualTo(all.keys());
    }

    /**
     * On an idle captured database, MySQL's heartbeats move the reader on: first at the start,
     * then, after a transaction of a database it does not capture, past it with that GTID in the
     * set.
     */
    @Test
    void heartbeatsMoveAnIdleReaderPastTransactionsItDoesNotCapture() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("reader_idle", null);
        String other = mysql.createDatabase("reader_other", null);
        mysql.execute(database, TABLE);
        mysql.execute(other, TABLE);
        BinlogPosition start = ReaderRun.current(mysql);
        BlockingQueue<BinlogPosition> heartbeats = new LinkedBlockingQueue<>();
        BinlogReader reader =
                BinlogReader.builder(
                                mysql.host(), mysql.port(), mysql.cdcUser(), mysql.cdcPassword())
                        .serverId(5614)
                        .reconnectAttempts(3, Duration.ofMillis(100))
                        .heartbeatInterval(Duration.ofMillis(500))
                        .build(
                                ReaderRun.currentColumns(mysql, database),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        throw new AssertionError("no change expected: " + change);
                                    }

                                    @Override
                                    public void heartbeat(BinlogPosition at) {
                                        heartbeats.add(at);
                                    }
                                });
        Thread thread = new Thread(() -> reader.run(start), "binlog-reader-idle");
        thread.setDaemon(true);
        thread.start();
        try {
            BinlogPosition idle = heartbeats.poll(2, TimeUnit.MINUTES);
            assertThat(idle).as("a heartbeat").isNotNull();
            assertThat(idle.file()).isEqualTo(start.file());
            assertThat(idle.position()).isEqualTo(start.position());
            mysql.execute(other, "INSERT INTO t VALUES (1, 'not captured')");
            BinlogPosition moved = ReaderRun.current(mysql);
            assertThat(moved.gtids()).as("the write's GTID").isNotEqualTo(start.gtids());
            BinlogPosition after = ReaderRun.heartbeatPast(heartbeats, start);
            assertThat(after.file()).isEqualTo(moved.file());
            assertThat(after.position()).as("moved past the write").isEqualTo(moved.position());
            assertThat(after.gtids()).as("with its GTID").isEqualTo(moved.gtids());
        } finally {
            reader.close();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    @Test
    void aPersistentErrorInsideATransactionFailsAfterTheReconnectAttempts() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("persistent_error", null);
        mysql.execute(database, TABLE, MARKER, "FLUSH BINARY LOGS");
        BinlogPosition start = ReaderRun.current(mysql);
        mysql.execute(
                database,
                "INSERT INTO t VALUES (1, 'skipped by the server')",
                "BEGIN",
                "INSERT INTO t VALUES (2, 'a'), (3, 'b')",
                "INSERT INTO t VALUES (4, 'c')",
                "INSERT INTO t VALUES (5, 'broken'), (6, 'broken')",
                "COMMIT",
                "INSERT INTO marker VALUES (1)",
                // The file is closed before a byte of it changes.
                "FLUSH BINARY LOGS");
        ReaderRun all = ReaderRun.read(mysql, database, start, false);
        assertThat(all.changes).hasSize(1 + 2 + 1 + 2 + 1);
        BinlogPosition before = all.changes.get(3).after;
        assertThat(before.events()).as("rows events read at %s", before).isEqualTo(2);
        assertThat(before.rows()).isZero();

        // The third rows event of the transaction fails the server's checksum, at every read.
        long[] third = rowsEvent(mysql, before, 2);
        Path file = mysql.workDir().resolve("data").resolve(before.file());
        try (RandomAccessFile binlog = new RandomAccessFile(file.toFile(), "rw")) {
            long at = third[1] - 5; // a byte of its last row, before the checksum
            binlog.seek(at);
            int b = binlog.read();
            binlog.seek(at);
            binlog.write(b ^ 0xFF);
        }

        List<String> changes = Collections.synchronizedList(new ArrayList<>());
        List<BinlogPosition> heartbeats = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(
                                mysql.host(), mysql.port(), mysql.cdcUser(), mysql.cdcPassword())
                        .serverId(5602)
                        .heartbeatInterval(Duration.ofMinutes(10))
                        .reconnectAttempts(2, Duration.ofMillis(100))
                        .build(
                                ReaderRun.currentColumns(mysql, database),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        // Every change before the broken event was given out.
                                        changes.add(new Emitted(change, after).toString());
                                        self.get().close();
                                    }

                                    @Override
                                    public void heartbeat(BinlogPosition at) {
                                        heartbeats.add(at);
                                    }
                                });
        self.set(reader);
        Throwable failure =
                ReaderRun.untilStopped(
                        reader,
                        before,
                        Duration.ofMinutes(2),
                        () -> "changes " + changes + ", heartbeats " + heartbeats);
        assertThat(changes)
                .as("changes given again, resumed at %s (heartbeats %s)", before, heartbeats)
                .isEmpty();
        assertThat(heartbeats)
                .as("the heartbeats of each connection after the transaction it skipped")
                .isNotEmpty()
                .containsOnly(before);
        assertThat(failure)
                .as("the reader's failure")
                .isInstanceOf(BinlogReaderException.class)
                .hasMessageContaining("could not resume at " + before + " in 2 attempts")
                .hasMessageContaining("did not pass crc check");
    }

    /** The binlog's events from {@code position} on ({@code SHOW BINLOG EVENTS}), for messages. */
    private static List<String> binlogEvents(MySqlServer mysql, BinlogPosition position)
            throws Exception {
        List<String> seen = new ArrayList<>();
        try (Connection connection = mysql.connect(null);
                Statement statement = connection.createStatement();
                ResultSet events =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + position.file()
                                        + "' FROM "
                                        + position.position())) {
            while (events.next()) {
                String info = events.getString("Info");
                seen.add(
                        events.getLong("Pos")
                                + " "
                                + events.getString("Event_type")
                                + " "
                                + (info.length() > 200 ? info.substring(0, 200) + "…" : info));
            }
        }
        return seen;
    }

    /**
     * The start and end of the {@code index}th rows event (from 0) of the transaction at {@code
     * position}, from {@code SHOW BINLOG EVENTS}.
     */
    private static long[] rowsEvent(MySqlServer mysql, BinlogPosition position, int index)
            throws Exception {
        List<String> seen = new ArrayList<>();
        try (Connection connection = mysql.connect(null);
                Statement statement = connection.createStatement();
                ResultSet events =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + position.file()
                                        + "' FROM "
                                        + position.position())) {
            int rowsEvents = 0;
            while (events.next()) {
                String type = events.getString("Event_type");
                seen.add(type + "@" + events.getLong("Pos"));
                if (type.endsWith("_rows") && rowsEvents++ == index) {
                    return new long[] {events.getLong("Pos"), events.getLong("End_log_pos")};
                }
            }
        }
        throw new AssertionError(
                "No rows event " + index + " in the transaction at " + position + ": " + seen);
    }

    /**
     * Resumed after change {@code i} at its position ({@code how} changed), the reader gives
     * exactly the changes after it, with the same positions.
     */
    private static ReaderRun checkResume(
            MySqlServer mysql,
            String database,
            List<Emitted> first,
            int i,
            UnaryOperator<BinlogPosition> how)
            throws Exception {
        BinlogPosition at = how.apply(first.get(i).after);
        boolean byFile = at.gtids().isEmpty();
        ReaderRun rest = ReaderRun.read(mysql, database, at, false);
        assertThat(rest.keys())
                .as("resumed at %s (after change %d of %d: %s)", at, i, first.size(), first.get(i))
                .isEqualTo(keys(first.subList(i + 1, first.size())));
        for (int k = 0; k < rest.changes.size(); k++) {
            BinlogPosition expected = first.get(i + 1 + k).after;
            assertThat(rest.changes.get(k).after)
                    .as("position of change %d resumed at %s", i + 1 + k, at)
                    .isEqualTo(byFile ? expected.withGtids("") : expected);
        }
        return rest;
    }

    /** How many changes each transaction gave, in order: runs of one transaction position. */
    private static List<Integer> transactionSizes(List<Emitted> changes) {
        List<Integer> sizes = new ArrayList<>();
        String last = null;
        for (Emitted e : changes) {
            String transaction = e.after.file() + ":" + e.after.position();
            if (transaction.equals(last)) {
                sizes.set(sizes.size() - 1, sizes.get(sizes.size() - 1) + 1);
            } else {
                sizes.add(1);
                last = transaction;
            }
        }
        return sizes;
    }

    private static List<String> keys(List<Emitted> changes) {
        return changes.stream().map(Emitted::key).collect(Collectors.toList());
    }
}

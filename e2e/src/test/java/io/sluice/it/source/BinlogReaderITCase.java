package io.sluice.it.source;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;

import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.BinlogReaderException;
import io.sluice.functions.source.binlog.TableDecoders;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.binlog.TableSchemasSerializer;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sluice's binlog reader ({@link BinlogReader}) on the real binlog of MariaDB 11.4: resumed at the
 * positions it gives out (inside a 20,000-row statement, inside a multi-statement transaction,
 * across a file rotation, by GTID and by file position) it continues with exactly the changes that
 * followed; it survives killed connections exactly once; heartbeats move an idle reader on; it
 * tells its output when it has read all the server sent; and it refuses a server it cannot read
 * with a message naming the setting.
 *
 * <p>Resumes are tried at one position of each kind (table, change type, file, first or later event
 * of its transaction, first, later or last row of its rows event; {@link ResumePoints}) by GTID and
 * by file position, and at a random sample of the rest, not at every position: each resume is a new
 * connection and a read to the end.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BinlogReaderITCase {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            MariaDbExtension.own(
                    "SET GLOBAL binlog_format and binlog_row_metadata; PURGE BINARY LOGS");

    private static final String TABLE =
            "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40), n BIGINT)";
    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    /** A change as the comparison sees it, and the position the reader gave with it. */
    private static final class Emitted {
        final String change;
        final BinlogPosition after;

        Emitted(ChangeEvent change, BinlogPosition after) {
            this.change =
                    change.table()
                            + " "
                            + change.type()
                            + " "
                            + change.before()
                            + " "
                            + change.after();
            this.after = after;
        }

        @Override
        public String toString() {
            return change + " @ " + after;
        }
    }

    @Test
    void resumesExactlyInsideALargeStatementAndAMultiStatementTransaction() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_resume", null);
        mariaDb.execute(database, TABLE, MARKER);
        BinlogPosition start = current(mariaDb);
        mariaDb.execute(
                database,
                // One statement, many rows events.
                "SET SESSION max_recursive_iterations = 1000000",
                "INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 20000) SELECT i, CONCAT('row-', i), i * 7 FROM s",
                "BEGIN",
                "INSERT INTO t VALUES (30001, 'a', 1), (30002, 'b', 2)",
                "UPDATE t SET n = n + 1 WHERE id <= 700",
                "DELETE FROM t WHERE id BETWEEN 801 AND 1000",
                "INSERT INTO t VALUES (30003, 'c', 3)",
                "COMMIT",
                "UPDATE t SET v = 'single' WHERE id = 5",
                "INSERT INTO marker VALUES (1)");

        List<Emitted> first = read(mariaDb, database, start, e -> {});
        assertThat(first).as("every change once").hasSize(20000 + 2 + 700 + 200 + 1 + 1 + 1);
        assertThat(first.subList(0, 20000))
                .as("the statement's rows events")
                .extracting(e -> e.after.events())
                .contains(0L, 10L);

        ResumePoints points = ResumePoints.of(first, 60);
        assertThat(points.firstOfEachKind())
                .as("kinds of resume point (%s)", points)
                .hasSizeGreaterThanOrEqualTo(12);
        resumeAtEach(mariaDb, database, first, points, 2);
    }

    @Test
    void resumesAcrossARotationByGtidAndByFilePosition() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_rotate", null);
        mariaDb.execute(database, TABLE, MARKER);
        BinlogPosition start = current(mariaDb);
        mariaDb.execute(
                database,
                "SET SESSION max_recursive_iterations = 1000000",
                "INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 600) SELECT i, REPEAT('x', 40), i FROM s",
                "BEGIN",
                "UPDATE t SET n = 0 WHERE id <= 10",
                "DELETE FROM t WHERE id = 11",
                "COMMIT",
                "FLUSH BINARY LOGS",
                "UPDATE t SET n = -1 WHERE id <= 400",
                "CREATE TABLE later (id INT PRIMARY KEY)");
        String gtidsAfterDdl = query(mariaDb, "SELECT @@gtid_binlog_pos");
        mariaDb.execute(database, "INSERT INTO later VALUES (1)", "INSERT INTO marker VALUES (1)");

        List<String> ddl = new ArrayList<>();
        List<BinlogPosition> ddlAt = new ArrayList<>();
        List<Emitted> first =
                read(
                        mariaDb,
                        database,
                        start,
                        reader -> {},
                        (statement, db, after) -> {
                            if (database.equals(db)) {
                                ddl.add(statement);
                                ddlAt.add(after);
                            }
                        });
        assertThat(first).hasSize(600 + 10 + 1 + 399 + 1 + 1);
        assertThat(first.stream().map(e -> e.after.file()).distinct()).as("files").hasSize(2);
        assertThat(ddl).containsExactly("CREATE TABLE later (id INT PRIMARY KEY)");
        assertThat(ddlAt.get(0).gtids()).as("GTIDs after the DDL").isEqualTo(gtidsAfterDdl);
        long lastSequence = -1;
        for (Emitted e : first) {
            assertThat(e.after.gtids()).as("MariaDB GTID state").matches("0-1-\\d+");
            long sequence = Long.parseLong(e.after.gtids().substring(4));
            assertThat(sequence).as("GTID sequence").isGreaterThanOrEqualTo(lastSequence);
            lastSequence = sequence;
        }
        // Flink CDC's offsets count every event from the transaction's start (GTID event,
        // annotate-rows, table map, rows): after 3 of the 10 updates, and before the delete.
        BinlogPosition update = first.get(602).after;
        assertThat(update.events()).isZero();
        assertThat(update.rows()).isEqualTo(3);
        ResumePoints points = ResumePoints.of(first, 40);
        checkResume(mariaDb, database, first, 602, p -> flinkCdc(p, 3, 3), points);
        checkResume(mariaDb, database, first, 609, p -> flinkCdc(p, 6, 0), points);
        assertThat(points.firstOfEachKind().stream().map(i -> first.get(i).after.file()).distinct())
                .as("resume points in both files (%s)", points)
                .hasSize(2);
        resumeAtEach(mariaDb, database, first, points, 3);
    }

    @Test
    void continuesExactlyOnceAfterTheServerKillsTheConnection() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_kill", null);
        mariaDb.execute(database, TABLE, MARKER);
        BinlogPosition start = current(mariaDb);
        mariaDb.execute(
                database,
                "SET SESSION max_recursive_iterations = 1000000",
                "INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 200000) SELECT i, CONCAT('row-', i), i FROM s",
                "UPDATE t SET n = 0 WHERE id <= 3000",
                "INSERT INTO marker VALUES (1)");
        List<Emitted> expected = read(mariaDb, database, start, e -> {});

        List<Long> connections = new ArrayList<>();
        int[] seen = {0};
        List<Emitted> got =
                read(
                        mariaDb,
                        database,
                        start,
                        reader -> {
                            seen[0]++;
                            long id = reader.connectionId();
                            if (connections.size() < 3 && !connections.contains(id)) {
                                // Slow, so that the server cannot send all before the kill:
                                // what it sent is read, then the reader resumes mid-statement.
                                if (seen[0] % 100 == 0) {
                                    sleep();
                                }
                                if (seen[0] % 3_000 == 0) {
                                    connections.add(id);
                                    mariaDb.execute(null, "KILL " + id);
                                }
                            }
                        });
        assertThat(connections).as("connections killed").hasSizeGreaterThanOrEqualTo(2);
        assertThat(keys(got)).as("every change once, in order").isEqualTo(keys(expected));
    }

    @Test
    void heartbeatsMoveAnIdleReaderOn() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_idle", null);
        String other = mariaDb.createDatabase("reader_other", null);
        mariaDb.execute(database, TABLE);
        mariaDb.execute(other, TABLE);
        BinlogPosition start = current(mariaDb);
        BlockingQueue<BinlogPosition> heartbeats = new LinkedBlockingQueue<>();
        BinlogReader reader =
                reader(mariaDb, database)
                        .heartbeatInterval(Duration.ofMillis(500))
                        .build(
                                decoders(mariaDb, database),
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
        Thread thread = runInBackground(reader, start);
        try {
            BinlogPosition idle = heartbeats.poll(2, TimeUnit.MINUTES);
            assertThat(idle).as("a heartbeat").isNotNull();
            assertThat(idle.file()).isEqualTo(start.file());
            assertThat(idle.position()).isEqualTo(start.position());
            mariaDb.execute(other, "INSERT INTO t VALUES (1, 'not captured', 1)");
            BinlogPosition moved = current(mariaDb);
            BinlogPosition after = ReaderRun.heartbeatPast(heartbeats, start);
            assertThat(after.file()).isEqualTo(moved.file());
            assertThat(after.position()).as("moved past the write").isEqualTo(moved.position());
            assertThat(after.gtids()).isEqualTo(moved.gtids());
        } finally {
            reader.close();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    @Test
    void tellsItsOutputWhenItCaughtUpWithTheServer() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_caught_up", null);
        mariaDb.execute(database, TABLE);
        BinlogPosition start = current(mariaDb);
        BlockingQueue<String> calls = new LinkedBlockingQueue<>();
        BinlogReader reader =
                reader(mariaDb, database)
                        // No heartbeat while the test runs: only the reader's own reads report.
                        .heartbeatInterval(Duration.ofMinutes(10))
                        .build(
                                decoders(mariaDb, database),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        calls.add("change " + change.after().text(0));
                                    }

                                    @Override
                                    public void heartbeat(BinlogPosition at) {
                                        calls.add("heartbeat");
                                    }

                                    @Override
                                    public void caughtUp() {
                                        calls.add("caught up");
                                    }
                                });
        Thread thread = runInBackground(reader, start);
        try {
            for (int statement = 0; statement < 2; statement++) {
                int first = statement * 3 + 1;
                mariaDb.execute(
                        database,
                        String.format(
                                "INSERT INTO t VALUES (%d, 'a', 1), (%d, 'b', 2), (%d, 'c', 3)",
                                first, first + 1, first + 2));
                List<String> seen = new ArrayList<>();
                String call;
                do {
                    call = calls.poll(2, TimeUnit.MINUTES);
                    assertThat(call).as("the calls after %s", seen).isNotNull();
                    seen.add(call);
                } while (!call.equals("change " + (first + 2)));
                // Nothing more to read: before it waits, the reader says so.
                assertThat(calls.poll(2, TimeUnit.MINUTES))
                        .as("after the rows event's changes %s", seen)
                        .isEqualTo("caught up");
                assertThat(seen.subList(seen.size() - 3, seen.size()))
                        .as("the rows event's changes, together")
                        .containsExactly(
                                "change " + first,
                                "change " + (first + 1),
                                "change " + (first + 2));
                assertThat(seen).doesNotContain("heartbeat");
            }
        } finally {
            reader.close();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    @Test
    void refusesAServerItCannotRead() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_checks", null);
        BinlogPosition start = current(mariaDb);
        mariaDb.execute(null, "SET GLOBAL binlog_format = 'STATEMENT'");
        try {
            assertThatThrownBy(
                            () ->
                                    reader(mariaDb, database)
                                            .build(
                                                    decoders(mariaDb, database),
                                                    (change, after) -> {})
                                            .run(start))
                    .isInstanceOf(SourceSetupException.class)
                    .hasMessageContaining("binlog_format is STATEMENT");
        } finally {
            mariaDb.execute(null, "SET GLOBAL binlog_format = 'ROW'");
        }
        // MariaDB keeps a file until its binlog checkpoint moved on: purge until it is gone.
        for (int attempt = 0; binlogFiles(mariaDb).contains(start.file()); attempt++) {
            assertThat(attempt).as("purge attempts").isLessThan(100);
            mariaDb.execute(null, "FLUSH BINARY LOGS");
            Thread.sleep(100);
            mariaDb.execute(null, "PURGE BINARY LOGS TO '" + current(mariaDb).file() + "'");
        }
        assertThatThrownBy(
                        () ->
                                reader(mariaDb, database)
                                        .build(decoders(mariaDb, database), (change, after) -> {})
                                        .run(start))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("The binlog reader's start position " + start)
                .hasMessageContaining("names '" + start.file() + "', which the server at")
                .hasMessageContaining("no longer has (purged)");
    }

    @Test
    void failsClearlyWhenATableMapDoesNotFitTheColumns() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("reader_misfit", null);
        mariaDb.execute(database, TABLE);
        BinlogPosition start = current(mariaDb);
        mariaDb.execute(
                database, "INSERT INTO t VALUES (1, 'a', 1)", "ALTER TABLE t ADD COLUMN w INT");
        BinlogReader reader =
                reader(mariaDb, database).build(decoders(mariaDb, database), (change, after) -> {});
        assertThatThrownBy(() -> reader.run(start))
                .isInstanceOf(BinlogReaderException.class)
                .hasMessageContaining("has 3 columns but the schema Sluice holds has 4");
    }

    /**
     * DDL read live by one reader whose decoders are {@link TableSchemas}: each statement reaches
     * the schemas before the table maps after it, so every row comes with the columns of its own
     * point; and the reader's checkpoint (the position after a change and the schemas as of the
     * last statement before it) resumes with exactly the rest, where today's information_schema
     * cannot.
     */
    @Test
    void followsDdlLiveAndResumesFromAPositionAndItsSchemas() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = MINIMAL");
        String database = mariaDb.createDatabase("reader_ddl", null);
        mariaDb.execute(
                database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), n INT)", MARKER);
        BinlogPosition start = current(mariaDb);
        TableSchemas atStart = schemasNow(mariaDb, database);
        FutureTask<List<Checkpointed>> live =
                new FutureTask<>(() -> readWithSchemas(mariaDb, database, atStart, start));
        new Thread(live, "binlog-reader-live").start();
        mariaDb.execute(
                database,
                "INSERT INTO t VALUES (1, 'a', 10)",
                "ALTER TABLE t ADD COLUMN w VARCHAR(5) AFTER v",
                "INSERT INTO t VALUES (2, 'b', 'x', 20)",
                "ALTER TABLE t DROP COLUMN n",
                "INSERT INTO t VALUES (3, 'c', 'y')",
                "BEGIN",
                "INSERT INTO t VALUES (4, 'd', 'z')",
                "UPDATE t SET w = 'q' WHERE id <= 2",
                "COMMIT",
                "ALTER TABLE t MODIFY id BIGINT, MODIFY v VARCHAR(30) CHARACTER SET latin1",
                "UPDATE t SET v = 'é' WHERE id = 1",
                "RENAME TABLE t TO t2",
                "INSERT INTO t2 VALUES (5, 'e', NULL)",
                "DELETE FROM t2 WHERE id = 2",
                "INSERT INTO marker VALUES (1)");
        List<Checkpointed> first = live.get(3, TimeUnit.MINUTES);
        String v1 = "t (id int(11) key, v varchar(10), n int(11))";
        String v2 = "t (id int(11) key, v varchar(10), w varchar(5), n int(11))";
        String v3 = "t (id int(11) key, v varchar(10), w varchar(5))";
        String v4 = "t (id bigint(20) key, v varchar(30), w varchar(5))";
        String v5 = "t2 (id bigint(20) key, v varchar(30), w varchar(5))";
        assertThat(first)
                .extracting(c -> c.change)
                .containsExactly(
                        v1 + " INSERT after [1, a, 10]",
                        v2 + " INSERT after [2, b, x, 20]",
                        v3 + " INSERT after [3, c, y]",
                        v3 + " INSERT after [4, d, z]",
                        v3 + " UPDATE before [1, a, null] after [1, a, q]",
                        v3 + " UPDATE before [2, b, x] after [2, b, q]",
                        v4 + " UPDATE before [1, a, q] after [1, é, q]",
                        v5 + " INSERT after [5, e, null]",
                        v5 + " DELETE before [2, b, q]",
                        "marker (id int(11) key) INSERT after [1]");

        for (int i = 0; i < first.size() - 1; i++) {
            Checkpointed at = first.get(i);
            // The checkpoint as it is stored: the schemas serialized and read back.
            TableSchemas.State stored =
                    TableSchemasSerializer.INSTANCE.deserialize(
                            TableSchemasSerializer.INSTANCE.getVersion(),
                            TableSchemasSerializer.INSTANCE.serialize(at.schemas));
            TableSchemas restored =
                    TableSchemas.restore(
                            stored,
                            (db, table) -> db.equals(database),
                            ColumnTypeStyle.MARIADB,
                            ZoneId.of("UTC"));
            assertThat(readWithSchemas(mariaDb, database, restored, at.after))
                    .as("resumed after change %d at %s", i, at.after)
                    .extracting(c -> c.change + " @ " + c.after)
                    .containsExactlyElementsOf(
                            first.subList(i + 1, first.size()).stream()
                                    .map(c -> c.change + " @ " + c.after)
                                    .collect(Collectors.toList()));
        }

        // Today's information_schema knows t2 only: rows of t before the rename cannot be read.
        Checkpointed afterDrop = first.get(2);
        assertThatThrownBy(
                        () ->
                                readWithSchemas(
                                        mariaDb,
                                        database,
                                        schemasNow(mariaDb, database),
                                        afterDrop.after))
                .hasStackTraceContaining("whose schema Sluice does not know at this point");
    }

    /** A change as rendered with its columns, the position after it and the schemas there. */
    private static final class Checkpointed {
        final String change;
        final BinlogPosition after;
        final TableSchemas.State schemas;

        Checkpointed(String change, BinlogPosition after, TableSchemas.State schemas) {
            this.change = change;
            this.after = after;
            this.schemas = schemas;
        }
    }

    /**
     * Every change of {@code database} from {@code start} up to the marker row's, read with {@code
     * schemas}, each with the reader's checkpoint after it.
     */
    private static List<Checkpointed> readWithSchemas(
            MariaDbServer mariaDb, String database, TableSchemas schemas, BinlogPosition start) {
        List<Checkpointed> seen = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        TableSchemas.State[] last = {schemas.snapshot()};
        BinlogReader reader =
                reader(mariaDb, database)
                        .build(
                                schemas,
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        seen.add(
                                                new Checkpointed(
                                                        ChangeText.withColumns(change),
                                                        after,
                                                        last[0]));
                                        if (change.table().equals("marker")) {
                                            self.get().close();
                                        }
                                    }

                                    @Override
                                    public void ddl(
                                            String statement, String db, BinlogPosition after) {
                                        last[0] = schemas.snapshot();
                                    }
                                });
        self.set(reader);
        FutureTask<Void> run = new FutureTask<>(() -> reader.run(start), null);
        new Thread(run, "binlog-reader-test").start();
        try {
            run.get(3, TimeUnit.MINUTES);
        } catch (Exception e) {
            reader.close();
            throw new IllegalStateException(
                    "The reader from " + start + " failed or did not reach the marker", e);
        }
        return new ArrayList<>(seen);
    }

    private static TableSchemas schemasNow(MariaDbServer mariaDb, String database)
            throws Exception {
        try (Connection connection = mariaDb.connect(null)) {
            return TableSchemas.read(
                    connection,
                    (db, table) -> db.equals(database),
                    ColumnTypeStyle.MARIADB,
                    ZoneId.of("UTC"));
        }
    }

    /**
     * Where to resume a first read's changes: the first change of each kind of position (its table
     * and change type, its file, whether it is the first event of its transaction, whether it is
     * the first row of its rows event or the last before the next event), so every kind of boundary
     * is tried once, and a random sample of the rest. The seed is random unless {@code
     * -Dsluice.it.seed} names one; a failed assertion names it.
     */
    static final class ResumePoints {
        private final Map<String, Integer> firstOfKind = new LinkedHashMap<>();
        private final Map<Integer, String> kindOf = new HashMap<>();
        private final Set<Integer> sample = new TreeSet<>();
        private final long seed;

        private ResumePoints(long seed) {
            this.seed = seed;
        }

        /**
         * The resume points of {@code first} (not its last change): one per kind, and {@code n}.
         */
        static ResumePoints of(List<Emitted> first, int n) {
            String property = System.getProperty("sluice.it.seed");
            ResumePoints points =
                    new ResumePoints(
                            property == null ? new Random().nextLong() : Long.parseLong(property));
            for (int i = 0; i < first.size() - 1; i++) {
                BinlogPosition after = first.get(i).after;
                String[] change = first.get(i).change.split(" ", 3);
                String kind =
                        change[0]
                                + " "
                                + change[1]
                                + ", "
                                + after.file()
                                + (after.events() == 0 ? ", first event" : ", later event")
                                + (after.rows() <= 1 ? ", row " + after.rows() : ", later row")
                                + (first.get(i + 1).after.rows() == 0 ? ", last of event" : "");
                points.kindOf.put(i, kind);
                points.firstOfKind.putIfAbsent(kind, i);
            }
            Random random = new Random(points.seed);
            int candidates = first.size() - 1;
            while (points.sample.size() < Math.min(n, candidates - points.firstOfKind.size())) {
                int i = random.nextInt(candidates);
                if (!points.firstOfKind.containsValue(i)) {
                    points.sample.add(i);
                }
            }
            return points;
        }

        Collection<Integer> firstOfEachKind() {
            return firstOfKind.values();
        }

        Set<Integer> sample() {
            return sample;
        }

        String describe(int i) {
            return (firstOfKind.containsValue(i) ? "first of its kind: " : "sampled: ")
                    + kindOf.get(i)
                    + ", seed "
                    + seed;
        }

        @Override
        public String toString() {
            return firstOfKind.size() + " kinds " + firstOfKind.keySet() + ", seed " + seed;
        }
    }

    /**
     * Resumes after the first change of each kind by GTID and by file position, and after each
     * sampled change by file position alone for one in {@code byPositionEvery}, else by GTID.
     */
    private static void resumeAtEach(
            MariaDbServer mariaDb,
            String database,
            List<Emitted> first,
            ResumePoints points,
            int byPositionEvery)
            throws Exception {
        UnaryOperator<BinlogPosition> byGtid = UnaryOperator.identity();
        UnaryOperator<BinlogPosition> byPosition = p -> p.withGtids("");
        for (int i : points.firstOfEachKind()) {
            checkResume(mariaDb, database, first, i, byGtid, points);
            checkResume(mariaDb, database, first, i, byPosition, points);
        }
        for (int i : points.sample()) {
            checkResume(
                    mariaDb,
                    database,
                    first,
                    i,
                    i % byPositionEvery == 0 ? byPosition : byGtid,
                    points);
        }
    }

    /** Resumed after change {@code i}, the reader gives exactly the changes after it. */
    private static void checkResume(
            MariaDbServer mariaDb,
            String database,
            List<Emitted> first,
            int i,
            UnaryOperator<BinlogPosition> how,
            ResumePoints points)
            throws Exception {
        BinlogPosition at = how.apply(first.get(i).after);
        List<Emitted> rest = read(mariaDb, database, at, e -> {});
        List<String> expected = keys(first.subList(i + 1, first.size()));
        assertThat(keys(rest))
                .as(
                        "resumed at %s (after change %d of %d, %s)",
                        at, i, first.size(), points.describe(i))
                .isEqualTo(expected);
        for (int k = 0; k < rest.size(); k++) {
            assertThat(rest.get(k).after)
                    .as("position of change %d resumed at %s", i + 1 + k, at)
                    .isEqualTo(first.get(i + 1 + k).after);
        }
    }

    /** {@code position}'s transaction as an offset Flink CDC wrote: its own event count. */
    private static BinlogPosition flinkCdc(BinlogPosition position, long event, long row) {
        Map<String, String> offset = new HashMap<>();
        offset.put(BinlogOffset.BINLOG_FILENAME_OFFSET_KEY, position.file());
        offset.put(BinlogOffset.BINLOG_POSITION_OFFSET_KEY, String.valueOf(position.position()));
        offset.put(BinlogOffset.EVENTS_TO_SKIP_OFFSET_KEY, String.valueOf(event));
        offset.put(BinlogOffset.ROWS_TO_SKIP_OFFSET_KEY, String.valueOf(row));
        offset.put(BinlogOffset.GTID_SET_KEY, position.gtids());
        offset.put(BinlogOffset.SERVER_ID_KEY, String.valueOf(position.serverId()));
        BinlogPosition read = BinlogPosition.fromBinlogOffset(new BinlogOffset(offset));
        assertThat(read.countsAllEvents()).isTrue();
        return read;
    }

    private static List<String> keys(List<Emitted> emitted) {
        List<String> keys = new ArrayList<>(emitted.size());
        for (Emitted e : emitted) {
            keys.add(e.change);
        }
        return keys;
    }

    private static List<Emitted> read(
            MariaDbServer mariaDb,
            String database,
            BinlogPosition start,
            Consumer<BinlogReader> onChange)
            throws Exception {
        return read(mariaDb, database, start, onChange, (statement, db, after) -> {});
    }

    private interface Ddl {
        void accept(String statement, String database, BinlogPosition after);
    }

    /** Every change of {@code database} from {@code start} up to the marker row's. */
    private static List<Emitted> read(
            MariaDbServer mariaDb,
            String database,
            BinlogPosition start,
            Consumer<BinlogReader> onChange,
            Ddl onDdl)
            throws Exception {
        List<Emitted> emitted = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                reader(mariaDb, database)
                        .build(
                                decoders(mariaDb, database),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        emitted.add(new Emitted(change, after));
                                        onChange.accept(self.get());
                                        if (change.table().equals("marker")) {
                                            self.get().close();
                                        }
                                    }

                                    @Override
                                    public void ddl(
                                            String statement, String db, BinlogPosition after) {
                                        onDdl.accept(statement, db, after);
                                    }
                                });
        self.set(reader);
        ReaderRun.untilMarker(
                reader, start, Duration.ofMinutes(3), () -> emitted.size() + " changes");
        return new ArrayList<>(emitted);
    }

    private static void sleep() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread runInBackground(BinlogReader reader, BinlogPosition start) {
        Thread thread = new Thread(() -> reader.run(start), "binlog-reader-test");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static BinlogReader.Builder reader(MariaDbServer mariaDb, String database) {
        return BinlogReader.builder(
                        mariaDb.host(),
                        mariaDb.port(),
                        MariaDbServer.CDC_USER,
                        MariaDbServer.CDC_PASSWORD)
                .serverId(5500)
                .reconnectAttempts(3, Duration.ofMillis(100));
    }

    private static TableDecoders decoders(MariaDbServer mariaDb, String database) {
        return TableDecoders.fromInformationSchema(
                SourceJdbc.of(
                        mariaDb.host(),
                        mariaDb.port(),
                        MariaDbServer.CDC_USER,
                        MariaDbServer.CDC_PASSWORD),
                (db, table) -> db.equals(database),
                ZoneId.of("UTC"));
    }

    /** The binlog's end now, with MariaDB's GTID state there. */
    private static BinlogPosition current(MariaDbServer mariaDb) throws Exception {
        String[] end = mariaDb.binlogEnd();
        return BinlogPosition.at(end[0], Long.parseLong(end[1]))
                .withGtids(query(mariaDb, "SELECT @@gtid_binlog_pos"));
    }

    private static List<String> binlogFiles(MariaDbServer mariaDb) throws Exception {
        List<String> files = new ArrayList<>();
        try (Connection connection = mariaDb.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SHOW BINARY LOGS")) {
            while (result.next()) {
                files.add(result.getString(1));
            }
        }
        return files;
    }

    private static String query(MariaDbServer mariaDb, String sql) throws Exception {
        try (Connection connection = mariaDb.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }
}

package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.source.ReaderRun.Emitted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sluice's binlog reader on MariaDB 11.4 and MySQL 8.0: statement texts (MariaDB's annotate-rows
 * events, MySQL's rows-query events) on the first row of each statement (include-queries), and on
 * MariaDB also after a resume inside a statement; a start at a GTID position alone.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BinlogReaderTextsAndGtidITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final String TABLE = "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))";
    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    /** MariaDB's annotate-rows events; MySQL's rows-query events of a session that logs them. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void givesEachStatementsTextToItsFirstRowOnlyWhenAsked(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("texts", null);
        server.execute(database, TABLE, MARKER);
        BinlogPosition start = ReaderRun.current(server);
        String multiRow = "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')";
        String insert = "INSERT INTO t VALUES (4, 'd')";
        String update = "UPDATE t SET v = 'x' WHERE id <= 2";
        String delete = "DELETE FROM t WHERE id = 3";
        String utf8 = "INSERT INTO t VALUES (5, 'grüße')";
        String marker = "INSERT INTO marker VALUES (1)";
        server.execute(
                database,
                kind == DatabaseServer.Kind.MARIADB
                        ? "SET SESSION binlog_annotate_row_events = ON"
                        : "SET SESSION binlog_rows_query_log_events = ON",
                multiRow,
                "BEGIN",
                insert,
                update,
                delete,
                "COMMIT",
                utf8,
                marker);

        ReaderRun on = ReaderRun.read(server, database, start, true);
        assertThat(queries(on))
                .as("each statement's text on its first row")
                .containsExactly(multiRow, "", "", insert, update, "", delete, utf8, marker);

        ReaderRun off = ReaderRun.read(server, database, start, false);
        assertThat(off.keys()).isEqualTo(on.keys());
        assertThat(queries(off)).as("no texts unless asked").containsOnly("");
    }

    @Test
    void givesTheTextAgainAfterAResumeAtARowsEventOfTheStatement() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("texts_resume", null);
        mariaDb.execute(database, TABLE, MARKER);
        BinlogPosition start = ReaderRun.current(mariaDb);
        String large =
                "INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 2000) SELECT i, REPEAT('x', 40) FROM s";
        mariaDb.execute(
                database,
                "SET SESSION max_recursive_iterations = 100000",
                "BEGIN",
                "INSERT INTO t VALUES (-1, 'before')",
                large,
                "COMMIT",
                "INSERT INTO marker VALUES (1)");
        ReaderRun all = ReaderRun.read(mariaDb, database, start, true);
        assertThat(all.changes).hasSize(1 + 2000 + 1);
        assertThat(all.changes.get(1).change.query()).isEqualTo(large);

        // After the first rows event of the statement (its last row): the next rows event starts
        // the rest, and its first row gets the text again, as Flink CDC's reader gives it after
        // such a restore. Inside a rows event the next row is not its first: no text.
        int boundary = -1;
        int inside = -1;
        for (int i = 1; i < all.changes.size() - 1; i++) {
            BinlogPosition after = all.changes.get(i).after;
            if (boundary < 0 && after.events() > 2 && after.rows() == 0) {
                boundary = i;
            }
            if (inside < 0 && after.events() > 2 && after.rows() > 0) {
                inside = i;
            }
        }
        assertThat(boundary).as("a rows event boundary inside the statement").isPositive();
        ReaderRun fromBoundary =
                ReaderRun.read(mariaDb, database, all.changes.get(boundary).after, true);
        assertThat(fromBoundary.keys())
                .isEqualTo(keys(all.changes.subList(boundary + 1, all.changes.size())));
        assertThat(fromBoundary.changes.get(0).change.query()).isEqualTo(large);
        assertThat(queries(fromBoundary).subList(1, fromBoundary.changes.size() - 1))
                .containsOnly("");

        ReaderRun fromInside =
                ReaderRun.read(mariaDb, database, all.changes.get(inside).after, true);
        assertThat(fromInside.keys())
                .isEqualTo(keys(all.changes.subList(inside + 1, all.changes.size())));
        assertThat(fromInside.changes.get(0).change.query()).isEmpty();
    }

    /**
     * MariaDB's GTID position through {@code @slave_connect_state}, MySQL 8's GTID set through
     * {@code COM_BINLOG_DUMP_GTID}: the same later changes, at the same positions, as a read from
     * the file; a set in the other server's syntax fails naming the right one.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void startsAtAGtidPositionAloneWithTheLaterChangesOnly(DatabaseServer.Kind kind)
            throws Exception {
        boolean mariaDb = kind == DatabaseServer.Kind.MARIADB;
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("gtid_start", null);
        server.execute(database, TABLE, MARKER);
        BinlogPosition start = ReaderRun.current(server);
        server.execute(
                database,
                "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
                "BEGIN",
                "UPDATE t SET v = 'c' WHERE id = 1",
                "COMMIT");
        String gtids =
                ReaderRun.text(
                        server,
                        mariaDb ? "SELECT @@gtid_binlog_pos" : "SELECT @@global.gtid_executed");
        server.execute(
                database,
                "INSERT INTO t VALUES (3, 'd')",
                // The start's file is then an older one than the changes after it.
                "FLUSH BINARY LOGS",
                "BEGIN",
                "UPDATE t SET v = 'e' WHERE id <= 3",
                "DELETE FROM t WHERE id = 2",
                "COMMIT",
                "INSERT INTO marker VALUES (1)");

        ReaderRun all = ReaderRun.read(server, database, start, false);
        assertThat(all.changes).hasSize(2 + 1 + 1 + 3 + 1 + 1);
        List<Emitted> later = all.changes.subList(3, all.changes.size());

        ReaderRun fromGtids =
                ReaderRun.read(server, database, BinlogPosition.afterGtids(gtids), false);
        assertThat(fromGtids.keys()).as("the changes after %s", gtids).isEqualTo(keys(later));
        for (int i = 0; i < later.size(); i++) {
            assertThat(fromGtids.changes.get(i).after)
                    .as("the position given with change %d", i)
                    .isEqualTo(later.get(i).after);
        }

        String otherSyntax = mariaDb ? "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5" : "0-1-42";
        assertThatThrownBy(
                        () ->
                                ReaderRun.read(
                                        server,
                                        database,
                                        BinlogPosition.afterGtids(otherSyntax),
                                        false))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .rootCause()
                .hasMessageContaining(mariaDb ? "is not MariaDB's" : "is MariaDB's")
                .hasMessageContaining(
                        mariaDb ? "its GTID position" : "a GTID set, e.g. @@gtid_executed");
    }

    private static List<String> queries(ReaderRun run) {
        List<String> queries = new ArrayList<>();
        for (Emitted e : run.changes) {
            queries.add(e.change.query());
        }
        return queries;
    }

    private static List<String> keys(List<Emitted> changes) {
        List<String> keys = new ArrayList<>();
        for (Emitted e : changes) {
            keys.add(e.key());
        }
        return keys;
    }
}

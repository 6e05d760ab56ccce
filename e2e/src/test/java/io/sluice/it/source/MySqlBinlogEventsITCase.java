package io.sluice.it.source;

import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReaderException;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.source.ReaderRun.Emitted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sluice's binlog reader on the MySQL 8.0.31 events MariaDB never writes: compressed transactions
 * ({@code binlog_transaction_compression}, a TRANSACTION_PAYLOAD_EVENT of zstd-compressed events),
 * partial JSON updates ({@code binlog_row_value_options=PARTIAL_JSON}, PARTIAL_UPDATE_ROWS_EVENT),
 * the empty JSON value a non-strict insert stores, and names and statement texts outside ASCII read
 * by a JVM whose default charset is not UTF-8.
 *
 * <p>Each test sets what it needs per session, except the start check of a GLOBAL {@code
 * binlog_row_value_options} and the column names in the table maps ({@code binlog_row_metadata},
 * global only), which is why the server is the class's own.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlBinlogEventsITCase {

    @RegisterExtension
    static final MySqlExtension MYSQL =
            MySqlExtension.own(
                    "SET GLOBAL binlog_row_value_options (the reader's start check) and"
                            + " binlog_row_metadata (the table maps' column names)");

    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    @Test
    void readsACompressedTransactionAndResumesAfterEachOfItsChanges() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("compressed", null);
        mySql.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(40))", MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        String insert = "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')";
        mySql.execute(
                database,
                "SET SESSION binlog_transaction_compression = ON",
                "SET SESSION binlog_rows_query_log_events = ON",
                "BEGIN",
                insert,
                "UPDATE t SET v = 'x' WHERE id <= 2",
                "DELETE FROM t WHERE id = 3",
                "INSERT INTO t VALUES (4, 'd')",
                "COMMIT",
                "UPDATE t SET v = 'single' WHERE id = 4");
        String compressedGtids = ReaderRun.text(mySql, "SELECT @@global.gtid_executed");
        mySql.execute(database, "INSERT INTO marker VALUES (1)");
        assertThat(ReaderRun.eventTypes(mySql, start))
                .as("the events the server wrote")
                .contains("Transaction_payload");

        ReaderRun run = ReaderRun.read(mySql, database, start, true);
        assertThat(run.keys())
                .containsExactly(
                        "t INSERT null [\"1\", \"a\"]",
                        "t INSERT null [\"2\", \"b\"]",
                        "t INSERT null [\"3\", \"c\"]",
                        "t UPDATE [\"1\", \"a\"] [\"1\", \"x\"]",
                        "t UPDATE [\"2\", \"b\"] [\"2\", \"x\"]",
                        "t DELETE [\"3\", \"c\"] null",
                        "t INSERT null [\"4\", \"d\"]",
                        "t UPDATE [\"4\", \"d\"] [\"4\", \"single\"]",
                        "marker INSERT null [\"1\"]");
        assertThat(run.changes.get(0).change.query()).isEqualTo(insert);
        assertThat(run.changes.get(8).after.gtids())
                .as("the GTID set after both compressed transactions committed")
                .isEqualTo(compressedGtids.replace("\n", ""));

        // By GTID (the positions carry the set before their transaction): exactly the rest.
        for (int i = 0; i < 8; i++) {
            BinlogPosition after = run.changes.get(i).after;
            ReaderRun resumed = ReaderRun.read(mySql, database, after, false);
            List<Emitted> rest = run.changes.subList(i + 1, run.changes.size());
            assertThat(resumed.keys()).as("the changes after %s", after).isEqualTo(keys(rest));
            for (int j = 0; j < rest.size(); j++) {
                assertThat(resumed.changes.get(j).after)
                        .as("the position given with change %d after %s", j, after)
                        .isEqualTo(rest.get(j).after);
            }
        }
        // By file position alone, inside the multi-row transaction.
        BinlogPosition inside = run.changes.get(3).after;
        ReaderRun byFile = ReaderRun.read(mySql, database, inside.withGtids(""), false);
        assertThat(byFile.keys()).isEqualTo(keys(run.changes.subList(4, run.changes.size())));
    }

    @Test
    void readsPartialUpdatesWithWholeValuesAndRefusesJsonDiffsOfCapturedTables() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("partial_json", null);
        String other = mySql.createDatabase("partial_json_other", null);
        String table = "CREATE TABLE j (id INT PRIMARY KEY, doc JSON, v VARCHAR(20))";
        mySql.execute(database, table, MARKER);
        mySql.execute(other, table);
        String row = "INSERT INTO j VALUES (1, '{\"a\": 1, \"b\": [1, 2]}', 'x')";
        mySql.execute(other, row);
        BinlogPosition start = ReaderRun.current(mySql);
        mySql.execute(
                database,
                row,
                "SET SESSION binlog_row_value_options = 'PARTIAL_JSON'",
                // No JSON diff: the after image holds every value whole.
                "UPDATE j SET v = 'y' WHERE id = 1",
                // A JSON diff of a table that is not captured.
                "UPDATE " + other + ".j SET doc = JSON_SET(doc, '$.a', 2) WHERE id = 1",
                "INSERT INTO marker VALUES (1)",
                // A JSON diff of a captured table.
                "UPDATE j SET doc = JSON_SET(doc, '$.a', 2) WHERE id = 1",
                "INSERT INTO marker VALUES (2)");
        assertThat(ReaderRun.eventTypes(mySql, start))
                .as("the events the server wrote")
                .contains("Update_rows_partial");

        ReaderRun whole = ReaderRun.read(mySql, database, start, false);
        assertThat(whole.keys())
                .containsExactly(
                        "j INSERT null [\"1\", \"{\"a\": 1, \"b\": [1, 2]}\", \"x\"]",
                        "j UPDATE [\"1\", \"{\"a\": 1, \"b\": [1, 2]}\", \"x\"]"
                                + " [\"1\", \"{\"a\": 1, \"b\": [1, 2]}\", \"y\"]",
                        "marker INSERT null [\"1\"]");

        BinlogPosition beforeDiff = whole.changes.get(2).after;
        assertThatThrownBy(() -> ReaderRun.read(mySql, database, beforeDiff, false))
                .hasCauseInstanceOf(BinlogReaderException.class)
                .cause()
                .hasMessageContaining(database + ".j")
                .hasMessageContaining("column 'doc'")
                .hasMessageContaining("PARTIAL_UPDATE_ROWS_EVENT")
                .hasMessageContaining("binlog_row_value_options=PARTIAL_JSON")
                .hasMessageContaining("binlog_row_value_options=''");
    }

    @Test
    void refusesToStartWhileGlobalBinlogRowValueOptionsIsPartialJson() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("partial_json_global", null);
        mySql.execute(database, MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        mySql.execute(database, "INSERT INTO marker VALUES (1)");
        mySql.execute(null, "SET GLOBAL binlog_row_value_options = 'PARTIAL_JSON'");
        try {
            assertThatThrownBy(() -> ReaderRun.read(mySql, database, start, false))
                    .hasCauseInstanceOf(SourceSetupException.class)
                    .cause()
                    .hasMessageContaining("binlog_row_value_options is PARTIAL_JSON")
                    .hasMessageContaining(mySql.host() + ":" + mySql.port())
                    .hasMessageContaining("binlog_row_value_options=''");
        } finally {
            mySql.execute(null, "SET GLOBAL binlog_row_value_options = ''");
        }
    }

    @Test
    void writesAnEmptyJsonValueAsTheEmptyString() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("empty_json", null);
        mySql.execute(database, "CREATE TABLE e (id INT PRIMARY KEY, doc JSON NOT NULL)", MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        mySql.execute(
                database,
                // Not strict: the missing NOT NULL JSON value is stored as an empty value.
                "SET SESSION sql_mode = ''",
                "INSERT INTO e (id) VALUES (1)",
                "UPDATE e SET id = 2 WHERE id = 1",
                "INSERT INTO marker VALUES (1)");

        ReaderRun run = ReaderRun.read(mySql, database, start, false);
        assertThat(run.keys())
                .containsExactly(
                        "e INSERT null [\"1\", \"\"]",
                        "e UPDATE [\"1\", \"\"] [\"2\", \"\"]",
                        "marker INSERT null [\"1\"]");
    }

    @Test
    void decodesNamesAndStatementTextsAsUtf8WhateverTheJvmCharset() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("charsets", null);
        mySql.execute(database, MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        String create = "CREATE TABLE café (id INT PRIMARY KEY, näme VARCHAR(20)) /* 日本 */";
        String insert = "INSERT INTO café VALUES (1, 'grüße') /* 日本 */";
        // With the column names in the table maps, which the reader checks against the schema.
        mySql.execute(null, "SET GLOBAL binlog_row_metadata = 'FULL'");
        List<String> lines;
        try {
            mySql.execute(
                    database,
                    "SET SESSION binlog_rows_query_log_events = ON",
                    create,
                    insert,
                    "INSERT INTO marker VALUES (1)");
            lines = ReaderInOtherCharset.read(mySql, database, start);
        } finally {
            mySql.execute(null, "SET GLOBAL binlog_row_metadata = 'MINIMAL'");
        }
        assertThat(lines.get(0)).as("the reader JVM's default charset").isEqualTo("ISO-8859-1");
        assertThat(lines.subList(1, lines.size()))
                .containsExactly(
                        "ddl " + create,
                        "change café (id int key, näme varchar(20)) INSERT after [1, grüße]"
                                + " query="
                                + insert,
                        "change marker (id int key) INSERT after [1] query=INSERT INTO marker"
                                + " VALUES (1)");
    }

    private static List<String> keys(List<Emitted> changes) {
        List<String> keys = new ArrayList<>();
        for (Emitted e : changes) {
            keys.add(e.key());
        }
        return keys;
    }
}

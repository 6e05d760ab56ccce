package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's binlog reader on a MariaDB 11.4 server of its own that compresses its binlog events
 * ({@code log_bin_compress=ON}, from 10 bytes): rows, DDL and statement texts read as from an
 * uncompressed binlog.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CompressedBinlogITCase {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            MariaDbExtension.own(
                    "a compressed binlog",
                    "--log-bin-compress=ON",
                    "--log-bin-compress-min-len=10");

    @Test
    void readsCompressedRowsAndQueryEvents() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("compressed", null);
        mariaDb.execute(
                database,
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(300))",
                "CREATE TABLE marker (id INT PRIMARY KEY)");
        TableSchemas schemas;
        try (Connection connection = mariaDb.connect(null)) {
            schemas =
                    TableSchemas.read(
                            connection,
                            (db, table) -> db.equals(database),
                            ColumnTypeStyle.MARIADB,
                            ZoneId.of("UTC"));
        }
        BinlogPosition start = ReaderRun.current(mariaDb);
        String insert =
                "INSERT INTO t VALUES (1, REPEAT('a', 300)), (2, REPEAT('b', 300)), (3, 'c')";
        String alter = "ALTER TABLE t ADD COLUMN n BIGINT NOT NULL DEFAULT 7";
        mariaDb.execute(
                database,
                insert,
                "SET SESSION max_recursive_iterations = 100000",
                "INSERT INTO t WITH RECURSIVE s(i) AS (SELECT 10 UNION ALL SELECT i + 1 FROM s"
                        + " WHERE i < 2009) SELECT i, REPEAT('x', 200) FROM s",
                alter,
                "UPDATE t SET v = 'short', n = 8 WHERE id = 1",
                "DELETE FROM t WHERE id BETWEEN 10 AND 2009",
                "INSERT INTO marker VALUES (1)");
        assertThat(ReaderRun.eventTypes(mariaDb, start))
                .as("the events the server wrote")
                .contains(
                        "Query_compressed",
                        "Write_rows_compressed_v1",
                        "Update_rows_compressed_v1",
                        "Delete_rows_compressed_v1");

        ReaderRun run = ReaderRun.read(mariaDb, database, schemas, start, true);
        assertThat(run.ddl).containsExactly(alter);
        assertThat(run.changes).hasSize(3 + 2000 + 1 + 2000 + 1);
        assertThat(ChangeText.withColumns(run.changes.get(0).change))
                .isEqualTo(
                        "t (id int(11) key, v varchar(300)) INSERT after [1, "
                                + "a".repeat(300)
                                + "]");
        assertThat(run.changes.get(0).change.query()).isEqualTo(insert);
        assertThat(ChangeText.withColumns(run.changes.get(2).change))
                .isEqualTo("t (id int(11) key, v varchar(300)) INSERT after [3, c]");
        assertThat(ChangeText.withColumns(run.changes.get(3 + 1999).change))
                .isEqualTo(
                        "t (id int(11) key, v varchar(300)) INSERT after [2009, "
                                + "x".repeat(200)
                                + "]");
        assertThat(ChangeText.withColumns(run.changes.get(3 + 2000).change))
                .isEqualTo(
                        "t (id int(11) key, v varchar(300), n bigint(20)) UPDATE before [1, "
                                + "a".repeat(300)
                                + ", 7] after [1, short, 8]");
        assertThat(ChangeText.withColumns(run.changes.get(3 + 2000 + 1).change))
                .isEqualTo(
                        "t (id int(11) key, v varchar(300), n bigint(20)) DELETE before [10, "
                                + "x".repeat(200)
                                + ", 7]");

        // A resume inside the compressed rows events gives exactly the rest.
        int inside = 3 + 2000 + 1 + 1000; // in the DELETE, after the ALTER
        ReaderRun resumed = ReaderRun.read(mariaDb, database, run.changes.get(inside).after, false);
        assertThat(resumed.changes).hasSize(run.changes.size() - inside - 1);
        assertThat(resumed.changes.get(0).after).isEqualTo(run.changes.get(inside + 1).after);
    }
}

package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's binlog reader on what MySQL 8.0 writes of a table's columns in its table maps, with the
 * default {@code binlog_row_metadata=MINIMAL}, checked against the schemas the job holds ({@link
 * TableSchemas}: information_schema at the start, then each DDL): the signedness of numeric
 * columns, which MySQL, unlike MariaDB, states for YEAR columns too: the bits of the numbers after
 * a YEAR are one further on, and the last ones beyond what the binlog client reads.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlColumnMetadataITCase {

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();

    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    @Test
    void readsTheSignednessOfNumbersAfterAYear() throws Exception {
        MySqlServer mySql = MYSQL.server();
        String database = mySql.createDatabase("signedness", null);
        String columns =
                " (id INT PRIMARY KEY, y YEAR, d DECIMAL(5, 2), u INT UNSIGNED, s SMALLINT,"
                        + " t TINYINT UNSIGNED)";
        String row = " VALUES (1, 2024, -1.50, 4294967295, -2, 255)";
        mySql.execute(database, "CREATE TABLE at_start" + columns, MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        TableSchemas schemas = schemas(mySql, database);
        mySql.execute(
                database,
                "INSERT INTO at_start" + row,
                "CREATE TABLE created" + columns,
                "INSERT INTO created" + row,
                "INSERT INTO marker VALUES (1)");

        ReaderRun run = ReaderRun.read(mySql, database, schemas, start, false);
        String values = "[\"1\", \"2024\", \"-1.50\", \"4294967295\", \"-2\", \"255\"]";
        assertThat(run.keys())
                .containsExactly(
                        "at_start INSERT null " + values,
                        "created INSERT null " + values,
                        "marker INSERT null [\"1\"]");
    }

    /** The job's schemas of {@code database} as of now. */
    private static TableSchemas schemas(MySqlServer mySql, String database) throws Exception {
        try (Connection connection = mySql.connect(null)) {
            return TableSchemas.read(
                    connection,
                    (db, table) -> db.equals(database),
                    ColumnTypeStyle.MYSQL,
                    ZoneId.of("UTC"));
        }
    }
}

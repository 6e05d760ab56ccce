package io.sluice.it.source;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's binlog reader on what MySQL 8.0 writes of a table's columns in its table maps, with
 * {@code binlog_row_metadata} MINIMAL (the default: signedness and charsets) and FULL (names and
 * primary key too), checked against the schemas the job holds ({@link TableSchemas}:
 * information_schema at the start, then each DDL): the signedness of numeric columns, which MySQL,
 * unlike MariaDB, states for YEAR columns too (the bits of the numbers after a YEAR are one further
 * on, and the last ones beyond what the binlog client reads); and INVISIBLE columns, which are in
 * the row image and the table map in their place.
 *
 * <p>The server is the class's own: {@code binlog_row_metadata} is global only.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlColumnMetadataITCase {

    @RegisterExtension
    static final MySqlExtension MYSQL = MySqlExtension.own("SET GLOBAL binlog_row_metadata");

    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";

    @ParameterizedTest(name = "binlog_row_metadata={0}")
    @ValueSource(strings = {"MINIMAL", "FULL"})
    void readsTheSignednessOfNumbersAfterAYear(String metadata) throws Exception {
        MySqlServer mySql = server(metadata);
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

    /**
     * MySQL 8.0.23's {@code ALTER COLUMN … SET [IN]VISIBLE}, which Debezium 1.9's parser cannot
     * read, changes no column of the row image: the rows after it keep every column, the invisible
     * ones too, alone or beside other changes of the same statement.
     */
    @ParameterizedTest(name = "binlog_row_metadata={0}")
    @ValueSource(strings = {"MINIMAL", "FULL"})
    void followsColumnsMadeInvisibleAndVisibleAgain(String metadata) throws Exception {
        MySqlServer mySql = server(metadata);
        String database = mySql.createDatabase("visibility", null);
        mySql.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, x INT)", MARKER);
        BinlogPosition start = ReaderRun.current(mySql);
        TableSchemas schemas = schemas(mySql, database);
        mySql.execute(
                database,
                "ALTER TABLE t ALTER COLUMN x SET INVISIBLE",
                "INSERT INTO t (id, x) VALUES (1, 10)",
                "ALTER TABLE t ADD COLUMN y INT INVISIBLE, ALTER x SET VISIBLE",
                "INSERT INTO t (id, x, y) VALUES (2, 20, 200)",
                "ALTER TABLE `t` ALTER COLUMN `y` SET VISIBLE, ADD COLUMN z INT,"
                        + " ALTER COLUMN x SET INVISIBLE",
                "INSERT INTO t (id, x, y, z) VALUES (3, 30, 300, 3000)",
                "INSERT INTO marker VALUES (1)");

        ReaderRun run = ReaderRun.read(mySql, database, schemas, start, false);
        assertThat(run.keys())
                .containsExactly(
                        "t INSERT null [\"1\", \"10\"]",
                        "t INSERT null [\"2\", \"20\", \"200\"]",
                        "t INSERT null [\"3\", \"30\", \"300\", \"3000\"]",
                        "marker INSERT null [\"1\"]");
    }

    /** The server, writing table maps with {@code metadata} from now on. */
    private static MySqlServer server(String metadata) throws Exception {
        MySqlServer mySql = MYSQL.server();
        mySql.execute(null, "SET GLOBAL binlog_row_metadata = '" + metadata + "'");
        assertThat(ReaderRun.text(mySql, "SELECT @@global.binlog_row_metadata"))
                .isEqualTo(metadata);
        return mySql;
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

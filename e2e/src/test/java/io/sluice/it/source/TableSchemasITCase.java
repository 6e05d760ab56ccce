package io.sluice.it.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.binlog.BinlogRowsListener;
import io.sluice.functions.source.binlog.RowsEventDecoder;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.binlog.TableSchemasSerializer;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlExtension;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.tools.bench.BinlogPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each table's schema at each point of the binlog ({@link TableSchemas}) on the real binlog of
 * MariaDB 11.4: rows before and after ADD, DROP and MODIFY COLUMN (types and charsets), RENAME
 * TABLE, a new table, TRUNCATE and CREATE INDEX, all written before the reader starts, must each
 * come with the columns of their own point (names, mysqlType, key) and values; pinned here, and the
 * same as the Flink CDC reader renders for the same binlog. With {@code binlog_row_metadata}
 * MINIMAL and FULL (whose table maps are checked against the schema). And a restore from a
 * checkpointed schema state inside the binlog, where today's information_schema cannot serve.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TableSchemasITCase {

    private static final Logger LOG = LoggerFactory.getLogger(TableSchemasITCase.class);

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            MariaDbExtension.own(
                    "SET GLOBAL binlog_row_metadata; names compared without case",
                    // The other cases name tables in lower case, as such a server keeps them.
                    "--lower-case-table-names=1");

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final ZoneId TIMESTAMP_ZONE = ZoneId.of("UTC");
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final ChangeEventQueue EVENTS = new ChangeEventQueue();

    /** The window read: every statement runs before the reader starts. */
    private static final String[] STATEMENTS = {
        "CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(10), qty INT)"
                + " DEFAULT CHARSET=utf8mb4",
        "INSERT INTO orders VALUES (1, 'a', 10), (2, 'b', 20)",
        "UPDATE orders SET qty = 11 WHERE id = 1",
        "ALTER TABLE orders ADD COLUMN note VARCHAR(20) CHARACTER SET latin1 AFTER name",
        "INSERT INTO orders VALUES (3, 'c', 'café', 30)",
        "ALTER TABLE orders DROP COLUMN qty",
        "INSERT INTO orders VALUES (4, 'd', 'x')",
        "DELETE FROM orders WHERE id = 2",
        "ALTER TABLE orders MODIFY id BIGINT, MODIFY name VARCHAR(40) CHARACTER SET latin1,"
                + " MODIFY note VARCHAR(20) CHARACTER SET utf8mb4",
        "INSERT INTO orders VALUES (5, 'ñ', '日本')",
        "UPDATE orders SET note = '€' WHERE id = 3",
        "RENAME TABLE orders TO orders_v2",
        "INSERT INTO orders_v2 VALUES (6, 'f', 'g')",
        "CREATE TABLE items (id INT PRIMARY KEY, e ENUM('x','y'), s SET('p','q'),"
                + " u INT UNSIGNED, d DECIMAL(8,2), t DATETIME(3))",
        "INSERT INTO items VALUES (1, 'y', 'p,q', 4294967295, 12.5, '2024-01-02 03:04:05.678')",
        "TRUNCATE TABLE items",
        "CREATE INDEX i_note ON orders_v2 (note)",
        "INSERT INTO items VALUES (2, 'x', '', 7, -1.25, '2024-12-31 23:59:59.001')",
        "INSERT INTO orders_v2 VALUES (7, 'h', NULL)",
    };

    private static final String V1 = "orders (id int(11) key, name varchar(10), qty int(11))";
    private static final String V2 =
            "orders (id int(11) key, name varchar(10), note varchar(20), qty int(11))";
    private static final String V3 = "orders (id int(11) key, name varchar(10), note varchar(20))";
    private static final String V4 =
            "orders (id bigint(20) key, name varchar(40), note varchar(20))";
    private static final String V5 =
            "orders_v2 (id bigint(20) key, name varchar(40), note varchar(20))";
    private static final String ITEMS =
            "items (id int(11) key, e enum('x','y'), s set('p','q'), u int(10) unsigned,"
                    + " d decimal(8,2), t datetime(3))";

    /** Every row change of the window, with the columns of its point. */
    private static final List<String> EXPECTED =
            List.of(
                    V1 + " INSERT after [1, a, 10]",
                    V1 + " INSERT after [2, b, 20]",
                    V1 + " UPDATE before [1, a, 10] after [1, a, 11]",
                    V2 + " INSERT after [3, c, café, 30]",
                    V3 + " INSERT after [4, d, x]",
                    V3 + " DELETE before [2, b, null]",
                    V4 + " INSERT after [5, ñ, 日本]",
                    V4 + " UPDATE before [3, c, café] after [3, c, €]",
                    V5 + " INSERT after [6, f, g]",
                    ITEMS + " INSERT after [1, 2, 3, 4294967295, 12.50, 2024-01-02 03:04:05.678]",
                    ITEMS + " INSERT after [2, 1, 0, 7, -1.25, 2024-12-31 23:59:59.001]",
                    V5 + " INSERT after [7, h, null]");

    @ParameterizedTest(name = "binlog_row_metadata={0}")
    @ValueSource(strings = {"MINIMAL", "FULL"})
    void everyRowHasTheColumnsOfItsPointInTheBinlog(String metadata) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = " + metadata);
        String database = mariaDb.createDatabase("schemas", null);
        BinlogPosition start = position(mariaDb);
        mariaDb.execute(database, STATEMENTS);
        BinlogPosition end = position(mariaDb);

        List<TableMapEventData> maps = new ArrayList<>();
        List<ChangeEvent> events =
                read(mariaDb, schemasNow(mariaDb, database), start, end, maps::add);
        maps.forEach(
                map ->
                        LOG.info(
                                "binlog_row_metadata={}: table map of {} has metadata {}",
                                metadata,
                                map.getTable(),
                                map.getEventMetadata()));
        assertThat(maps)
                .as("table maps with column names")
                .allMatch(
                        map ->
                                metadata.equals("FULL")
                                        == (map.getEventMetadata() != null
                                                && map.getEventMetadata().getColumnNames()
                                                        != null));
        assertThat(render(events)).as("Sluice's reader").isEqualTo(EXPECTED);
        assertThat(render(flinkCdc(mariaDb, database, start, EXPECTED.size())))
                .as("the Flink CDC reader")
                .isEqualTo(EXPECTED);
    }

    @Test
    void restoresTheSchemasOfACheckpointInsideTheBinlog() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = MINIMAL");
        String database = mariaDb.createDatabase("restore", null);
        mariaDb.execute(database, STATEMENTS[0], STATEMENTS[1], STATEMENTS[2]);
        // A checkpoint here holds the schemas of this point.
        TableSchemas atCheckpoint = schemasNow(mariaDb, database);
        byte[] state = TableSchemasSerializer.INSTANCE.serialize(atCheckpoint.snapshot());
        BinlogPosition start = position(mariaDb);
        mariaDb.execute(database, STATEMENTS[3], STATEMENTS[4], STATEMENTS[5], STATEMENTS[6]);
        BinlogPosition end = position(mariaDb);

        TableSchemas restored =
                TableSchemas.restore(
                        TableSchemasSerializer.INSTANCE.deserialize(
                                TableSchemasSerializer.INSTANCE.getVersion(), state),
                        (db, table) -> db.equals(database),
                        ColumnTypeStyle.MARIADB,
                        TIMESTAMP_ZONE);
        assertThat(render(read(mariaDb, restored, start, end, map -> {})))
                .isEqualTo(EXPECTED.subList(3, 5));

        // Today's information_schema has the columns of the end, not of the restored position.
        assertThatThrownBy(() -> read(mariaDb, schemasNow(mariaDb, database), start, end, m -> {}))
                .hasRootCauseInstanceOf(ChangeEventConversionException.class)
                .rootCause()
                .hasMessageContaining("table map of " + database + ".orders has 4 columns")
                .hasMessageContaining("holds has 3");
    }

    /**
     * A schema that is not the rows' (a DDL statement it missed, as a start behind the DDL would):
     * the table maps' metadata shows it. Signedness and charsets are in the table maps of either
     * metadata setting; column names only with FULL.
     */
    @ParameterizedTest(name = "binlog_row_metadata={0}")
    @ValueSource(strings = {"MINIMAL", "FULL"})
    void tableMapsShowASchemaThatIsNotTheRows(String metadata) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = " + metadata);
        String database = mariaDb.createDatabase("missed", null);

        assertThatThrownBy(
                        () ->
                                afterAMissedDdl(
                                        mariaDb,
                                        database,
                                        "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10)"
                                                + " CHARACTER SET utf8mb4)",
                                        "ALTER TABLE t MODIFY name VARCHAR(10) CHARACTER SET"
                                                + " latin1",
                                        "INSERT INTO t VALUES (1, 'é')"))
                .rootCause()
                .hasMessageContaining("table map of " + database + ".t")
                .hasMessageContaining("column 'name' has charset latin1")
                .hasMessageContaining("holds says charset utf8mb4");
        assertThatThrownBy(
                        () ->
                                afterAMissedDdl(
                                        mariaDb,
                                        database,
                                        "CREATE TABLE s (id INT PRIMARY KEY, v INT)",
                                        "ALTER TABLE s MODIFY v INT UNSIGNED",
                                        "INSERT INTO s VALUES (1, 4294967295)"))
                .rootCause()
                .hasMessageContaining("column 'v' is unsigned")
                .hasMessageContaining("holds says int(11)");

        String renamed = "CREATE TABLE r (id INT PRIMARY KEY, v INT)";
        String rename = "ALTER TABLE r RENAME COLUMN v TO w";
        String insert = "INSERT INTO r VALUES (1, 2)";
        if (metadata.equals("FULL")) {
            assertThatThrownBy(() -> afterAMissedDdl(mariaDb, database, renamed, rename, insert))
                    .rootCause()
                    .hasMessageContaining("says columns [id, w]")
                    .hasMessageContaining("holds says columns [id, v]");
        } else {
            // Nothing in the binlog shows the old name is wrong: the limitation FULL lifts.
            assertThat(render(afterAMissedDdl(mariaDb, database, renamed, rename, insert)))
                    .containsExactly("r (id int(11) key, v int(11)) INSERT after [1, 2]");
        }
    }

    /** Rows read with the schemas from before {@code missed}, which the reader does not see. */
    private static List<ChangeEvent> afterAMissedDdl(
            MariaDbServer mariaDb, String database, String create, String missed, String insert)
            throws Exception {
        mariaDb.execute(database, create);
        TableSchemas before = schemasNow(mariaDb, database);
        mariaDb.execute(database, missed);
        BinlogPosition start = position(mariaDb);
        mariaDb.execute(database, insert);
        return read(mariaDb, before, start, position(mariaDb), map -> {});
    }

    private static TableSchemas schemasNow(DatabaseServer mariaDb, String database)
            throws Exception {
        try (Connection connection = mariaDb.connect(null)) {
            return TableSchemas.read(
                    connection,
                    (db, table) -> db.equals(database),
                    mariaDb.kind() == DatabaseServer.Kind.MARIADB
                            ? ColumnTypeStyle.MARIADB
                            : ColumnTypeStyle.MYSQL,
                    TIMESTAMP_ZONE);
        }
    }

    /**
     * MySQL 8's own DDL forms, read by both readers: RENAME COLUMN, an expression DEFAULT, an
     * INSTANT ADD COLUMN in the middle, CREATE TABLE ... LIKE, and an atomic RENAME TABLE that
     * swaps two tables. MySQL 8.0.19+ writes integer types without display width.
     */
    @Test
    void mySqlDdlFormsGiveEachRowTheColumnsOfItsPoint() throws Exception {
        DatabaseServer mySql = MYSQL.server();
        String database = mySql.createDatabase("schemas8", null);
        String[] statements = {
            "CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(10), qty INT DEFAULT (40 + 2))"
                    + " DEFAULT CHARSET=utf8mb4",
            "INSERT INTO orders (id, name) VALUES (1, 'a')",
            "ALTER TABLE orders RENAME COLUMN name TO title",
            "INSERT INTO orders VALUES (2, 'b', 20)",
            "ALTER TABLE orders ADD COLUMN note VARCHAR(20) AFTER id, ALGORITHM=INSTANT",
            "INSERT INTO orders VALUES (3, 'n', 'c', 30)",
            "CREATE TABLE orders_next LIKE orders",
            "ALTER TABLE orders_next DROP COLUMN qty",
            "INSERT INTO orders_next VALUES (4, 'm', 'd')",
            "RENAME TABLE orders TO orders_old, orders_next TO orders",
            "INSERT INTO orders VALUES (5, 'o', 'e')",
            "UPDATE orders_old SET qty = 31 WHERE id = 3",
        };
        String v1 = "orders (id int key, name varchar(10), qty int)";
        String v2 = "orders (id int key, title varchar(10), qty int)";
        String v3 = "orders (id int key, note varchar(20), title varchar(10), qty int)";
        String next = "orders (id int key, note varchar(20), title varchar(10))";
        List<String> expected =
                List.of(
                        v1 + " INSERT after [1, a, 42]",
                        v2 + " INSERT after [2, b, 20]",
                        v3 + " INSERT after [3, n, c, 30]",
                        next.replace("orders (", "orders_next (") + " INSERT after [4, m, d]",
                        next + " INSERT after [5, o, e]",
                        v3.replace("orders (", "orders_old (")
                                + " UPDATE before [3, n, c, 30] after [3, n, c, 31]");
        BinlogPosition start = position(mySql);
        mySql.execute(database, statements);
        BinlogPosition end = position(mySql);

        List<ChangeEvent> events = read(mySql, schemasNow(mySql, database), start, end, m -> {});
        assertThat(render(events)).as("Sluice's reader").isEqualTo(expected);
        assertThat(render(flinkCdc(mySql, database, start, expected.size())))
                .as("the Flink CDC reader")
                .isEqualTo(expected);
    }

    /**
     * MariaDB's {@code CREATE OR REPLACE TABLE} over a known table: the rows after it have the new
     * definition, whether it keeps the column count and types (only the names differ, so a missed
     * statement would go unnoticed) or not; and over a table that did not exist.
     */
    @Test
    void createOrReplaceTableGivesTheRowsAfterItTheNewDefinition() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = MINIMAL");
        String database = mariaDb.createDatabase("replace", null);
        String[] statements = {
            "CREATE TABLE r (id INT PRIMARY KEY, a VARCHAR(5), b INT)",
            "INSERT INTO r VALUES (1, 'x', 1)",
            "CREATE OR REPLACE TABLE r (id INT PRIMARY KEY, c VARCHAR(5), d INT)",
            "INSERT INTO r VALUES (2, 'y', 2)",
            "create or replace table `r` (id INT PRIMARY KEY, e INT)",
            "INSERT INTO r VALUES (3, 3)",
            "CREATE OR REPLACE TABLE fresh (id INT PRIMARY KEY, f DATE)",
            "INSERT INTO fresh VALUES (4, '2024-02-29')",
        };
        List<String> expected =
                List.of(
                        "r (id int(11) key, a varchar(5), b int(11)) INSERT after [1, x, 1]",
                        "r (id int(11) key, c varchar(5), d int(11)) INSERT after [2, y, 2]",
                        "r (id int(11) key, e int(11)) INSERT after [3, 3]",
                        "fresh (id int(11) key, f date) INSERT after [4, 2024-02-29]");
        BinlogPosition start = position(mariaDb);
        mariaDb.execute(database, statements);
        BinlogPosition end = position(mariaDb);

        List<ChangeEvent> events =
                read(mariaDb, schemasNow(mariaDb, database), start, end, m -> {});
        assertThat(render(events)).as("Sluice's reader").isEqualTo(expected);
        assertThat(render(flinkCdc(mariaDb, database, start, expected.size())))
                .as("the Flink CDC reader")
                .isEqualTo(expected);
    }

    /**
     * {@code lower_case_table_names=1}: statements may name a table in any case, the server keeps
     * and logs it in lower case. Each row has the columns of its point, under the table maps'
     * names.
     */
    @Test
    void statementsNamingATableInAnotherCaseApplyOnACaseInsensitiveServer() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        mariaDb.execute(null, "SET GLOBAL binlog_row_metadata = MINIMAL");
        String database = mariaDb.createDatabase("lower", null);
        String[] statements = {
            "CREATE TABLE Orders (id INT PRIMARY KEY, a INT)",
            "INSERT INTO orders VALUES (1, 1)",
            "ALTER TABLE ORDERS ADD COLUMN b VARCHAR(5)",
            "INSERT INTO Orders VALUES (2, 2, 'x')",
            "ALTER TABLE `oRdErS` DROP COLUMN a",
            "INSERT INTO orders VALUES (3, 'y')",
            "RENAME TABLE Orders TO Items",
            "INSERT INTO ITEMS VALUES (4, 'z')",
        };
        List<String> expected =
                List.of(
                        "orders (id int(11) key, a int(11)) INSERT after [1, 1]",
                        "orders (id int(11) key, a int(11), b varchar(5)) INSERT after [2, 2, x]",
                        "orders (id int(11) key, b varchar(5)) INSERT after [3, y]",
                        "items (id int(11) key, b varchar(5)) INSERT after [4, z]");
        BinlogPosition start = position(mariaDb);
        mariaDb.execute(database, statements);
        BinlogPosition end = position(mariaDb);

        assertThat(render(read(mariaDb, schemasNow(mariaDb, database), start, end, m -> {})))
                .as("Sluice's reader")
                .isEqualTo(expected);
    }

    /** A change as the test compares it: table, columns with mysqlType and key, type, values. */
    private static List<String> render(List<ChangeEvent> events) {
        List<String> rendered = new ArrayList<>();
        for (ChangeEvent event : events) {
            rendered.add(ChangeText.withColumns(event));
        }
        return rendered;
    }

    /**
     * Every row change from {@code start} to {@code end} through Sluice's reader pieces: DDL
     * statements to {@code schemas}, rows to {@link BinlogRowsListener} with its decoders.
     */
    private static List<ChangeEvent> read(
            DatabaseServer mariaDb,
            TableSchemas schemas,
            BinlogPosition start,
            BinlogPosition end,
            Consumer<TableMapEventData> maps)
            throws Exception {
        List<ChangeEvent> events = new ArrayList<>();
        BinaryLogClient client =
                new BinaryLogClient(
                        mariaDb.host(), mariaDb.port(), mariaDb.cdcUser(), mariaDb.cdcPassword());
        client.setServerId(5401);
        client.setBinlogFilename(start.file);
        client.setBinlogPosition(start.position);
        client.setKeepAlive(false);
        client.setEventDeserializer(RowsEventDecoder.eventDeserializer());
        CountDownLatch done = new CountDownLatch(1);
        List<Throwable> failures = new ArrayList<>();
        BinlogRowsListener rows =
                new BinlogRowsListener(schemas, client::getBinlogFilename, events::add);
        client.registerEventListener(
                event -> {
                    EventHeaderV4 header = event.getHeader();
                    try {
                        if (header.getEventType() == EventType.QUERY) {
                            QueryEventData query = event.getData();
                            schemas.applyDdl(
                                    query.getSql(),
                                    query.getDatabase(),
                                    client.getBinlogFilename() + ":" + header.getPosition());
                        } else if (header.getEventType() == EventType.TABLE_MAP) {
                            maps.accept(event.getData());
                        }
                        rows.onEvent(event);
                    } catch (RuntimeException e) {
                        failures.add(e);
                        done.countDown();
                    }
                    if (end.file.equals(client.getBinlogFilename())
                            && header.getNextPosition() >= end.position) {
                        done.countDown();
                    }
                });
        client.connect(60_000);
        try {
            assertThat(done.await(2, TimeUnit.MINUTES)).as("binlog read up to %s", end).isTrue();
        } finally {
            client.disconnect();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("Decoding failed", failures.get(0));
        }
        return events;
    }

    /** The first {@code rows} row changes the Flink CDC reader gives from {@code start}. */
    private static List<ChangeEvent> flinkCdc(
            DatabaseServer mariaDb, String database, BinlogPosition start, int rows)
            throws Exception {
        Configuration config =
                SourceConfigs.startingAt(
                        SourceConfigs.connection(mariaDb, database + "\\..*"),
                        start.file,
                        start.position);
        config.set(MySqlSourceOptions.TIMESTAMP_TIME_ZONE, TIMESTAMP_ZONE.getId());

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(jobConfig);
        env.setParallelism(1);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(OptionSection.unprefixed(config)),
                        WatermarkStrategy.noWatermarks(),
                        "mariadb")
                .sinkTo(EVENTS.sink())
                .name("queue");
        EVENTS.clear();
        JobClient job = env.executeAsync("schemas-" + database);
        try {
            return EVENTS.take(job, rows, ChangeEvent::isRow, WAIT);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    private static BinlogPosition position(DatabaseServer mariaDb) throws Exception {
        try (Connection connection = mariaDb.connect(null)) {
            return BinlogPosition.current(connection);
        }
    }
}

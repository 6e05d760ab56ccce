package io.sluice.it.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobCancellation;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table's {@code mysqlType} does not depend on where the reader learnt its definition: the same
 * table read when the job starts ({@code SHOW CREATE TABLE}) and created while it runs (the DDL's
 * own text) both have the server's {@code COLUMN_TYPE}: MariaDB's with display widths, its JSON the
 * {@code longtext} (2005) it is an alias of; MySQL 8.0's without widths but for {@code tinyint(1)}
 * and ZEROFILL, its JSON {@code json} (12). Database statements arrive as Canal's DDL messages, for
 * the captured databases only. Everything as Canal's classes decode it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ColumnTypeFidelityITCase {

    /** The formats Canal's classes decode. */
    private static final List<MessageFormat> CANAL_FORMATS =
            List.of(MessageFormat.CANAL_FLAT, MessageFormat.CANAL_BINARY);

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);

    private static final ChangeEventQueue EVENTS = new ChangeEventQueue();

    /** Integer types without widths (the server adds its defaults), JSON, and bare BIT/CHAR. */
    private static final String COLUMNS =
            " (id INT NOT NULL PRIMARY KEY, c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED,"
                    + " c_bool BOOLEAN, c_smallint SMALLINT, c_smallint_u SMALLINT UNSIGNED,"
                    + " c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED, c_int INT,"
                    + " c_int_u INT UNSIGNED, c_integer INTEGER, c_int5 INT(5), c_bigint BIGINT,"
                    + " c_bigint_u BIGINT UNSIGNED, c_int_zf INT ZEROFILL, c_year YEAR, c_bit BIT,"
                    + " c_char CHAR, c_decimal DECIMAL, c_json JSON)";

    private static final String ROW =
            " VALUES (1, -1, 1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, 7, 2024, b'1', 'x', 42,"
                    + " '{\"a\": [1, 2]}')";

    private static final String JSON = "{\"a\": [1, 2]}";

    /** What each server shows as COLUMN_TYPE for {@link #COLUMNS}, which Canal writes. */
    private static Map<String, String> expectedTypes(DatabaseServer.Kind kind) {
        boolean mariaDb = kind == DatabaseServer.Kind.MARIADB;
        Map<String, String> types = new LinkedHashMap<>();
        types.put("id", mariaDb ? "int(11)" : "int");
        types.put("c_tinyint", mariaDb ? "tinyint(4)" : "tinyint");
        types.put("c_tinyint_u", mariaDb ? "tinyint(3) unsigned" : "tinyint unsigned");
        types.put("c_bool", "tinyint(1)");
        types.put("c_smallint", mariaDb ? "smallint(6)" : "smallint");
        types.put("c_smallint_u", mariaDb ? "smallint(5) unsigned" : "smallint unsigned");
        types.put("c_mediumint", mariaDb ? "mediumint(9)" : "mediumint");
        types.put("c_mediumint_u", mariaDb ? "mediumint(8) unsigned" : "mediumint unsigned");
        types.put("c_int", mariaDb ? "int(11)" : "int");
        types.put("c_int_u", mariaDb ? "int(10) unsigned" : "int unsigned");
        types.put("c_integer", mariaDb ? "int(11)" : "int");
        types.put("c_int5", mariaDb ? "int(5)" : "int");
        types.put("c_bigint", mariaDb ? "bigint(20)" : "bigint");
        types.put("c_bigint_u", mariaDb ? "bigint(20) unsigned" : "bigint unsigned");
        types.put("c_int_zf", "int(10) unsigned zerofill");
        types.put("c_year", mariaDb ? "year(4)" : "year");
        types.put("c_bit", "bit(1)");
        types.put("c_char", "char(1)");
        types.put("c_decimal", "decimal(10,0)");
        types.put("c_json", mariaDb ? "longtext" : "json");
        return types;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void tableReadAtStartAndCreatedLaterHaveTheServersColumnTypes(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        int jsonSqlType = kind == DatabaseServer.Kind.MARIADB ? Types.CLOB : Types.VARCHAR;
        String database = server.createDatabase("fidelity", null);
        String created = database + "_new";
        server.execute(database, "CREATE TABLE at_start" + COLUMNS, "INSERT INTO at_start" + ROW);
        // Every 'tables' entry must match a table when the job starts: 'created' has one until it
        // is dropped and created again below.
        server.execute(null, "CREATE DATABASE `" + created + "`");
        server.execute(created, "CREATE TABLE placeholder (id INT PRIMARY KEY)");
        Map<String, String> atStartTypes = columnTypes(server, database, "at_start");
        EVENTS.clear();

        JobClient job = startJob(server, database, created);
        try {
            ChangeEvent snapshot = take(job, 1).get(0);
            // The live statements below come once the binlog phase has begun (a row of the
            // placeholder table is read from the binlog only after every snapshot chunk): a
            // statement inside a chunk's backfill window is another matter, which this test is
            // not about.
            server.execute(created, "INSERT INTO placeholder VALUES (1)");
            EVENTS.takeThrough(
                    job,
                    e -> e.table().equals("placeholder") && e.type() == ChangeType.INSERT,
                    WAIT);

            String createLive = "CREATE TABLE live" + COLUMNS;
            String alter =
                    "ALTER TABLE at_start ADD COLUMN c_added INT UNSIGNED,"
                            + " ADD COLUMN c_added_json JSON";
            server.execute(
                    database,
                    createLive,
                    "INSERT INTO live" + ROW,
                    alter,
                    "INSERT INTO at_start (id, c_added, c_added_json) VALUES (2, 8, '[]')");
            List<ChangeEvent> live = take(job, 4);
            Map<String, String> liveTypes = columnTypes(server, database, "live");
            Map<String, String> alteredTypes = columnTypes(server, database, "at_start");

            SoftAssertions softly = new SoftAssertions();
            // What the server itself shows, which Canal writes.
            softly.assertThat(atStartTypes).as("COLUMN_TYPE").isEqualTo(expectedTypes(kind));
            softly.assertThat(liveTypes).as("live COLUMN_TYPE").isEqualTo(atStartTypes);

            checkRow(
                    softly,
                    "snapshot",
                    snapshot,
                    ChangeType.INSERT,
                    "at_start",
                    atStartTypes,
                    jsonSqlType);
            softly.assertThat(snapshot.data().text(columnIndex(snapshot, "c_json")))
                    .isEqualTo(JSON);

            checkStatement(softly, live.get(0), ChangeType.CREATE, database, "live", createLive);
            ChangeEvent liveRow = live.get(1);
            checkRow(
                    softly,
                    "created while running",
                    liveRow,
                    ChangeType.INSERT,
                    "live",
                    liveTypes,
                    jsonSqlType);
            softly.assertThat(liveRow.data().text(columnIndex(liveRow, "c_json")))
                    .as("JSON text of the table created while running")
                    .isEqualTo(JSON);

            checkStatement(softly, live.get(2), ChangeType.ALTER, database, "at_start", alter);
            ChangeEvent altered = live.get(3);
            checkRow(
                    softly,
                    "after ALTER",
                    altered,
                    ChangeType.INSERT,
                    "at_start",
                    alteredTypes,
                    jsonSqlType);
            softly.assertThat(alteredTypes)
                    .containsEntry("c_added", expectedTypes(kind).get("c_int_u"))
                    .containsEntry("c_added_json", expectedTypes(kind).get("c_json"));
            softly.assertThat(altered.data().text(columnIndex(altered, "c_added_json")))
                    .isEqualTo("[]");
            softly.assertAll();

            for (MessageFormat format : CANAL_FORMATS) {
                decodesWithCanal(format, snapshot);
                live.forEach(event -> decodesWithCanal(format, event));
            }

            // Database statements: the captured database's, not another's.
            String other = database + "_other";
            String createDatabase = "CREATE DATABASE `" + created + "`";
            String alterDatabase = "ALTER DATABASE `" + created + "` CHARACTER SET latin1";
            String createTable = "CREATE TABLE t (id INT PRIMARY KEY)";
            String dropDatabase = "DROP DATABASE `" + created + "`";
            server.execute(
                    null,
                    dropDatabase,
                    "CREATE DATABASE `" + other + "`",
                    "ALTER DATABASE `" + other + "` CHARACTER SET latin1",
                    "DROP DATABASE `" + other + "`",
                    createDatabase,
                    alterDatabase);
            server.execute(created, createTable);
            server.execute(null, dropDatabase);
            List<ChangeEvent> all = take(job, 5);
            List<ChangeEvent> statements = all.subList(1, 5);

            softly = new SoftAssertions();
            checkStatement(softly, all.get(0), ChangeType.QUERY, created, "", dropDatabase);
            checkStatement(
                    softly, statements.get(0), ChangeType.QUERY, created, "", createDatabase);
            checkStatement(softly, statements.get(1), ChangeType.QUERY, created, "", alterDatabase);
            checkStatement(softly, statements.get(2), ChangeType.CREATE, created, "t", createTable);
            checkStatement(softly, statements.get(3), ChangeType.QUERY, created, "", dropDatabase);
            softly.assertAll();
            for (MessageFormat format : CANAL_FORMATS) {
                all.forEach(event -> decodesWithCanal(format, event));
            }

            ChangeEvent extra = EVENTS.poll(Duration.ofSeconds(2));
            assertThat(extra).as("no further events").isNull();
        } finally {
            JobCancellation.cancel(job);
        }
    }

    /** Every column's mysqlType is the server's COLUMN_TYPE; JSON columns have Canal's sqlType. */
    private static void checkRow(
            SoftAssertions softly,
            String what,
            ChangeEvent event,
            ChangeType type,
            String table,
            Map<String, String> columnTypes,
            int jsonSqlType) {
        softly.assertThat(event.type()).as("%s type", what).isEqualTo(type);
        TableSchema schema = event.schema();
        softly.assertThat(schema.table()).as("%s table", what).isEqualTo(table);
        Map<String, String> mysqlTypes = new LinkedHashMap<>();
        for (int i = 0; i < schema.columnCount(); i++) {
            mysqlTypes.put(schema.name(i), schema.mysqlType(i));
            if (schema.name(i).contains("json")) {
                softly.assertThat(schema.sqlType(i))
                        .as("%s sqlType of %s", what, schema.name(i))
                        .isEqualTo(jsonSqlType);
            }
        }
        softly.assertThat(mysqlTypes)
                .as("%s mysqlType vs COLUMN_TYPE", what)
                .isEqualTo(columnTypes);
    }

    private static void checkStatement(
            SoftAssertions softly,
            ChangeEvent event,
            ChangeType type,
            String database,
            String table,
            String sql) {
        softly.assertThat(event.type()).as("type of %s", sql).isEqualTo(type);
        softly.assertThat(event.isDdl()).as("isDdl of %s", sql).isTrue();
        softly.assertThat(event.sql()).isEqualTo(sql);
        softly.assertThat(event.database()).as("database of %s", sql).isEqualTo(database);
        softly.assertThat(event.table()).as("table of %s", sql).isEqualTo(table);
        softly.assertThat(event.binlogFile()).as("file of %s", sql).startsWith("mysql-bin.");
        softly.assertThat(event.binlogPosition()).as("pos of %s", sql).isPositive();
        softly.assertThat(event.executeTime()).as("executeTime of %s", sql).isPositive();
    }

    /** Encodes {@code event} as one message and checks what Canal's classes decode. */
    private static void decodesWithCanal(MessageFormat format, ChangeEvent event) {
        byte[] message =
                format.newEncoder(null).encode(List.of(event), 1, System.currentTimeMillis());
        List<Row> rows = CanalMessages.decode(format, message);
        assertThat(rows).as("%s rows of %s", format, event).hasSize(1);
        Row row = rows.get(0);
        String what = format + " " + event.type() + " " + event.database() + "." + event.table();
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(row.type).as(what).isEqualTo(event.type().name());
        softly.assertThat(row.database).as(what).isEqualTo(event.database());
        softly.assertThat(row.table).as(what).isEqualTo(event.table());
        softly.assertThat(row.ddl).as(what).isEqualTo(event.isDdl());
        if (event.isDdl()) {
            softly.assertThat(row.sql).as(what).isEqualTo(event.sql());
        } else {
            for (int c = 0; c < event.schema().columnCount(); c++) {
                String column = event.schema().name(c);
                softly.assertThat(row.data)
                        .as("%s: %s", what, column)
                        .containsEntry(column, event.data().text(c));
                softly.assertThat(row.mysqlType)
                        .as("%s: mysqlType %s", what, column)
                        .containsEntry(column, event.schema().mysqlType(c));
                softly.assertThat(row.sqlType)
                        .as("%s: sqlType %s", what, column)
                        .containsEntry(column, event.schema().sqlType(c));
            }
        }
        softly.assertAll();
    }

    private static int columnIndex(ChangeEvent event, String column) {
        for (int i = 0; i < event.schema().columnCount(); i++) {
            if (event.schema().name(i).equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException(column + " not in " + event.schema());
    }

    /** {@code information_schema.COLUMNS.COLUMN_TYPE} by column, in table order. */
    private static Map<String, String> columnTypes(
            DatabaseServer server, String database, String table) throws Exception {
        Map<String, String> types = new LinkedHashMap<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS"
                                        + " WHERE TABLE_SCHEMA = '"
                                        + database
                                        + "' AND TABLE_NAME = '"
                                        + table
                                        + "' ORDER BY ORDINAL_POSITION")) {
            while (rows.next()) {
                types.put(rows.getString(1), rows.getString(2));
            }
        }
        return types;
    }

    /** Captures every table of {@code database} and of {@code created}, which comes later. */
    private static JobClient startJob(DatabaseServer server, String database, String created)
            throws Exception {
        Configuration config = SourceConfigs.connection(server, database + ".*", created + ".*");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(jobConfig);
        env.setParallelism(1);
        env.enableCheckpointing(500);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(OptionSection.unprefixed(config)),
                        WatermarkStrategy.noWatermarks(),
                        "source")
                .sinkTo(EVENTS.sink())
                .name("queue");
        return env.executeAsync("fidelity-" + server.kind() + "-" + database);
    }

    /** The next {@code count} events, failing if the job dies or they take too long. */
    private static List<ChangeEvent> take(JobClient job, int count) throws Exception {
        return EVENTS.take(job, count, WAIT);
    }
}

package io.sluice.it.sql;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.job.sql.SqlScriptException;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.sluice.it.sql.SqlJobs.ROWS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Sluice catalog ({@code 'type' = 'sluice'}) against MariaDB, Kafka and RocketMQ: what it
 * shows, a job through one of its single-table change tables at parallelism above 1 into each
 * broker, filtered by a column's value, and the planning errors of a pattern that matches nothing
 * and of statements that would need two binlog readers. The {@code <database>.changes} tables are
 * run by every {@code sql/} example ({@link SqlExamplesITCase}, {@link SqlRocketMqITCase}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlCatalogITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int ROUNDS = 2;

    @Test
    void showsTheServersDatabasesAndTablesWithTheirColumns() throws Exception {
        String database = database("show");
        StreamTableEnvironment tables =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        tables.executeSql(catalog("cdc", "order.*|users", ""));

        assertThat(rows(tables, "SHOW DATABASES IN cdc")).contains(database);
        assertThat(rows(tables, "SHOW TABLES IN cdc.`" + database + "`"))
                .containsExactlyInAnyOrder("changes", "order_items", "orders", "users");
        for (String table : List.of("changes", "orders")) {
            ResolvedSchema schema =
                    tables.from("cdc.`" + database + "`." + table).getResolvedSchema();
            assertThat(schema.getColumnNames())
                    .containsExactly(
                            "change",
                            "database",
                            "table",
                            "type",
                            "is_ddl",
                            "es",
                            "gtid",
                            "pk_names",
                            "sql",
                            "data",
                            "old",
                            "binlog_file",
                            "binlog_position");
            assertThat(
                            ChangeColumn.isChangeType(
                                    schema.getColumns().get(0).getDataType().getLogicalType()))
                    .isTrue();
            assertThat(schema.getColumns().stream().skip(1).map(Column::isPhysical))
                    .containsOnly(false);
        }
        // Tables the pattern does not match are not there.
        MARIADB.server().execute(database, "CREATE TABLE audit (id INT PRIMARY KEY)");
        assertThat(rows(tables, "SHOW TABLES IN cdc.`" + database + "`")).doesNotContain("audit");
    }

    @Test
    void aTablePatternThatMatchesNothingIsRefusedNamingTheOptionAndValue() {
        String database = database("nomatch");
        StreamTableEnvironment tables =
                StreamTableEnvironment.create(StreamExecutionEnvironment.getExecutionEnvironment());
        assertThatThrownBy(() -> tables.executeSql(catalog("nomatch", "no_such_table_.*", "")))
                .hasStackTraceContaining(
                        "Catalog 'nomatch' ('type' = 'sluice'): option 'table-pattern' ="
                                + " 'no_such_table_.*' matches no table of any database");

        // Matches in other databases, but not in this one.
        String empty = MARIADB.server().createDatabase("empty", null);
        tables.executeSql(catalog("cdc", "order.*|users", ""));
        assertThatThrownBy(
                        () -> tables.explainSql("SELECT `table` FROM cdc.`" + empty + "`.changes"))
                .hasStackTraceContaining(
                        "Table 'cdc."
                                + empty
                                + ".changes' ('type' = 'sluice'): option"
                                + " 'table-pattern' = 'order.*|users' matches no table of"
                                + " database '"
                                + empty
                                + "'");
        assertThat(database).isNotEmpty();
    }

    @Test
    void oneTableFilteredAndRoutedAtParallelismAboveOne() throws Exception {
        String database = database("one_table");
        String topic = database + "_paid";
        KAFKA.server().createTopic(topic, 3);
        String script =
                paidOrders(
                        "'connector' = 'sluice-kafka', 'bootstrap-servers' = '${KAFKA}',"
                                + " 'transactional-id-prefix' = '${DATABASE}-one'");
        List<Integer> paid = new ArrayList<>();
        for (int id = 0; id < ROWS; id += 2) {
            paid.add(id);
        }
        JobClient job = SqlJobs.start(script, "catalog-" + database, defines(database));
        try {
            assertThat(KAFKA.server().drainReadCommitted(topic, paid.size(), WAIT))
                    .hasSizeGreaterThanOrEqualTo(paid.size());
            for (int round = 1; round <= ROUNDS; round++) {
                SqlJobs.updateAll(MARIADB.server(), database, round);
            }
            assertThat(
                            SqlJobs.changesInOrder(
                                    KAFKA.server()
                                            .drainReadCommitted(
                                                    topic, paid.size() * (ROUNDS + 1), WAIT)))
                    .containsExactlyInAnyOrderElementsOf(SqlJobs.expected("orders", paid, ROUNDS));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void oneTableFilteredIntoRocketMqAtParallelismAboveOne() throws Exception {
        String database = database("one_table_rmq");
        String topic = database + "_paid";
        ROCKETMQ.server().createTopic(topic, 3);
        String script =
                paidOrders(
                        "'connector' = 'sluice-rocketmq', 'name-server' = '${NAME_SERVER}',"
                                + " 'producer-group' = '${DATABASE}-one'");
        List<Integer> paid = new ArrayList<>();
        for (int id = 0; id < ROWS; id += 2) {
            paid.add(id);
        }
        Map<String, String> defines = defines(database);
        defines.put("NAME_SERVER", ROCKETMQ.server().nameServerAddress());
        JobClient job = SqlJobs.start(script, "catalog-rmq-" + database, defines);
        try {
            ROCKETMQ.server().drain(topic, paid.size(), WAIT);
            for (int round = 1; round <= ROUNDS; round++) {
                SqlJobs.updateAll(MARIADB.server(), database, round);
            }
            ROCKETMQ.server().drain(topic, paid.size() * (ROUNDS + 1), WAIT);
            List<String> seen = new ArrayList<>();
            Map<String, Integer> queueOf = new HashMap<>();
            Map<String, Integer> lastVersion = new HashMap<>();
            for (MessageExt message : ROCKETMQ.server().drainAll(topic, Duration.ofSeconds(3))) {
                for (CanalMessages.Row row :
                        CanalMessages.decode(MessageFormat.CANAL_FLAT, message.getBody())) {
                    seen.add(
                            SqlJobs.change(
                                    "orders",
                                    row.data,
                                    queueOf,
                                    lastVersion,
                                    message.getQueueId()));
                }
            }
            assertThat(seen)
                    .as("paid orders only, each change once, per key in order in one queue")
                    .containsExactlyInAnyOrderElementsOf(SqlJobs.expected("orders", paid, ROUNDS));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void twoCatalogsChangesIntoOneSinkAreRefusedNamingTheStatement() {
        String database = database("two_catalogs");
        String script =
                catalog("cdc_a", ".*", "")
                        + catalog("cdc_b", ".*", ", 'server-id' = '5500-5508'")
                        + "CREATE TABLE mq (topic STRING METADATA) WITH ("
                        + " 'connector' = 'sluice-kafka', 'bootstrap-servers' = '${KAFKA}',"
                        + " 'delivery-guarantee' = 'at-least-once')"
                        + " LIKE cdc_a.${DATABASE}.changes (EXCLUDING ALL);\n"
                        + "INSERT INTO mq SELECT change, 'a' FROM cdc_a.${DATABASE}.changes;\n"
                        + "INSERT INTO mq SELECT change, 'b' FROM cdc_b.${DATABASE}.changes;\n";
        assertThatThrownBy(() -> SqlJobs.start(script, "mix-" + database, defines(database)))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageContaining(
                        "SQL statement 5 (line 5: INSERT INTO mq SELECT change, 'b' FROM cdc_b.")
                .hasMessageContaining("it cannot run in one job with statement 4")
                .hasMessageContaining(
                        "is written with the changes of more than one change table: 'cdc_a."
                                + database
                                + ".changes', 'cdc_b."
                                + database
                                + ".changes'");

        String union =
                catalog("cdc_a", ".*", "")
                        + catalog("cdc_b", ".*", ", 'server-id' = '5500-5508'")
                        + "CREATE TABLE mq (topic STRING METADATA) WITH ("
                        + " 'connector' = 'sluice-kafka', 'bootstrap-servers' = '${KAFKA}')"
                        + " LIKE cdc_a.${DATABASE}.changes (EXCLUDING ALL);\n"
                        + "INSERT INTO mq SELECT change, 'a' FROM cdc_a.${DATABASE}.changes"
                        + " UNION ALL SELECT change, 'b' FROM cdc_b.${DATABASE}.changes;\n";
        assertThatThrownBy(() -> SqlJobs.start(union, "union-" + database, defines(database)))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageContaining("SQL statement 4 (line 4: INSERT INTO mq SELECT change")
                .hasMessageContaining("is written with the changes of more than one change table");
    }

    @Test
    void twoTablesOfOneCatalogWithOneServerIdAreRefusedNamingTheStatement() {
        String database = database("two_tables");
        String script =
                catalog("cdc", ".*", ", 'server-id' = '5400-5408'")
                        + "CREATE TABLE a (topic STRING METADATA) WITH ("
                        + " 'connector' = 'sluice-kafka', 'bootstrap-servers' = '${KAFKA}',"
                        + " 'transactional-id-prefix' = 'a')"
                        + " LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);\n"
                        + "CREATE TABLE b WITH ('transactional-id-prefix' = 'b') LIKE a;\n"
                        + "INSERT INTO a SELECT change, 'a' FROM cdc.${DATABASE}.orders;\n"
                        + "INSERT INTO b SELECT change, 'b' FROM cdc.${DATABASE}.users;\n";
        assertThatThrownBy(() -> SqlJobs.start(script, "two-" + database, defines(database)))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageContaining("SQL statement 5 (line 5: INSERT INTO b SELECT change")
                .hasMessageContaining(
                        "Tables 'cdc."
                                + database
                                + ".orders' and 'cdc."
                                + database
                                + ".users' ('connector' = 'sluice-mysql') are read in one job by"
                                + " two binlog readers, both with 'server-id' = '5400-5408'");
    }

    private static String catalog(String name, String pattern, String extraOptions) {
        MariaDbServer mariaDb = MARIADB.server();
        return "CREATE CATALOG "
                + name
                + " WITH ('type' = 'sluice', 'hostname' = '"
                + mariaDb.host()
                + "', 'port' = '"
                + mariaDb.port()
                + "', 'username' = '"
                + MariaDbServer.CDC_USER
                + "', 'password' = '"
                + MariaDbServer.CDC_PASSWORD
                + "', 'table-pattern' = '"
                + pattern
                + "'"
                + extraOptions
                + ");\n";
    }

    /**
     * The paid orders of the catalog's {@code orders} change table into topic {@code
     * <database>_paid} of a sink with {@code sinkOptions}; query parallelism 3, sink 2.
     */
    private static String paidOrders(String sinkOptions) {
        return "SET 'parallelism.default' = '3';\n"
                + "SET 'execution.checkpointing.interval' = '1s';\n"
                + catalog("cdc", ".*", "")
                + "CREATE TABLE mq (topic STRING METADATA) WITH ("
                + sinkOptions
                + ", 'format' = 'canal-flat', 'sink.parallelism' = '2')"
                + " LIKE cdc.${DATABASE}.orders (EXCLUDING ALL);\n"
                + "INSERT INTO mq SELECT change, CONCAT(`database`, '_paid')"
                + " FROM cdc.${DATABASE}.orders WHERE data['status'] = 'paid';\n";
    }

    private static Map<String, String> defines(String database) {
        return SqlJobs.defines(MARIADB.server(), KAFKA.server(), database);
    }

    private static String database(String prefix) {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase(prefix, "ddl/shop.sql");
        SqlJobs.seed(mariaDb, database);
        return database;
    }

    private static List<String> rows(StreamTableEnvironment tables, String sql) throws Exception {
        try (CloseableIterator<Row> rows = tables.executeSql(sql).collect()) {
            List<String> values = new ArrayList<>();
            rows.forEachRemaining(row -> values.add(String.valueOf(row.getField(0))));
            return values.stream().sorted().collect(Collectors.toList());
        }
    }
}

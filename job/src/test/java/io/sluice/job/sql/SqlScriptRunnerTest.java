package io.sluice.job.sql;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import io.sluice.functions.table.ChangeColumn;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Plans scripts with Sluice's connectors (no servers: nothing is executed). */
class SqlScriptRunnerTest {

    private static final String TABLES =
            "CREATE TABLE binlog (change "
                    + ChangeColumn.SQL_TYPE
                    + ", `table` STRING METADATA VIRTUAL)\n"
                    + "WITH ('connector' = 'sluice-mysql', 'password' = '${env:PW}',"
                    + " 'tables' = '${DB}.t.*');\n"
                    + "CREATE TABLE mq (topic STRING METADATA)\n"
                    + "WITH ('connector' = 'sluice-kafka', 'bootstrap-servers' = '127.0.0.1:1',"
                    + " 'delivery-guarantee' = 'at-least-once', 'partition-counts' = '.*:1')\n"
                    + "LIKE binlog (EXCLUDING ALL);\n";

    private static StreamTableEnvironment tables(SqlScriptRunner runner) {
        return StreamTableEnvironment.create(
                StreamExecutionEnvironment.getExecutionEnvironment(runner.configuration()));
    }

    @Test
    void statementSetBlockAndPlainInsertsJoinOneSetWithOneSource() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        "SET 'execution.checkpointing.interval' = '3s';\n"
                                + TABLES
                                + "CREATE TABLE mq2 WITH ('transactional-id-prefix' = 'b')"
                                + " LIKE mq;\n"
                                + "EXECUTE STATEMENT SET BEGIN\n"
                                + "INSERT INTO mq SELECT change, 'a' FROM binlog WHERE `table` = 'ta';\n"
                                + "INSERT INTO mq2 SELECT change, 'b' FROM binlog WHERE `table` <> 'ta';\n"
                                + "END;\n",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        assertThat(runner.configuration().get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(runner.configuration().get(PipelineOptions.GENERIC_TYPES)).isFalse();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(runner.configuration());
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        runner.plan(tables).attachAsDataStream();
        assertThat(env.getStreamGraph().getSourceIDs()).hasSize(1);
        assertThat(runner.statements().get(1).text()).contains("'password' = 'secret'");
        assertThat(runner.statements().get(1).text()).contains("'tables' = 'shop.t.*'");
    }

    @Test
    void aBadInsertIsNamedByItsPositionAndReason() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        TABLES + "\nINSERT INTO mq SELECT change, nope FROM binlog;\n",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        assertThatThrownBy(() -> runner.plan(tables(runner)))
                .isInstanceOf(SqlScriptException.class)
                .hasMessageContaining(
                        "SQL statement 3 (line 7: INSERT INTO mq SELECT change, nope FROM binlog)"
                                + " failed: the INSERT cannot be planned")
                .hasMessageContaining("Column 'nope' not found");
    }

    @Test
    void aBadOptionIsNamedWithItsStatement() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        TABLES.replace("'.*:1'", "'.*:1', 'partition-hash' = 'x:a^'")
                                + "INSERT INTO mq SELECT change, 'a' FROM binlog;",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        assertThatThrownBy(() -> runner.plan(tables(runner)))
                .hasMessageContaining("SQL statement 3")
                .hasMessageContaining("Option 'partition-hash' has an empty column name in 'x:a^'");
    }

    @Test
    void twoInsertsIntoOneExactlyOnceTableAreRefusedNamingBothStatements() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        TABLES
                                + "CREATE TABLE rmq WITH ('connector' = 'sluice-rocketmq',"
                                + " 'name-server' = '127.0.0.1:1', 'partition-counts' = '.*:1')"
                                + " LIKE mq (EXCLUDING OPTIONS);\n"
                                + "INSERT INTO rmq SELECT change, 'a' FROM binlog;\n"
                                + "INSERT INTO `rmq` SELECT change, 'b' FROM binlog;\n",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        assertThatThrownBy(() -> runner.plan(tables(runner)))
                .hasMessageContaining("SQL statement 5 (line 8: INSERT INTO `rmq`")
                .hasMessageContaining("collides with that of statement 4 (line 7: INSERT INTO rmq")
                .hasMessageContaining(
                        "is written by two sinks, both with 'producer-group' = 'sluice'")
                .hasMessageContaining("UNION ALL");
    }

    @Test
    void twoTablesWithOneGroupAreRefusedAndDistinctOnesAccepted() {
        String tablesOfGroups =
                TABLES
                        + "CREATE TABLE r1 WITH ('connector' = 'sluice-rocketmq',"
                        + " 'name-server' = '127.0.0.1:1', 'partition-counts' = '.*:1',"
                        + " 'producer-group' = 'g1') LIKE mq (EXCLUDING OPTIONS);\n"
                        + "CREATE TABLE r2 WITH ('connector' = 'sluice-rocketmq',"
                        + " 'name-server' = '127.0.0.1:1', 'partition-counts' = '.*:1',"
                        + " 'producer-group' = '${G2}') LIKE mq (EXCLUDING OPTIONS);\n"
                        + "INSERT INTO r1 SELECT change, 'a' FROM binlog;\n"
                        + "INSERT INTO r2 SELECT change, 'b' FROM binlog;\n";
        SqlScriptRunner clash =
                SqlScriptRunner.parse(
                        tablesOfGroups, Map.of("DB", "shop", "G2", "g1"), Map.of("PW", "secret"));
        assertThatThrownBy(() -> clash.plan(tables(clash)))
                .hasMessageContaining("SQL statement 6")
                .hasMessageContaining("statement 5")
                .hasMessageContaining(
                        "table 'default_catalog.default_database.r2' has 'producer-group' = 'g1'")
                .hasMessageContaining("give each table its own 'producer-group'");

        SqlScriptRunner distinct =
                SqlScriptRunner.parse(
                        tablesOfGroups, Map.of("DB", "shop", "G2", "g2"), Map.of("PW", "secret"));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(distinct.configuration());
        distinct.plan(StreamTableEnvironment.create(env)).attachAsDataStream();
        assertThat(env.getStreamGraph().getSourceIDs()).hasSize(1);
    }

    @Test
    void atLeastOnceTablesClaimNothing() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        TABLES
                                + "INSERT INTO mq SELECT change, 'a' FROM binlog;\n"
                                + "INSERT INTO `mq` SELECT change, 'b' FROM binlog;\n",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(runner.configuration());
        runner.plan(StreamTableEnvironment.create(env)).attachAsDataStream();
        assertThat(env.getStreamGraph().getSourceIDs()).hasSize(1);
    }

    @Test
    void missingDefineIsNamed() {
        assertThatThrownBy(() -> SqlScriptRunner.parse(TABLES, Map.of(), Map.of("PW", "x")))
                .hasMessageContaining("SQL statement 1 (line 1: CREATE TABLE binlog")
                .hasMessageContaining("'${DB}' has no value; give it as --define DB=value");
    }

    @Test
    void unquotedSetIsRefusedWithTheForm() {
        assertThatThrownBy(
                        () ->
                                SqlScriptRunner.parse(
                                        "SET parallelism.default = 2;", Map.of(), Map.of()))
                .hasMessageContaining("SET takes the form SET 'key' = 'value'");
    }

    @Test
    void aScriptWithoutInsertIsRefused() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(TABLES, Map.of("DB", "shop"), Map.of("PW", "x"));
        assertThatThrownBy(() -> runner.plan(tables(runner)))
                .hasMessageContaining("no INSERT statement");
    }
}

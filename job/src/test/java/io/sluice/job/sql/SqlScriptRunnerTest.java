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
    void twoInsertsIntoOneTableAreRefusedWithTheWayOut() {
        SqlScriptRunner runner =
                SqlScriptRunner.parse(
                        TABLES
                                + "INSERT INTO mq SELECT change, 'a' FROM binlog;\n"
                                + "INSERT INTO `mq` SELECT change, 'b' FROM binlog;\n",
                        Map.of("DB", "shop"),
                        Map.of("PW", "secret"));
        assertThatThrownBy(() -> runner.plan(tables(runner)))
                .hasMessageContaining("SQL statement 4 (line 7: INSERT INTO `mq`")
                .hasMessageContaining("it writes to mq like statement 3")
                .hasMessageContaining("UNION ALL");
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

package io.sluice.functions.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Plans Sluice's SQL connectors (no servers): the graph they make and the errors they give. */
class SqlConnectorPlanTest {

    private StreamExecutionEnvironment env;
    private StreamTableEnvironment tables;

    @BeforeEach
    void setUp() {
        Configuration config = new Configuration();
        config.set(PipelineOptions.GENERIC_TYPES, false);
        env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        tables = StreamTableEnvironment.create(env);
    }

    private void createBinlog(String extraOptions) {
        tables.executeSql(
                "CREATE TABLE binlog ("
                        + " change "
                        + ChangeColumn.SQL_TYPE
                        + ", `database` STRING METADATA VIRTUAL"
                        + ", `table` STRING METADATA VIRTUAL"
                        + ", `type` STRING METADATA VIRTUAL"
                        + ", es TIMESTAMP_LTZ(3) METADATA VIRTUAL"
                        + ", pk_names ARRAY<STRING> METADATA VIRTUAL"
                        + ", data MAP<STRING, STRING> METADATA VIRTUAL"
                        + ") WITH ('connector' = 'sluice-mysql', 'password' = 'pw',"
                        + " 'tables' = 'shop.order.*;shop.user'"
                        + extraOptions
                        + ")");
    }

    private void createMq(String name, String extraOptions) {
        tables.executeSql(
                "CREATE TABLE "
                        + name
                        + " (topic STRING METADATA, `key` BYTES METADATA)"
                        + " WITH ('connector' = 'sluice-kafka',"
                        + " 'bootstrap-servers' = '127.0.0.1:1',"
                        + " 'delivery-guarantee' = 'at-least-once',"
                        + " 'partition-counts' = '.*:3'"
                        + extraOptions
                        + ") LIKE binlog (EXCLUDING ALL)");
    }

    @Test
    void insertsOfOneStatementSetShareOneBinlogReader() {
        createBinlog("");
        createMq("orders_mq", ", 'transactional-id-prefix' = 'a'");
        createMq("other_mq", ", 'transactional-id-prefix' = 'b'");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql(
                "INSERT INTO orders_mq SELECT change, 'orders' AS topic, CAST(NULL AS BYTES)"
                        + " FROM binlog WHERE `table` LIKE 'order%'");
        set.addInsertSql(
                "INSERT INTO other_mq SELECT change,"
                        + " CONCAT(`database`, '_', `table`), CAST(NULL AS BYTES)"
                        + " FROM binlog WHERE `table` NOT LIKE 'order%' AND data['status'] <> 'x'");
        set.attachAsDataStream();

        StreamGraph graph = env.getStreamGraph();
        assertThat(graph.getSourceIDs()).as("one CDC source for both INSERTs").hasSize(1);
        List<String> encoders =
                graph.getStreamNodes().stream()
                        .map(StreamNode::getOperatorName)
                        .filter(name -> name.startsWith("Encode canal-flat for"))
                        .collect(Collectors.toList());
        assertThat(encoders).as("one encoder per sink table").hasSize(2);
        JobGraph job = graph.getJobGraph();
        long inputVertices = 0;
        for (JobVertex vertex : job.getVertices()) {
            if (vertex.isInputVertex()) {
                inputVertices++;
            }
        }
        assertThat(inputVertices).as("one source vertex in the job graph").isEqualTo(1);
    }

    @Test
    void parallelismComesFromTableOptions() {
        createBinlog(", 'scan.parallelism' = '1'");
        createMq("mq", ", 'sink.parallelism' = '3'");
        tables.createStatementSet()
                .addInsertSql(
                        "INSERT INTO mq SELECT change, CAST(NULL AS STRING), CAST(NULL AS BYTES) FROM binlog")
                .attachAsDataStream();
        StreamGraph graph = env.getStreamGraph();
        for (StreamNode node : graph.getStreamNodes()) {
            String name = node.getOperatorName();
            if (name.contains("MySQL CDC source") || name.contains("Split primary-key")) {
                assertThat(node.getParallelism()).as(name).isEqualTo(1);
            } else if (name.contains("Changes as rows") || name.contains("Encode")) {
                // The query's operators, the encoder chained to them: the default parallelism.
                assertThat(node.getParallelism()).as(name).isEqualTo(2);
            } else if (name.contains("Order statements") || name.contains("Kafka sink")) {
                assertThat(node.getParallelism()).as(name).isEqualTo(3);
            }
        }
    }

    @Test
    void eachPartitionHasOneOwnerChainedToItsWriter() {
        createBinlog("");
        createMq("mq", ", 'sink.parallelism' = '3'");
        tables.createStatementSet()
                .addInsertSql(
                        "INSERT INTO mq SELECT change, CAST(NULL AS STRING), CAST(NULL AS BYTES) FROM binlog")
                .attachAsDataStream();
        JobGraph job = env.getStreamGraph().getJobGraph();
        List<String> vertices =
                java.util.stream.StreamSupport.stream(job.getVertices().spliterator(), false)
                        .map(JobVertex::getName)
                        .collect(Collectors.toList());
        assertThat(vertices)
                .as("the owners start a vertex (an exchange by partition) that holds the writer")
                .anySatisfy(
                        name ->
                                assertThat(name)
                                        .startsWith("Order statements per partition of")
                                        .contains("Kafka sink"));
    }

    @Test
    void atTheSourcesParallelismKafkaRunsAsOneChainedTaskWithoutOwners() {
        createBinlog("");
        createMq("mq", "");
        tables.createStatementSet()
                .addInsertSql(
                        "INSERT INTO mq SELECT change, CAST(NULL AS STRING), CAST(NULL AS BYTES)"
                                + " FROM binlog WHERE `type` <> 'x'")
                .attachAsDataStream();
        StreamGraph graph = env.getStreamGraph();
        assertThat(graph.getStreamNodes())
                .as("no partition owners: each source subtask's writer writes its own messages")
                .noneSatisfy(
                        node ->
                                assertThat(node.getOperatorName())
                                        .startsWith("Order statements per partition"));
        List<JobVertex> vertices = vertices(graph.getJobGraph());
        assertThat(vertices)
                .as("source, rows, query, encoder and writer in one chain, as the YAML pipeline's")
                .hasSize(1);
        assertThat(vertices.get(0).getName())
                .contains("MySQL CDC source", "Calc", "Encode", "Kafka sink");
    }

    @Test
    void atTheSourcesParallelismRocketMqChainsTheQueryToTheSourceThenTheQueueOwners() {
        createBinlog("");
        tables.executeSql(
                "CREATE TABLE rmq WITH ('connector' = 'sluice-rocketmq',"
                        + " 'name-server' = '127.0.0.1:1', 'partition-counts' = '.*:3')"
                        + " LIKE binlog (EXCLUDING ALL)");
        tables.createStatementSet()
                .addInsertSql("INSERT INTO rmq SELECT change FROM binlog")
                .attachAsDataStream();
        List<JobVertex> vertices = vertices(env.getStreamGraph().getJobGraph());
        assertThat(vertices)
                .as("the query chained to the source, then one writer per queue")
                .hasSize(2);
        assertThat(vertices.get(0).getName()).contains("MySQL CDC source", "Encode");
        assertThat(vertices.get(1).getName())
                .startsWith("Order statements per partition of")
                .contains("RocketMQ sink");
    }

    private static List<JobVertex> vertices(JobGraph job) {
        return job.getVerticesSortedTopologicallyFromSources();
    }

    @Test
    void aWatermarkOnAChangeTableIsRefusedNamingTheRule() {
        tables.executeSql(
                "CREATE TABLE timed (change "
                        + ChangeColumn.SQL_TYPE
                        + ", es TIMESTAMP_LTZ(3) METADATA,"
                        + " WATERMARK FOR es AS es - INTERVAL '1' SECOND)"
                        + " WITH ('connector' = 'sluice-mysql', 'password' = 'pw',"
                        + " 'tables' = 'a.b')");
        assertThatThrownBy(() -> tables.explainSql("SELECT change FROM timed"))
                .hasStackTraceContaining("Table 'default_catalog.default_database.timed'")
                .hasStackTraceContaining("declares WATERMARK")
                .hasStackTraceContaining("takes no WATERMARK");
    }

    @Test
    void aSecondPhysicalColumnIsRefusedNamingTheRule() {
        assertThatThrownBy(
                        () -> {
                            tables.executeSql(
                                    "CREATE TABLE bad (change "
                                            + ChangeColumn.SQL_TYPE
                                            + ", id INT) WITH ('connector' = 'sluice-mysql',"
                                            + " 'password' = 'pw', 'tables' = 'a.b')");
                            tables.executeSql("SELECT id FROM bad").getResolvedSchema();
                            tables.explainSql("SELECT id FROM bad");
                        })
                .hasStackTraceContaining("declares the physical column id INT")
                .hasStackTraceContaining("METADATA");
    }

    @Test
    void missingPasswordNamesTheOption() {
        tables.executeSql(
                "CREATE TABLE nopw (change "
                        + ChangeColumn.SQL_TYPE
                        + ") WITH ('connector' = 'sluice-mysql', 'tables' = 'a.b')");
        assertThatThrownBy(() -> tables.explainSql("SELECT * FROM nopw"))
                .hasStackTraceContaining("password");
    }

    @Test
    void badStartupCompanionNamesTheSqlKey() {
        createBinlog(", 'startup.mode' = 'gtid'");
        assertThatThrownBy(() -> tables.explainSql("SELECT change FROM binlog"))
                .hasStackTraceContaining("'startup.gtid-set' is required in 'gtid' startup mode")
                .hasStackTraceContaining("default_catalog.default_database.binlog");
    }

    @Test
    void badPartitionHashNamesTheSqlKeyAndTheItem() {
        createBinlog("");
        createMq("mq", ", 'partition-hash' = 'shop.user:id^'");
        assertThatThrownBy(
                        () ->
                                tables.explainSql(
                                        "INSERT INTO mq SELECT change, CAST(NULL AS STRING),"
                                                + " CAST(NULL AS BYTES) FROM binlog"))
                .hasStackTraceContaining("Option 'partition-hash' has an empty column name")
                .hasStackTraceContaining("shop.user:id^");
    }

    @Test
    void unknownOptionIsNamed() {
        createBinlog(", 'hostnme' = 'db'");
        assertThatThrownBy(() -> tables.explainSql("SELECT change FROM binlog"))
                .hasStackTraceContaining("hostnme");
    }

    @Test
    void sinkWithoutTheChangeColumnIsRefused() {
        createBinlog("");
        tables.executeSql(
                "CREATE TABLE plain (topic STRING METADATA, body STRING) WITH ("
                        + " 'connector' = 'sluice-kafka', 'bootstrap-servers' = '127.0.0.1:1')");
        assertThatThrownBy(
                        () ->
                                tables.explainSql(
                                        "INSERT INTO plain SELECT 't', `table` FROM binlog"))
                .hasStackTraceContaining("must have exactly one physical column, the change");
    }

    @Test
    void twoChangeTablesWithOneServerIdAreRefusedNamingBoth() {
        createBinlog(", 'server-id' = '5400-5408'");
        createSecondBinlog(", 'server-id' = '5400-5408'");
        createMq("a_mq", ", 'transactional-id-prefix' = 'a'");
        createMq("b_mq", ", 'transactional-id-prefix' = 'b'");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql("INSERT INTO a_mq SELECT change, 'a', CAST(NULL AS BYTES) FROM binlog");
        set.addInsertSql("INSERT INTO b_mq SELECT change, 'b', CAST(NULL AS BYTES) FROM binlog2");
        assertThatThrownBy(set::attachAsDataStream)
                .hasStackTraceContaining(
                        "Tables 'default_catalog.default_database.binlog' and"
                                + " 'default_catalog.default_database.binlog2'")
                .hasStackTraceContaining("both with 'server-id' = '5400-5408' on 127.0.0.1:3306");
    }

    @Test
    void twoChangeTablesWithTheirOwnServerIdsRunInOneJob() {
        createBinlog("");
        createSecondBinlog(", 'server-id' = '5410-5418'");
        createMq("a_mq", ", 'transactional-id-prefix' = 'a'");
        createMq("b_mq", ", 'transactional-id-prefix' = 'b'");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql("INSERT INTO a_mq SELECT change, 'a', CAST(NULL AS BYTES) FROM binlog");
        set.addInsertSql("INSERT INTO b_mq SELECT change, 'b', CAST(NULL AS BYTES) FROM binlog2");
        set.attachAsDataStream();
        assertThat(env.getStreamGraph().getSourceIDs()).hasSize(2);
    }

    @Test
    void twoChangeTablesWithoutServerIdsDrawTheirOwnAndRunInOneJob() {
        createBinlog("");
        createSecondBinlog("");
        createMq("a_mq", ", 'transactional-id-prefix' = 'a'");
        createMq("b_mq", ", 'transactional-id-prefix' = 'b'");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql("INSERT INTO a_mq SELECT change, 'a', CAST(NULL AS BYTES) FROM binlog");
        set.addInsertSql("INSERT INTO b_mq SELECT change, 'b', CAST(NULL AS BYTES) FROM binlog2");
        set.attachAsDataStream();
        assertThat(env.getStreamGraph().getSourceIDs()).hasSize(2);
    }

    @Test
    void aSinkFedByTwoChangeTablesIsRefusedNamingThem() {
        createBinlog("");
        createSecondBinlog(", 'server-id' = '5410-5418'");
        createMq("mq", "");
        assertThatThrownBy(
                        () ->
                                tables.explainSql(
                                        "INSERT INTO mq SELECT change, 'a', CAST(NULL AS BYTES)"
                                                + " FROM binlog UNION ALL SELECT change, 'b',"
                                                + " CAST(NULL AS BYTES) FROM binlog2"))
                .hasStackTraceContaining(
                        "Table 'default_catalog.default_database.mq' ('connector' ="
                                + " 'sluice-kafka') is written with the changes of more than one"
                                + " change table: 'default_catalog.default_database.binlog',"
                                + " 'default_catalog.default_database.binlog2'");
    }

    @Test
    void twoInsertsIntoOneSinkFromTwoChangeTablesAreRefused() {
        createBinlog("");
        createSecondBinlog(", 'server-id' = '5410-5418'");
        createMq("mq", "");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql("INSERT INTO mq SELECT change, 'a', CAST(NULL AS BYTES) FROM binlog");
        set.addInsertSql("INSERT INTO mq SELECT change, 'b', CAST(NULL AS BYTES) FROM binlog2");
        assertThatThrownBy(set::attachAsDataStream)
                .hasStackTraceContaining("is written with the changes of more than one change");
    }

    @Test
    void anUnknownCatalogOptionIsNamedByFlink() {
        assertThatThrownBy(
                        () ->
                                tables.executeSql(
                                        "CREATE CATALOG cdc WITH ('type' = 'sluice',"
                                                + " 'password' = 'pw', 'hostnme' = 'db')"))
                .hasStackTraceContaining("Unsupported options found for 'sluice'")
                .hasStackTraceContaining("hostnme")
                .hasStackTraceContaining("table-pattern");
    }

    @Test
    void aCatalogTablePatternThatIsNoRegexIsNamed() {
        assertThatThrownBy(
                        () ->
                                tables.executeSql(
                                        "CREATE CATALOG cdc WITH ('type' = 'sluice',"
                                                + " 'password' = 'pw', 'table-pattern' = 'a(')"))
                .hasStackTraceContaining(
                        "option 'table-pattern' takes a regular expression, but 'a(' is not one");
    }

    private void createSecondBinlog(String extraOptions) {
        tables.executeSql(
                "CREATE TABLE binlog2 WITH ('connector' = 'sluice-mysql', 'password' = 'pw',"
                        + " 'tables' = 'other.t'"
                        + extraOptions
                        + ") LIKE binlog (EXCLUDING OPTIONS)");
    }
}

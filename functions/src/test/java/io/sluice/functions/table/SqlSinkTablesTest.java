package io.sluice.functions.table;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.runtime.partitioner.CustomPartitionerWrapper;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.ObjectIdentifier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Plans the {@code sluice-rocketmq} table and statement sets of several Sluice sinks (no servers):
 * the graph, option errors, and the sinks that cannot share a job.
 */
class SqlSinkTablesTest {

    private StreamExecutionEnvironment env;
    private StreamTableEnvironment tables;

    @BeforeEach
    void setUp() {
        Configuration config = new Configuration();
        config.set(PipelineOptions.GENERIC_TYPES, false);
        env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        tables = StreamTableEnvironment.create(env);
        tables.executeSql(
                "CREATE TABLE binlog (change "
                        + ChangeColumn.SQL_TYPE
                        + ", `table` STRING METADATA VIRTUAL) WITH ('connector' = 'sluice-mysql',"
                        + " 'password' = 'pw', 'tables' = 'shop.orders')");
    }

    private void create(String name, String connector, String options) {
        String target =
                connector.equals("sluice-kafka")
                        ? "'bootstrap-servers' = '127.0.0.1:1'"
                        : "'name-server' = '127.0.0.1:1'";
        tables.executeSql(
                "CREATE TABLE "
                        + name
                        + " (topic STRING METADATA) WITH ('connector' = '"
                        + connector
                        + "', "
                        + target
                        + ", 'partition-counts' = '.*:3'"
                        + options
                        + ") LIKE binlog (EXCLUDING ALL)");
    }

    private static String insert(String table) {
        return "INSERT INTO " + table + " SELECT change, `table` FROM binlog";
    }

    @Test
    void rocketMqMessagesGoFromTheEncodersToTheirQueueOwnerAtTheSinkParallelism() {
        create("rmq", "sluice-rocketmq", ", 'sink.parallelism' = '3'");
        tables.createStatementSet().addInsertSql(insert("rmq")).attachAsDataStream();

        StreamGraph graph = env.getStreamGraph();
        StreamNode encode = node(graph, "Encode canal-flat for");
        StreamNode owner = node(graph, "Order statements per partition of");
        StreamNode writer =
                node(graph, "RocketMQ sink default_catalog.default_database.rmq: Writer");
        assertThat(encode.getParallelism())
                .as("encoders chain onto the query")
                .isEqualTo(env.getParallelism());
        assertThat(owner.getParallelism()).isEqualTo(3);
        assertThat(writer.getParallelism()).isEqualTo(3);
        List<StreamEdge> intoOwner = owner.getInEdges();
        assertThat(intoOwner).hasSize(1);
        assertThat(intoOwner.get(0).getSourceId()).isEqualTo(encode.getId());
        assertThat(intoOwner.get(0).getPartitioner())
                .as("one writer per queue: the partition owner exchange")
                .isInstanceOf(CustomPartitionerWrapper.class);
        List<StreamEdge> intoWriter = writer.getInEdges();
        assertThat(intoWriter).hasSize(1);
        assertThat(intoWriter.get(0).getSourceId()).isEqualTo(owner.getId());
        assertThat(intoWriter.get(0).getPartitioner())
                .as("the writer is chained to the owner")
                .isInstanceOf(ForwardPartitioner.class);
    }

    @Test
    void badRocketMqOptionsNameTheSqlKeyTheRuleAndTheValue() {
        create("small", "sluice-rocketmq", ", 'batch-max-bytes' = '100'");
        assertThatThrownBy(() -> tables.explainSql(insert("small")))
                .hasStackTraceContaining(
                        "Invalid options of table 'default_catalog.default_database.small'"
                                + " ('connector' = 'sluice-rocketmq'): Option 'batch-max-bytes'"
                                + " must be between 1024 and 4194304")
                .hasStackTraceContaining("but is 100");

        create("grp", "sluice-rocketmq", ", 'producer-group' = 'a b'");
        assertThatThrownBy(() -> tables.explainSql(insert("grp")))
                .hasStackTraceContaining("Option 'producer-group' must be 1-255 characters")
                .hasStackTraceContaining("but is 'a b'");

        create("hashed", "sluice-rocketmq", ", 'partition-hash' = 'shop.orders:id^'");
        assertThatThrownBy(() -> tables.explainSql(insert("hashed")))
                .hasStackTraceContaining("Option 'partition-hash' has an empty column name")
                .hasStackTraceContaining("shop.orders:id^");

        create("twice", "sluice-rocketmq", ", 'delivery-guarantee' = 'twice'");
        assertThatThrownBy(() -> tables.explainSql(insert("twice")))
                .hasStackTraceContaining("delivery-guarantee")
                .hasStackTraceContaining("twice");

        create("typo", "sluice-rocketmq", ", 'bootstrap-servers' = 'k:9092'");
        assertThatThrownBy(() -> tables.explainSql(insert("typo")))
                .hasStackTraceContaining("Unsupported options")
                .hasStackTraceContaining("bootstrap-servers");
    }

    @Test
    void badOptionsNameTheKeyAsTheTableWritesIt() {
        create("stuck", "sluice-kafka", ", 'transaction-timeout' = '0 s'");
        assertThatThrownBy(() -> tables.explainSql(insert("stuck")))
                .hasStackTraceContaining(
                        "Invalid options of table 'default_catalog.default_database.stuck'"
                                + " ('connector' = 'sluice-kafka'): Option 'transaction-timeout'"
                                + " must be positive, but is PT0S");

        create(
                "idle",
                "sluice-kafka",
                ", 'group-rows' = 'event', 'group-rows.idle-flush' = '1min'");
        assertThatThrownBy(() -> tables.explainSql(insert("idle")))
                .hasStackTraceContaining(
                        "Option 'group-rows.idle-flush' must be between 1 ms and 10 s, but is 1 min");
    }

    @Test
    void theEarlierGroupRowsKeysStillWork() {
        create("grouped", "sluice-kafka", ", 'format.group-rows' = 'event'");
        assertThat(tables.explainSql(insert("grouped"))).contains("grouped");

        // Read: their values are checked as the new keys' are.
        create(
                "slow",
                "sluice-kafka",
                ", 'format.group-rows' = 'event', 'format.group-rows.idle-flush' = '1min'");
        assertThatThrownBy(() -> tables.explainSql(insert("slow")))
                .hasStackTraceContaining("must be between 1 ms and 10 s, but is 1 min");
    }

    @Test
    void missingNameServerIsNamed() {
        tables.executeSql(
                "CREATE TABLE nameless WITH ('connector' = 'sluice-rocketmq')"
                        + " LIKE binlog (EXCLUDING ALL)");
        assertThatThrownBy(() -> tables.explainSql(insert("nameless").replace(", `table`", "")))
                .hasStackTraceContaining("Missing required options")
                .hasStackTraceContaining("name-server");
    }

    @Test
    void twoSinksWithOneGroupAreRefusedNamingBothTablesAndTheOption() {
        create("c", "sluice-rocketmq", ", 'producer-group' = 'p'");
        create("d", "sluice-rocketmq", ", 'producer-group' = 'p'");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql(insert("c"));
        set.addInsertSql(insert("d"));
        assertThatThrownBy(set::attachAsDataStream)
                .hasStackTraceContaining(
                        "table 'default_catalog.default_database.d' has 'producer-group' = 'p',"
                                + " as table 'default_catalog.default_database.c' written before"
                                + " does")
                .hasStackTraceContaining("give each table its own 'producer-group'");
    }

    @Test
    void kafkaTablesClaimTheirPrefixOnlyWhenExactlyOnce() {
        ObjectIdentifier a = ObjectIdentifier.of("cat", "db", "a");
        ObjectIdentifier b = ObjectIdentifier.of("cat", "db", "b");
        SinkClaim byDefault = SinkClaim.of(a, Map.of("connector", "sluice-kafka")).orElseThrow();
        assertThat(byDefault.option()).isEqualTo("transactional-id-prefix");
        assertThat(byDefault.value()).isEqualTo("sluice");
        SinkClaim explicit =
                SinkClaim.of(
                                b,
                                Map.of(
                                        "connector", "sluice-kafka",
                                        "delivery-guarantee", "EXACTLY_ONCE",
                                        "transactional-id-prefix", "sluice"))
                        .orElseThrow();
        assertThat(explicit.collidesWith(byDefault)).isTrue();
        assertThat(explicit.conflictWith(byDefault))
                .contains("'transactional-id-prefix' = 'sluice'")
                .contains("cat.db.a")
                .contains("cat.db.b")
                .contains("fence each other's transactions");
        assertThat(
                        SinkClaim.of(
                                b,
                                Map.of(
                                        "connector", "sluice-kafka",
                                        "delivery-guarantee", "at-least-once")))
                .isEmpty();
        assertThat(SinkClaim.of(b, Map.of("connector", "kafka"))).isEmpty();
        SinkClaim rocketMq = SinkClaim.of(a, Map.of("connector", "sluice-rocketmq")).orElseThrow();
        assertThat(rocketMq.collidesWith(byDefault)).as("other broker").isFalse();
    }

    @Test
    void oneExactlyOnceTableTakesOneInsert() {
        create("r", "sluice-rocketmq", "");
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql(insert("r"));
        set.addInsertSql(insert("r") + " WHERE `table` = 'x'");
        assertThatThrownBy(set::attachAsDataStream)
                .hasStackTraceContaining("'producer-group' = 'sluice'")
                .hasStackTraceContaining("combine the INSERTs into one with UNION ALL");
    }

    @Test
    void distinctPrefixesAtLeastOnceAndRepeatedPlansAreAccepted() {
        create("e", "sluice-kafka", ", 'delivery-guarantee' = 'at-least-once'");
        create("f", "sluice-rocketmq", ", 'producer-group' = 'f'");
        create("g", "sluice-rocketmq", ", 'producer-group' = 'g'");
        // Each EXPLAIN is a translation of its own: planning one INSERT twice claims nothing twice.
        tables.explainSql(insert("f"));
        tables.explainSql(insert("f"));
        StreamStatementSet set = tables.createStatementSet();
        set.addInsertSql(insert("e"));
        set.addInsertSql(insert("e") + " WHERE `table` = 'x'");
        set.addInsertSql(insert("f"));
        set.addInsertSql(insert("g"));
        set.attachAsDataStream();
        List<String> sinks =
                env.getStreamGraph().getStreamNodes().stream()
                        .map(StreamNode::getOperatorName)
                        .filter(name -> name.contains("sink"))
                        .collect(Collectors.toList());
        assertThat(sinks).hasSizeGreaterThanOrEqualTo(4);
    }

    private static StreamNode node(StreamGraph graph, String namePrefix) {
        List<StreamNode> nodes =
                graph.getStreamNodes().stream()
                        .filter(n -> n.getOperatorName().startsWith(namePrefix))
                        .collect(Collectors.toList());
        assertThat(nodes).as(namePrefix).hasSize(1);
        return nodes.get(0);
    }
}

package io.sluice.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleUdfStreamOperatorFactory;

import io.sluice.functions.normalize.ChangeNormalizer;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.job.config.JobConfigLoader;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The job graph {@link SluiceJob} builds: which operators share a task, at what parallelism. */
class SluiceJobTest {

    private static final String SOURCE = "Source: MySQL CDC source -> Normalize changes";
    private static final String ROUTE = "Route -> Encode canal-flat";
    private static final String SOURCE_TO_ENCODE = SOURCE + " -> " + ROUTE;
    private static final String OWNERS = "Order statements per partition -> ";

    @Test
    void atTheSourcesParallelismEachSourceSubtaskWritesItsOwnMessages() {
        List<JobVertex> vertices = vertices(4);

        assertThat(names(vertices)).containsExactly(SOURCE_TO_ENCODE + " -> Kafka sink: Writer");
        assertThat(vertices.get(0).getParallelism()).isEqualTo(4);
        assertThat(normalizer(4).hashesKeys()).as("no keyed exchange reads the hash").isFalse();
        assertThat(staysActive("Route", 4)).isFalse();
        assertThat(staysActive("Encode canal-flat", 4)).isFalse();
    }

    @Test
    void anEncoderAtAnotherParallelismIsKeyedAndRowsCarryTheirHash() {
        // The route defaults to the encoder's parallelism: pinned to the source's, it stays
        // chained.
        String[] encodeAt3 = {"--set", "parallelism.route=4", "--set", "parallelism.encode=3"};
        List<JobVertex> vertices = vertices(4, encodeAt3);

        assertThat(names(vertices))
                .containsExactly(
                        SOURCE + " -> Route", "Encode canal-flat", OWNERS + "Kafka sink: Writer");
        assertThat(normalizer(4, encodeAt3).hashesKeys()).isTrue();
        // The encoders are the first step behind a shuffle out of the source.
        assertThat(staysActive("Route", 4, encodeAt3)).isFalse();
        assertThat(staysActive("Encode canal-flat", 4, encodeAt3)).isTrue();
    }

    @Test
    void theJobPassesRecordsByReferenceAndNeverFallsBackToKryo() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        SluiceJob.configure(env, new Configuration());

        assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
        assertThat(env.getConfig().hasGenericTypesDisabled()).isTrue();
        assertThat(env.getCheckpointConfig().isUnalignedCheckpointsEnabled()).isFalse();
    }

    @Test
    void aSinkAtAnotherParallelismIsReachedThroughThePartitionOwners() {
        List<JobVertex> vertices = vertices(4, "--set", "parallelism.sink=2");

        assertThat(names(vertices))
                .containsExactly(SOURCE_TO_ENCODE, OWNERS + "Kafka sink: Writer");
        assertThat(vertices.get(1).getParallelism()).isEqualTo(2);
        // The owners are keyed by topic and partition, not by the row's hash.
        assertThat(normalizer(4, "--set", "parallelism.sink=2").hashesKeys()).isFalse();
    }

    @Test
    void partitionOwnersRefuseAJobWithoutPeriodicWatermarks() {
        Configuration config = config("--set", "parallelism.sink=2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(4);
        SluiceJob.configure(env, config);
        env.getConfig().setAutoWatermarkInterval(0);
        SluiceJob job =
                new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        new DiscardingSink<>(),
                        (PartitionCounts.Factory) () -> null,
                        config);

        assertThatThrownBy(() -> job.build(env))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'pipeline.auto-watermark-interval' is 0 ms")
                .hasMessageContaining("need a positive interval");
    }

    @Test
    void progressMarkersAlwaysWriteThroughOneOwnerPerPartition() {
        List<JobVertex> vertices = vertices(4, "--set", "encode.progress-markers=checkpoint");

        assertThat(names(vertices))
                .containsExactly(SOURCE_TO_ENCODE, OWNERS + "Kafka sink: Writer");
    }

    @Test
    void progressMarkersRefuseRocketMqAndUnalignedCheckpoints() {
        assertThatThrownBy(
                        () ->
                                vertices(
                                        2,
                                        "--set",
                                        "encode.progress-markers=checkpoint",
                                        "--set",
                                        "sink.type=rocketmq",
                                        "--set",
                                        "sink.rocketmq.name-server=127.0.0.1:9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'encode.progress-markers' is 'checkpoint'")
                .hasMessageContaining("Kafka sink only");

        Configuration config = config("--set", "encode.progress-markers=checkpoint");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        SluiceJob.configure(env, config);
        env.getCheckpointConfig().enableUnalignedCheckpoints();
        SluiceJob job =
                new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        new DiscardingSink<>(),
                        (PartitionCounts.Factory) () -> null,
                        config);
        assertThatThrownBy(() -> job.build(env))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs aligned checkpoints")
                .hasMessageContaining("'execution.checkpointing.unaligned.enabled' is true");
    }

    @Test
    void rocketMqKeepsOneWriterPerQueue() {
        List<JobVertex> vertices =
                vertices(
                        4,
                        "--set",
                        "sink.type=rocketmq",
                        "--set",
                        "sink.rocketmq.name-server=127.0.0.1:9");

        assertThat(names(vertices))
                .containsExactly(SOURCE_TO_ENCODE, OWNERS + "RocketMQ sink: Writer");
    }

    @Test
    void aRouteAtAnotherParallelismIsKeyedByTableAndPrimaryKey() {
        List<JobVertex> vertices = vertices(4, "--set", "parallelism.route=3");

        assertThat(names(vertices)).containsExactly(SOURCE, ROUTE, OWNERS + "Kafka sink: Writer");
        assertThat(vertices.get(1).getParallelism()).isEqualTo(3);
        assertThat(normalizer(4, "--set", "parallelism.route=3").hashesKeys()).isTrue();
        // The route is the first step behind a shuffle out of the source.
        assertThat(staysActive("Route", 4, "--set", "parallelism.route=3")).isTrue();
        assertThat(staysActive("Encode canal-flat", 4, "--set", "parallelism.route=3")).isFalse();
    }

    @Test
    void aSourceWithItsOwnParallelismKeepsTheExchange() {
        List<JobVertex> vertices = vertices(2, "--set", "parallelism.source=1");

        assertThat(names(vertices)).containsExactly(SOURCE, ROUTE, OWNERS + "Kafka sink: Writer");
        assertThat(vertices.get(0).getParallelism()).isEqualTo(1);
        assertThat(vertices.get(1).getParallelism()).isEqualTo(2);
        assertThat(normalizer(2, "--set", "parallelism.source=1").hashesKeys()).isTrue();
    }

    private static List<JobVertex> vertices(int parallelism, String... overrides) {
        JobGraph graph = streamGraph(parallelism, overrides).getJobGraph();
        List<JobVertex> vertices = new ArrayList<>();
        graph.getVerticesSortedTopologicallyFromSources().forEach(vertices::add);
        return vertices;
    }

    private static ChangeNormalizer normalizer(int parallelism, String... overrides) {
        return (ChangeNormalizer)
                ((SimpleUdfStreamOperatorFactory<?>)
                                node("Normalize changes", parallelism, overrides)
                                        .getOperatorFactory())
                        .getUserFunction();
    }

    /** Whether the step named {@code name} never reports itself idle. */
    private static boolean staysActive(String name, int parallelism, String... overrides) {
        return ((StatementPathOperator<?, ?>)
                        ((SimpleOperatorFactory<?>)
                                        node(name, parallelism, overrides).getOperatorFactory())
                                .getOperator())
                .staysActive();
    }

    private static StreamNode node(String name, int parallelism, String... overrides) {
        return streamGraph(parallelism, overrides).getStreamNodes().stream()
                .filter(n -> n.getOperatorName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theJobGraphBuildsWithoutReachingTheBrokers() throws Exception {
        // Exactly once into a Kafka that is not there: a broker check or partition-count lookup
        // while the graph is built would fail (after its timeout) instead of returning a graph.
        String nowhere = "127.0.0.1:" + closedLoopbackPort();
        Configuration config =
                config(
                        "--set",
                        "sink.kafka.bootstrap-servers=" + nowhere,
                        "--set",
                        "sink.delivery-guarantee=exactly-once");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        SluiceJob.configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config)
                .build(env);

        JobGraph graph = env.getStreamGraph().getJobGraph();

        assertThat(names(graph.getVerticesSortedTopologicallyFromSources()))
                .singleElement(as(InstanceOfAssertFactories.STRING))
                .startsWith(SOURCE_TO_ENCODE + " -> Kafka sink: Writer");
    }

    /** A loopback port nothing listens on: bound by this test, then released. */
    private static int closedLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static StreamGraph streamGraph(int parallelism, String... overrides) {
        Configuration config = config(overrides);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        SluiceJob.configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        new DiscardingSink<>(),
                        (PartitionCounts.Factory) () -> null,
                        config)
                .build(env);
        return env.getStreamGraph();
    }

    private static Configuration config(String... overrides) {
        List<String> args = new ArrayList<>();
        for (String setting :
                new String[] {
                    "source.hostname=127.0.0.1",
                    "source.password=unused",
                    "source.tables=shop.orders",
                    // No snapshot: nothing connects to a database while the job is planned.
                    "source.startup.mode=latest",
                    "sink.kafka.bootstrap-servers=127.0.0.1:9",
                    "route.default-topic=orders"
                }) {
            args.add("--set");
            args.add(setting);
        }
        args.addAll(List.of(overrides));
        return JobConfigLoader.fromArgs(args.toArray(String[]::new));
    }

    private static List<String> names(List<JobVertex> vertices) {
        return vertices.stream().map(JobVertex::getName).toList();
    }
}

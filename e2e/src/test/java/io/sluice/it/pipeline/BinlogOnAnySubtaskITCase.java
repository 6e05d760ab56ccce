package io.sluice.it.pipeline;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.it.canal.AddedColumnOrder;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobMetrics;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.it.server.Waits;
import io.sluice.it.source.PreferredReaderSource;
import io.sluice.job.SluiceJob;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.tools.bench.BinlogPosition;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements mid-stream when the binlog is read by source subtask 1, not 0, in the shapes with
 * partition owners (Route chained to the source; Route behind the keyed exchange), into Kafka and
 * RocketMQ. The source starts at a binlog position (no snapshot: one split) and its enumerator
 * hears reader 1 first ({@link PreferredReaderSource}), so the binlog lands there, as Flink CDC
 * does whenever reader 1 asks first. After the first statement the TaskManager is killed and the
 * job restores, the binlog back on subtask 1, and more statements follow. Every partition must hold
 * each statement once, in order with the rows, every row exactly once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BinlogOnAnySubtaskITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int KEYS = 30;
    private static final int PARTITIONS = 3;
    private static final int ROUNDS = 4;
    private static final int BINLOG_SUBTASK = 1;

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @ParameterizedTest(name = "{0}: source 2, route {1}, encode {2}, sink {3}")
    @CsvSource({
        "kafka, 2, 2, 3",
        "kafka, 3, 3, 2",
        "rocketmq, 2, 2, 2",
        "rocketmq, 3, 3, 2",
    })
    void statementsFromSubtaskOneReachEveryPartitionOnceInOrder(
            String sink,
            int route,
            int encode,
            int sinkParallelism,
            @InjectMiniCluster MiniCluster cluster,
            @InjectClusterRESTAddress URI rest)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("subtask", null);
        List<String> seed = new ArrayList<>();
        seed.add("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(16), v INT NOT NULL)");
        seed.add("CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(32))");
        for (int id = 1; id <= KEYS; id++) {
            seed.add("INSERT INTO items VALUES (" + id + ", 'k" + id + "', 0)");
        }
        mariaDb.execute(database, seed.toArray(String[]::new));
        BinlogPosition start;
        try (Connection connection = mariaDb.connect(database)) {
            start = BinlogPosition.current(connection);
        }
        Topic topic = Topic.create(sink, sink + "-" + database);

        Configuration config =
                topic.config(
                        mariaDb,
                        database,
                        "source.startup.mode=binlog-position",
                        "source.startup.binlog-file=" + start.file,
                        "source.startup.binlog-position=" + start.position,
                        "format=" + MessageFormat.CANAL_FLAT,
                        "job.checkpoint-interval=500ms",
                        "parallelism.source=2",
                        "parallelism.route=" + route,
                        "parallelism.encode=" + encode,
                        "parallelism.sink=" + sinkParallelism);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        SluiceJob.configure(env, config);
        new SluiceJob(
                        PreferredReaderSource.of(
                                MySqlSourceFactory.changeEventSource(config), BINLOG_SUBTASK),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config)
                .build(env);
        JobClient job = env.executeAsync("binlog-on-subtask-1-" + database);
        try {
            int perRound = KEYS + KEYS / 10;
            mariaDb.execute(database, AddedColumnOrder.round(1, KEYS, "notes"));
            // Flink CDC's binlog reader loads a table's schema when it first meets the table; the
            // first ALTER waits until it has (docs/pipeline.md).
            assertThat(topic.drain(perRound)).hasSize(perRound);
            assertBinlogOnSubtaskOne(rest, job.getJobID());

            mariaDb.execute(database, AddedColumnOrder.round(2, KEYS, "notes"));
            int throughFirstStatement = 2 * perRound + PARTITIONS;
            assertThat(topic.drain(throughFirstStatement)).hasSize(throughFirstStatement);

            // The new TaskManager first, so the restore finds slots at once.
            cluster.startTaskManager();
            cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
            liveTaskManager++;

            for (int version = 3; version <= ROUNDS; version++) {
                mariaDb.execute(database, AddedColumnOrder.round(version, KEYS, "notes"));
            }
            int statements = ROUNDS - 1;
            int expected = ROUNDS * perRound + statements * PARTITIONS;
            Map<Integer, List<Row>> byPartition = topic.drainByPartition(expected);
            assertThat(byPartition).hasSize(PARTITIONS);
            int rows = 0;
            for (Map.Entry<Integer, List<Row>> partition : byPartition.entrySet()) {
                AddedColumnOrder.assertPartition(
                        partition.getKey(), partition.getValue(), statements, 1);
                rows += partition.getValue().size();
            }
            assertThat(rows).as("every row and statement message exactly once").isEqualTo(expected);
            assertThat(byPartition.values().stream().flatMap(List::stream))
                    .filteredOn(row -> row.table.equals("items") && !row.ddl)
                    .extracting(row -> row.data.get("id") + "@" + row.data.get("v"))
                    .doesNotHaveDuplicates()
                    .hasSize(ROUNDS * KEYS);
            assertBinlogOnSubtaskOne(rest, job.getJobID());
        } finally {
            // A job that failed on its own keeps its cause in the test's failure, not the cancel's.
            if (!job.getJobStatus().get(1, TimeUnit.MINUTES).isGloballyTerminalState()) {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
        }
    }

    /** Only source subtask 1 has delivered changes: it reads the binlog. */
    private static void assertBinlogOnSubtaskOne(URI rest, JobID job) {
        Map<Integer, Long> rowsIn = new TreeMap<>();
        Waits.until(
                "rows counted by the source subtask reading the binlog",
                WAIT,
                () -> {
                    rowsIn.clear();
                    rowsIn.putAll(JobMetrics.bySubtask(rest, job, "Normalize", "sluice.rowsIn"));
                    return rowsIn.containsKey(0) && rowsIn.getOrDefault(BINLOG_SUBTASK, 0L) > 0;
                });
        assertThat(rowsIn).as("rows in, by source subtask").containsEntry(0, 0L);
    }

    /** The test's topic on one of the two brokers. */
    private record Topic(String sink, String name) {

        static Topic create(String sink, String name) {
            if (sink.equals("kafka")) {
                KAFKA.server().createTopic(name, PARTITIONS);
            } else {
                ROCKETMQ.server().createTopic(name, PARTITIONS);
            }
            return new Topic(sink, name);
        }

        Configuration config(MariaDbServer mariaDb, String database, String... overrides) {
            String tables = database + "\\..*";
            if (sink.equals("kafka")) {
                return EmbeddedJobs.config(mariaDb, KAFKA.server(), tables, name, overrides);
            }
            List<String> args = new ArrayList<>();
            for (String setting :
                    List.of(
                            "source.hostname=" + mariaDb.host(),
                            "source.port=" + mariaDb.port(),
                            "source.username=" + MariaDbServer.CDC_USER,
                            "source.password=" + MariaDbServer.CDC_PASSWORD,
                            "source.tables=" + tables,
                            "route.default-topic=" + name,
                            "sink.type=rocketmq",
                            "sink.rocketmq.name-server=" + ROCKETMQ.server().nameServerAddress(),
                            "sink.rocketmq.producer-group=" + name)) {
                args.add("--set");
                args.add(setting);
            }
            for (String override : overrides) {
                args.add("--set");
                args.add(override);
            }
            return JobConfigLoader.fromArgs(args.toArray(String[]::new));
        }

        List<Row> drain(int count) {
            return drainByPartition(count).values().stream().flatMap(List::stream).toList();
        }

        Map<Integer, List<Row>> drainByPartition(int count) {
            Map<Integer, List<Row>> byPartition = new TreeMap<>();
            if (sink.equals("kafka")) {
                for (ConsumerRecord<byte[], byte[]> record :
                        KAFKA.server().drainReadCommitted(name, count, WAIT)) {
                    add(byPartition, record.partition(), record.value());
                }
            } else {
                for (MessageExt message : ROCKETMQ.server().drain(name, count, WAIT)) {
                    add(byPartition, message.getQueueId(), message.getBody());
                }
            }
            return byPartition;
        }

        private static void add(Map<Integer, List<Row>> byPartition, int partition, byte[] value) {
            byPartition
                    .computeIfAbsent(partition, p -> new ArrayList<>())
                    .addAll(CanalMessages.decode(MessageFormat.CANAL_FLAT, value));
        }
    }
}

package io.sluice.it.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.ServerDirs;
import io.sluice.tools.cluster.ClusterCommand;
import io.sluice.tools.cluster.FlinkCluster;
import io.sluice.tools.cluster.FlinkRestClient;
import io.sluice.tools.cluster.PrometheusScrape;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shaded job jar on a real standalone Flink session cluster (a JobManager and a TaskManager,
 * each its own JVM, from Maven-resolved Flink jars), driven through Flink's REST API as an operator
 * would: the cluster comes up; the job is submitted and rows flow to Kafka (with the plan's
 * parallelism and the metrics checked on the way); stop-with-savepoint; more changes while the job
 * is down; the job is resubmitted from the savepoint and exactly those changes arrive, once; the
 * cluster goes down and no process is left. The steps run in order and share the cluster.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlinkClusterITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    private static final int ROWS = 20;
    private static final int NEW_ROWS = 5;
    private static final Duration WAIT = Duration.ofMinutes(3);

    private static final String OPERATOR = "flink_taskmanager_job_task_operator_";
    private static final String SLUICE = OPERATOR + "sluice_";

    /**
     * The configured parallelism of each job vertex, by the name its first operator gives it; none
     * is the cluster's default (1), so the plan cannot match by accident.
     */
    private static final Map<String, Integer> PARALLELISM =
            Map.of(
                    "Source: MySQL CDC source", 2,
                    "Route", 3,
                    "Encode ", 2,
                    "Order statements per partition", 2);

    private static FlinkCluster cluster;
    private static String database;
    private static String topic;
    private static String jobId;
    private static String savepoint;

    /** Numbers the note updates, so that none leaves a row as it was (that would log nothing). */
    private static int notes;

    /** The version every row has now. */
    private static int version;

    /** Every change the topic must hold, as "TYPE id@version". */
    private static final List<String> expected = new ArrayList<>();

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void clusterComesUp() {
        int[] ports = FreePorts.distinct(3);
        cluster =
                FlinkCluster.builder()
                        .workDir(ServerDirs.fresh("flink-cluster"))
                        .classpath(BuildOutputs.flinkClasspath())
                        .baseConfig(BuildOutputs.flinkConfigDir())
                        .jvmOptions(BuildOutputs.jvmOptions())
                        .restPort(ports[0])
                        .prometheusPorts(ports[1], ports[2])
                        .taskSlots(4)
                        // The job's config names the password as ${env:...}; it is in no file or
                        // argument.
                        .environment(ClusterJobConfig.PASSWORD_ENV, MariaDbServer.CDC_PASSWORD)
                        .start();

        assertThat(cluster.processes()).hasSize(2).allMatch(ProcessHandle::isAlive);
        JsonNode overview = cluster.rest().overview();
        assertThat(overview.path("taskmanagers").asInt()).isEqualTo(1);
        assertThat(overview.path("slots-total").asInt()).isEqualTo(4);
        assertThat(overview.path("flink-version").asText()).isEqualTo("1.20.3");
        assertThat(cluster.rest().getText("/")).contains("Apache Flink Web Dashboard");
        assertThat(PrometheusScrape.of(cluster.jobManagerPrometheusUrl()).names())
                .contains("flink_jobmanager_numRegisteredTaskManagers");
    }

    @Test
    @Order(2)
    void jobIsSubmittedAndRowsFlowToKafka() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        database = mariaDb.createDatabase("cluster", "ddl/counters.sql");
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
            expected.add("INSERT " + id + "@0");
        }
        topic = "cluster-" + database;
        KAFKA.server().createTopic(topic, 3);

        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(BuildOutputs.jobJar());
        jobId = rest.runJar(jarId, ClusterCommand.ENTRY_CLASS, jobArgs(), null);
        rest.awaitHealthy(jobId, WAIT);
        assertDelivered();

        updateAll(mariaDb, 1);
        assertDelivered();
    }

    @Test
    @Order(3)
    void restPlanShowsTheConfiguredParallelismOfEveryVertex() {
        Map<String, Integer> vertices = cluster.rest().vertexParallelism(jobId);
        assertThat(vertices).hasSize(PARALLELISM.size());
        vertices.forEach(
                (name, parallelism) -> {
                    List<Integer> configured =
                            PARALLELISM.entrySet().stream()
                                    .filter(e -> name.startsWith(e.getKey()))
                                    .map(Map.Entry::getValue)
                                    .collect(Collectors.toList());
                    assertThat(configured)
                            .as("configured parallelism of vertex '%s'", name)
                            .hasSize(1);
                    assertThat(parallelism)
                            .as("parallelism of vertex '%s'", name)
                            .isEqualTo(configured.get(0));
                });
        // The plan the web UI draws says the same, node by node.
        Map<String, Integer> byId = new LinkedHashMap<>();
        for (JsonNode vertex : cluster.rest().get("/jobs/" + jobId).path("vertices")) {
            byId.put(vertex.path("id").asText(), vertex.path("parallelism").asInt());
        }
        JsonNode nodes = cluster.rest().get("/jobs/" + jobId + "/plan").path("plan").path("nodes");
        assertThat(nodes).hasSize(byId.size());
        for (JsonNode node : nodes) {
            assertThat(node.path("parallelism").asInt())
                    .as("plan node '%s'", node.path("description").asText())
                    .isEqualTo(byId.get(node.path("id").asText()));
        }
    }

    @Test
    @Order(4)
    void flinkOperatorMetricsMoveOnPrometheusAndInTheWebUi() {
        assertMoves(
                Map.of(
                        "numRecordsIn of the encoder",
                                s -> s.sum(OPERATOR + "numRecordsIn", "operator_name", "Encode"),
                        "numRecordsOut of the encoder",
                                s -> s.sum(OPERATOR + "numRecordsOut", "operator_name", "Encode")));
        assertWebUiOffers("Encode ", ".numRecordsOut");
    }

    @Test
    @Order(5)
    void sluiceMetricsMoveOnPrometheusAndInTheWebUi() throws InterruptedException {
        // A subtask whose chunks are done reports snapshotting 0 after a quiet spell (10 s): wait
        // for it, with a generous deadline, rather than assume it happened already.
        PrometheusScrape before = PrometheusScrape.of(cluster.taskManagerPrometheusUrl());
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline
                && !before.samples(SLUICE + "snapshotting").isEmpty()
                && before.samples(SLUICE + "snapshotting").stream()
                        .anyMatch(sample -> sample.value() != 0)) {
            Thread.sleep(500);
            before = PrometheusScrape.of(cluster.taskManagerPrometheusUrl());
        }
        List<String> present =
                before.names().stream()
                        .filter(n -> n.contains("sluice"))
                        .collect(Collectors.toList());
        SoftAssertions softly = new SoftAssertions();
        // On the operator normalizing changes, chained to the source.
        softly.assertThat(before.sum(SLUICE + "snapshotRows", "operator_name", "Normalize"))
                .as("snapshotRows (Sluice's metrics on the endpoint: %s)", present)
                .isGreaterThanOrEqualTo(ROWS);
        // What a dashboard shows for the job: 1 while any subtask snapshots, 0 once all are done.
        softly.assertThat(before.samples(SLUICE + "snapshotting"))
                .as("snapshotting, after the snapshot, on every subtask")
                .isNotEmpty()
                .allMatch(s -> s.value() == 0);
        softly.assertThat(before.samples(SLUICE + "lagMs"))
                .as("lagMs")
                .isNotEmpty()
                .allMatch(s -> s.value() >= 0);

        Map<String, ToDoubleFunction<PrometheusScrape>> moving = new LinkedHashMap<>();
        moving.put(
                "rowsIn of the normalizer",
                s -> s.sum(SLUICE + "rowsIn", "operator_name", "Normalize"));
        moving.put(
                "transactions", s -> s.sum(SLUICE + "transactions", "operator_name", "Normalize"));
        moving.put("transactionsPerSecond", s -> s.sum(SLUICE + "transactionsPerSecond"));
        moving.put(
                "rowsIn of the encoder", s -> s.sum(SLUICE + "rowsIn", "operator_name", "Encode"));
        moving.put("messagesOut", s -> s.sum(SLUICE + "messagesOut"));
        moving.put("bytesOut", s -> s.sum(SLUICE + "bytesOut"));
        moving.put("messages of the topic", s -> s.sum(SLUICE + "topic_messages", "topic", topic));
        moving.put("bytes of the topic", s -> s.sum(SLUICE + "topic_bytes", "topic", topic));
        softly.assertThat(stuck(moving)).as("metrics that did not move").isEmpty();

        softly.check(() -> assertWebUiOffers("Source: ", ".sluice.transactions"));
        softly.check(() -> assertWebUiOffers("Encode ", ".sluice.bytesOut"));
        softly.assertAll();
    }

    @Test
    @Order(6)
    void stopWithSavepoint() {
        String target = cluster.workDir().resolve("savepoints").toUri().toString();
        savepoint = cluster.rest().stopWithSavepoint(jobId, target, WAIT);
        cluster.rest().awaitState(jobId, "FINISHED", WAIT);
        assertThat(Path.of(savepoint.replaceFirst("^file:", "")).resolve("_metadata"))
                .isRegularFile();
    }

    @Test
    @Order(7)
    void moreChangesWhileTheJobIsStopped() {
        MariaDbServer mariaDb = MARIADB.server();
        updateAll(mariaDb, 2);
        for (int id = ROWS; id < ROWS + NEW_ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'new')");
            expected.add("INSERT " + id + "@0");
        }
        mariaDb.execute(database, "DELETE FROM counters WHERE id = 0");
        expected.add("DELETE 0@2");
    }

    @Test
    @Order(8)
    void resubmittedFromTheSavepointDeliversExactlyThoseChangesOnce() throws Exception {
        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(BuildOutputs.jobJar());
        jobId = rest.runJar(jarId, ClusterCommand.ENTRY_CLASS, jobArgs(), savepoint);
        rest.awaitAllTasksRunning(jobId, WAIT);
        assertDelivered();
    }

    /**
     * The SQL door's entry point, submitted through REST like the pipeline: a REST submission is
     * detached, so the runner must not wait for the job's result. The password comes from the
     * cluster's environment through {@code ${env:...}}.
     */
    @Test
    @Order(9)
    void sqlRunnerSubmittedThroughRestDeliversToKafka() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String sqlDatabase = mariaDb.createDatabase("clustersql", null);
        mariaDb.execute(
                sqlDatabase,
                "CREATE TABLE users (id INT PRIMARY KEY, name VARCHAR(16))",
                "INSERT INTO users VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        String sqlTopic = sqlDatabase + "_users";
        KAFKA.server().createTopic(sqlTopic, 1);
        Path script = cluster.workDir().resolve(sqlDatabase + ".sql");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "SET 'execution.checkpointing.interval' = '1s';",
                        "CREATE TABLE binlog (",
                        "  change RAW('io.sluice.serializers.event.ChangeEvent',"
                                + " 'ADdpby5zbHVpY2UuZnVuY3Rpb25zLnR5cGVzLkNoYW5nZUV2ZW50U2VyaWFsaXplclNuYXBzaG90AAAAAQAAAAI='),",
                        "  `database` STRING METADATA VIRTUAL,",
                        "  `table` STRING METADATA VIRTUAL",
                        ") WITH (",
                        "  'connector' = 'sluice-mysql',",
                        "  'hostname' = '" + mariaDb.host() + "',",
                        "  'port' = '" + mariaDb.port() + "',",
                        "  'username' = '" + MariaDbServer.CDC_USER + "',",
                        "  'password' = '${env:" + ClusterJobConfig.PASSWORD_ENV + "}',",
                        "  'server-id' = '5480',",
                        "  'tables' = '" + sqlDatabase + ".users'",
                        ");",
                        "CREATE TABLE mq (topic STRING METADATA) WITH (",
                        "  'connector' = 'sluice-kafka',",
                        "  'bootstrap-servers' = '" + KAFKA.server().bootstrapServers() + "',",
                        "  'format' = 'canal-flat',",
                        "  'transactional-id-prefix' = '" + sqlTopic + "'",
                        ") LIKE binlog (EXCLUDING ALL);",
                        "INSERT INTO mq SELECT change, CONCAT(`database`, '_', `table`) FROM binlog;",
                        ""),
                StandardCharsets.UTF_8);

        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(BuildOutputs.jobJar());
        String sqlJob =
                rest.runJar(
                        jarId, "io.sluice.job.SluiceSqlRunner", List.of(script.toString()), null);
        rest.awaitAllTasksRunning(sqlJob, WAIT);
        assertThat(KAFKA.server().drainReadCommitted(sqlTopic, 3, WAIT)).hasSize(3);
        rest.cancel(sqlJob);
        rest.awaitState(sqlJob, "CANCELED", WAIT);
    }

    @Test
    @Order(10)
    void aJobThatCannotReadIsReportedAsSuchNotAsRunning() throws Exception {
        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(BuildOutputs.jobJar());
        List<String> args = new ArrayList<>(jobArgs());
        args.addAll(
                List.of(
                        "--set", "source.startup.mode=binlog-position",
                        "--set", "source.startup.binlog-file=mysql-bin.000999",
                        "--set", "source.startup.binlog-position=4",
                        "--set", "sink.transactional-id-prefix=" + topic + "-purged"));
        String failing = rest.runJar(jarId, ClusterCommand.ENTRY_CLASS, args, null);

        assertThatThrownBy(() -> rest.awaitHealthy(failing, WAIT))
                .hasMessageContaining("Job " + failing + " is not running healthily")
                .hasMessageContaining("is FAILED")
                .hasMessageContaining("it failed 1 time(s)")
                .hasMessageContaining("names 'mysql-bin.000999', which the server");
    }

    @Test
    @Order(11)
    void clusterGoesDownAndNoProcessIsLeft() throws IOException {
        List<ProcessHandle> processes = cluster.processes();
        // The leftover search finds the cluster's JVMs while they run, so its empty answer counts.
        assertThat(FlinkCluster.leftoverProcesses(cluster.workDir()))
                .extracting(ProcessHandle::pid)
                .containsExactlyInAnyOrderElementsOf(
                        processes.stream().map(ProcessHandle::pid).collect(Collectors.toList()));
        cluster.close();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(FlinkCluster.leftoverProcesses(cluster.workDir())).isEmpty();
        // The database password reached the job through the environment and was never logged.
        try (Stream<Path> logs = Files.list(cluster.logDir())) {
            List<Path> files = logs.collect(Collectors.toList());
            assertThat(files)
                    .extracting(f -> f.getFileName().toString())
                    .contains("jobmanager.log", "taskmanager.log");
            for (Path log : files) {
                String text = Files.readString(log, StandardCharsets.UTF_8);
                if (log.toString().endsWith(".log")) {
                    assertThat(text).as("log %s", log).contains("sluice-cluster-it");
                }
                assertThat(text).as("log %s", log).doesNotContain(MariaDbServer.CDC_PASSWORD);
            }
        }
    }

    private static List<String> jobArgs() throws IOException {
        Path config =
                ClusterJobConfig.write(
                        cluster.workDir().resolve("sluice-" + database + ".yaml"),
                        "sluice-cluster-it",
                        "2 s",
                        MARIADB.server(),
                        database,
                        topic,
                        KAFKA.server().bootstrapServers(),
                        topic,
                        new int[] {2, 3, 2, 2},
                        List.of());
        return List.of("--config", config.toString());
    }

    private static void updateAll(MariaDbServer mariaDb, int newVersion) {
        version = newVersion;
        String[] updates = new String[ROWS];
        for (int id = 0; id < ROWS; id++) {
            updates[id] = "UPDATE counters SET version = " + version + " WHERE id = " + id;
            expected.add("UPDATE " + id + "@" + version);
        }
        mariaDb.execute(database, updates);
    }

    /**
     * The topic holds exactly {@link #expected} under read_committed: nothing lost, nothing twice.
     */
    private static void assertDelivered() {
        List<ConsumerRecord<byte[], byte[]>> records =
                KAFKA.server().drainReadCommitted(topic, expected.size(), WAIT);
        List<String> seen = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            FlatMessage message = JSON.parseObject(record.value(), FlatMessage.class);
            for (Map<String, String> row : message.getData()) {
                seen.add(message.getType() + " " + row.get("id") + "@" + row.get("version"));
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Each metric's value grows while rows keep changing (an update a second). */
    private static void assertMoves(Map<String, ToDoubleFunction<PrometheusScrape>> metrics) {
        assertThat(stuck(metrics)).as("metrics that did not move").isEmpty();
    }

    /**
     * Changes a row a second until every metric's value grew or {@link #WAIT} passed; returns those
     * that did not grow, with their values before and after.
     */
    private static List<String> stuck(Map<String, ToDoubleFunction<PrometheusScrape>> metrics) {
        PrometheusScrape first = PrometheusScrape.of(cluster.taskManagerPrometheusUrl());
        Map<String, Double> start = new LinkedHashMap<>();
        metrics.forEach((name, value) -> start.put(name, value.applyAsDouble(first)));
        Map<String, Double> last = new LinkedHashMap<>(start);
        long deadline = System.nanoTime() + WAIT.toNanos();
        int round = 0;
        while (metrics.keySet().stream().anyMatch(name -> last.get(name) <= start.get(name))
                && System.nanoTime() < deadline) {
            int id = round++ % ROWS;
            MARIADB.server()
                    .execute(
                            database,
                            "UPDATE counters SET note = 'm" + ++notes + "' WHERE id = " + id);
            // A change like any other: the topic must hold it too (the note is not compared).
            expected.add("UPDATE " + id + "@" + version);
            sleep(Duration.ofSeconds(1));
            PrometheusScrape now = PrometheusScrape.of(cluster.taskManagerPrometheusUrl());
            metrics.forEach((name, value) -> last.put(name, value.applyAsDouble(now)));
        }
        return metrics.keySet().stream()
                .filter(name -> last.get(name) <= start.get(name))
                .map(name -> name + " stayed at " + last.get(name) + " from " + start.get(name))
                .collect(Collectors.toList());
    }

    /**
     * The web UI's metrics tab for the vertex whose name starts with {@code vertexPrefix} offers a
     * metric id ending in {@code suffix}. The web UI fetches metrics from the TaskManagers in the
     * background (every 10 s by default), so the list fills after a while.
     */
    private static void assertWebUiOffers(String vertexPrefix, String suffix) {
        String vertexId =
                cluster.rest().vertexIds(jobId).entrySet().stream()
                        .filter(e -> e.getKey().startsWith(vertexPrefix))
                        .map(Map.Entry::getValue)
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("No vertex named " + vertexPrefix));
        String path = "/jobs/" + jobId + "/vertices/" + vertexId + "/metrics";
        List<String> ids = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (ids.stream().noneMatch(id -> id.endsWith(suffix)) && System.nanoTime() < deadline) {
            sleep(Duration.ofSeconds(1));
            ids.clear();
            cluster.rest().get(path).forEach(metric -> ids.add(metric.path("id").asText()));
        }
        assertThat(ids).as("metric ids of %s", path).anyMatch(id -> id.endsWith(suffix));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

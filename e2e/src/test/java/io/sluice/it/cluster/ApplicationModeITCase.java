package io.sluice.it.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.ServerDirs;
import io.sluice.it.server.Waits;
import io.sluice.tools.cluster.ClusterCommand;
import io.sluice.tools.cluster.FlinkCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded job jar, unchanged, in Flink's standalone application mode, laid out as the image in
 * {@code k8s/Dockerfile} lays it out: {@code usrlib/sluice-job.jar} with the project's {@code
 * conf/} and {@code sql/} beside it, and a JobManager ({@code
 * StandaloneApplicationClusterEntryPoint}, what {@code standalone-job.sh} runs) that starts {@code
 * SluiceJob --config conf/sluice.yaml} from there, as {@code k8s/flink-deployment.yaml} does. In
 * order: the application runs and rows reach Kafka; stop-with-savepoint ends the job and with it
 * the JobManager's process; changes while it is down; a new application from the savepoint delivers
 * exactly those changes, once; nothing is left running.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApplicationModeITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    private static final int ROWS = 10;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String PASSWORD_ENV = "SLUICE_SOURCE_PASSWORD";

    private static FlinkCluster cluster;
    private static Path userLib;
    private static String database;
    private static String topic;
    private static String jobId;
    private static Path savepoint;

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
    void applicationRunsTheJarFromUsrlibAndRowsReachKafka() throws IOException {
        MariaDbServer mariaDb = MARIADB.server();
        database = mariaDb.createDatabase("application", "ddl/counters.sql");
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
            expected.add("INSERT " + id + "@0");
        }
        topic = "application-" + database;
        KAFKA.server().createTopic(topic, 2);
        userLib = imageLayout();

        cluster = start("flink-application", null);
        JsonNode job = theOnlyJob();
        assertThat(job.path("name").asText()).isEqualTo("sluice-application-it");
        jobId = job.path("jid").asText();
        cluster.rest().awaitAllTasksRunning(jobId, WAIT);
        // The shipped conf/sluice.yaml, found beside the jar: every stage's parallelism is its 2.
        assertThat(cluster.rest().vertexParallelism(jobId).values()).isNotEmpty().containsOnly(2);
        assertDelivered();

        update(1);
        assertDelivered();
    }

    @Test
    @Order(2)
    void stopWithSavepointEndsTheApplication() throws IOException {
        Path savepoints = cluster.workDir().resolve("savepoints");
        cluster.rest().triggerStopWithSavepoint(jobId, savepoints.toUri().toString());
        // The job finishes, and with it the application (the cluster then shuts down, so the
        // savepoint is found on disk rather than asked of the REST API).
        Path log = cluster.logDir().resolve("jobmanager.log");
        Waits.until(
                "the application to complete (" + log + ")",
                WAIT,
                () -> Files.readString(log).contains("Application completed SUCCESSFULLY"));
        try (Stream<Path> dirs = Files.list(savepoints)) {
            List<Path> found = dirs.collect(Collectors.toList());
            assertThat(found).hasSize(1);
            savepoint = found.get(0);
        }
        assertThat(savepoint.resolve("_metadata")).isRegularFile();
        assertThat(Files.readString(log))
                .contains("StandaloneApplicationClusterEntryPoint")
                .contains(
                        "Job sluice-application-it ("
                                + jobId
                                + ") switched from state RUNNING to FINISHED")
                .doesNotContain(MariaDbServer.CDC_PASSWORD);

        List<ProcessHandle> processes = cluster.processes();
        cluster.close();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(FlinkCluster.leftoverProcesses(cluster.workDir())).isEmpty();
    }

    @Test
    @Order(3)
    void changesWhileTheApplicationIsDown() {
        update(2);
        MARIADB.server().execute(database, "DELETE FROM counters WHERE id = 0");
        expected.add("DELETE 0@2");
    }

    @Test
    @Order(4)
    void aNewApplicationFromTheSavepointDeliversExactlyThoseChangesOnce() throws IOException {
        cluster = start("flink-application-restored", savepoint.toUri().toString());
        cluster.rest().awaitAllTasksRunning(theOnlyJob().path("jid").asText(), WAIT);
        assertDelivered();

        List<ProcessHandle> processes = cluster.processes();
        assertThat(processes).hasSize(2);
        cluster.close();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThat(FlinkCluster.leftoverProcesses(cluster.workDir())).isEmpty();
        try (Stream<Path> logs = Files.list(cluster.logDir())) {
            for (Path log : logs.collect(Collectors.toList())) {
                assertThat(Files.readString(log))
                        .as("log %s", log)
                        .doesNotContain(MariaDbServer.CDC_PASSWORD);
            }
        }
    }

    /** The application's job, once its main (run by the JobManager) has submitted it. */
    private static JsonNode theOnlyJob() {
        Waits.until(
                "the application's job on " + cluster.restUrl(),
                WAIT,
                () -> !cluster.rest().get("/jobs/overview").path("jobs").isEmpty());
        JsonNode jobs = cluster.rest().get("/jobs/overview").path("jobs");
        assertThat(jobs).hasSize(1);
        return jobs.get(0);
    }

    /** What the image holds in /opt/flink/usrlib: the jar, conf/ and sql/. */
    private static Path imageLayout() throws IOException {
        Path dir = ServerDirs.fresh("flink-application-usrlib");
        Files.copy(BuildOutputs.jobJar(), dir.resolve("sluice-job.jar"));
        copyTree(BuildOutputs.root().resolve("conf"), dir.resolve("conf"));
        copyTree(BuildOutputs.root().resolve("sql"), dir.resolve("sql"));
        return dir;
    }

    private static FlinkCluster start(String name, String fromSavepoint) {
        MariaDbServer mariaDb = MARIADB.server();
        int[] ports = FreePorts.distinct(3);
        // Relative, as the JobManager's working dir does not hold it: found beside the jar.
        List<String> args =
                List.of(
                        "--config",
                        "conf/sluice.yaml",
                        "--set",
                        "job.name=sluice-application-it",
                        "--set",
                        "job.checkpoint-interval=2 s",
                        "--set",
                        "source.hostname=" + mariaDb.host(),
                        "--set",
                        "source.port=" + mariaDb.port(),
                        "--set",
                        "source.username=" + MariaDbServer.CDC_USER,
                        "--set",
                        "source.tables=" + database + ".counters",
                        "--set",
                        "route.default-topic=" + topic,
                        "--set",
                        "sink.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
                        "--set",
                        "sink.transactional-id-prefix=" + topic);
        FlinkCluster.Builder builder =
                FlinkCluster.builder()
                        .workDir(ServerDirs.fresh(name))
                        .classpath(BuildOutputs.flinkClasspath())
                        .baseConfig(BuildOutputs.flinkConfigDir())
                        .jvmOptions(BuildOutputs.jvmOptions())
                        .restPort(ports[0])
                        .prometheusPorts(ports[1], ports[2])
                        .taskSlots(4)
                        // conf/sluice.yaml names the password as ${env:SLUICE_SOURCE_PASSWORD}.
                        .environment(PASSWORD_ENV, MariaDbServer.CDC_PASSWORD)
                        .application(userLib, ClusterCommand.ENTRY_CLASS, args);
        if (fromSavepoint != null) {
            builder.fromSavepoint(fromSavepoint);
        }
        return builder.start();
    }

    private static void update(int version) {
        String[] updates = new String[ROWS];
        for (int id = 0; id < ROWS; id++) {
            updates[id] = "UPDATE counters SET version = " + version + " WHERE id = " + id;
            expected.add("UPDATE " + id + "@" + version);
        }
        MARIADB.server().execute(database, updates);
    }

    /** The topic holds exactly {@link #expected} under read_committed. */
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

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }
}

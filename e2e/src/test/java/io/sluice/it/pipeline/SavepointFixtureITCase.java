package io.sluice.it.pipeline;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.SqlScript;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sluice.it.pipeline.CounterChanges.assertPerKeyOrder;
import static io.sluice.it.pipeline.CounterChanges.change;
import static io.sluice.it.pipeline.CounterChanges.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Restores savepoints that an older Sluice took, kept in {@code
 * src/test/resources/savepoints/<shape>/} with the binlog position they hold ({@code
 * fixture.properties}). Each shape runs on its own fresh MariaDB that replays the statements the
 * fixture was taken after, so the server's binlog is byte for byte the one the savepoint points
 * into (checked before the restore). The topic is new and empty: after the restore it must hold
 * exactly the changes made after the savepoint, each once, in per-key order, and nothing from
 * before it (no second snapshot, no replayed binlog).
 *
 * <p>The fixtures were taken with at-least-once delivery: a savepoint of an exactly-once Kafka sink
 * holds transactions of the broker it ran against, which a fresh broker cannot commit. The restored
 * job runs exactly-once.
 *
 * <p>To take the fixtures again (only when a change deliberately breaks savepoint compatibility,
 * which the release notes must then say): run this class with {@code
 * -Dsluice.savepoint-fixture.write=<dir>} and copy {@code <dir>/<shape>} into the resources.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SavepointFixtureITCase {

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final String WRITE_PROPERTY = "sluice.savepoint-fixture.write";
    private static final String DATABASE = "fixture";
    private static final int ROWS = 10;
    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);

    /** Shapes of the job that took the savepoint: chained (2, 2, 2) and keyed (route at 1). */
    private static final Map<String, Integer> ROUTE_PARALLELISM = Map.of("chained", 2, "keyed", 1);

    @ParameterizedTest(name = "savepoint of the {0} shape")
    @ValueSource(strings = {"chained", "keyed"})
    void restoresASavepointOfAnOlderSluice(String shape, @TempDir Path work) throws Exception {
        Path fixture = copyFixture(shape, work.resolve(shape));
        Properties taken = load(fixture.resolve("fixture.properties"));
        try (MariaDbServer mariaDb = MariaDbServer.start()) {
            seed(mariaDb);
            updateBeforeTheSavepoint(mariaDb);
            assertThat(binlogPosition(mariaDb))
                    .as(
                            "the binlog of a fresh test server after the fixture's statements"
                                    + " (the savepoint of %s points into a binlog that ends here;"
                                    + " if the test servers changed, see this class's comment)",
                            taken.getProperty("taken-with"))
                    .isEqualTo(taken.getProperty("binlog"));

            List<String> after = changeWhileStopped(mariaDb);
            String topic = "fixture-" + shape;
            KAFKA.server().createTopic(topic, PARTITIONS);
            Configuration restore = new Configuration();
            SavepointRestoreSettings.toConfiguration(
                    SavepointRestoreSettings.forPath(fixture.toUri().toString(), false), restore);
            JobClient job = start(restore, config(mariaDb, topic, 2), "fixture-restored-" + shape);
            try {
                awaitRunning(job);
                for (int id = 2; id < ROWS + 5; id++) {
                    mariaDb.execute(DATABASE, "UPDATE counters SET version = 3 WHERE id = " + id);
                    after.add(change("UPDATE", id, 3));
                }
                List<Delivered> all =
                        Delivered.drain(
                                KAFKA.server(),
                                topic,
                                MessageFormat.CANAL_FLAT,
                                after.size(),
                                WAIT);
                assertThat(texts(all))
                        .as("changes after the savepoint, each once, nothing from before")
                        .containsExactlyInAnyOrderElementsOf(after);
                assertPerKeyOrder(all, after, DATABASE, PARTITIONS);
            } finally {
                if (!job.getJobStatus().get(1, TimeUnit.MINUTES).isGloballyTerminalState()) {
                    job.cancel().get(1, TimeUnit.MINUTES);
                }
            }
        }
    }

    /** Fails with the job's own error if it cannot start from the savepoint. */
    private static void awaitRunning(JobClient job) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JobStatus status = job.getJobStatus().get(1, TimeUnit.MINUTES);
        while (status != JobStatus.RUNNING && System.nanoTime() < deadline) {
            if (status.isGloballyTerminalState()) {
                try {
                    job.getJobExecutionResult().get(1, TimeUnit.MINUTES);
                } catch (ExecutionException e) {
                    throw new AssertionError("The job did not restore the savepoint", e);
                }
            }
            Thread.sleep(100);
            status = job.getJobStatus().get(1, TimeUnit.MINUTES);
        }
        assertThat(status).as("the restored job's status").isEqualTo(JobStatus.RUNNING);
    }

    /** Takes the fixtures with the code of this checkout; see the class comment. */
    @ParameterizedTest(name = "write the {0} fixture")
    @ValueSource(strings = {"chained", "keyed"})
    @EnabledIfSystemProperty(named = WRITE_PROPERTY, matches = ".+")
    void writeFixture(String shape) throws Exception {
        Path target = Paths.get(System.getProperty(WRITE_PROPERTY)).resolve(shape);
        Files.createDirectories(target);
        try (MariaDbServer mariaDb = MariaDbServer.start()) {
            seed(mariaDb);
            String topic = "fixture-first-" + shape;
            KAFKA.server().createTopic(topic, PARTITIONS);
            JobClient first =
                    start(
                            new Configuration(),
                            config(
                                    mariaDb,
                                    topic,
                                    ROUTE_PARALLELISM.get(shape),
                                    "sink.delivery-guarantee=at-least-once"),
                            "fixture-first-" + shape);
            String savepoint;
            try {
                assertThat(KAFKA.server().drainReadCommitted(topic, ROWS, WAIT)).hasSize(ROWS);
                updateBeforeTheSavepoint(mariaDb);
                assertThat(KAFKA.server().drainReadCommitted(topic, 2 * ROWS, WAIT))
                        .hasSize(2 * ROWS);
                savepoint =
                        first.stopWithSavepoint(
                                        false,
                                        target.getParent()
                                                .resolve(shape + "-raw")
                                                .toUri()
                                                .toString(),
                                        SavepointFormatType.CANONICAL)
                                .get(2, TimeUnit.MINUTES);
            } catch (Exception | AssertionError e) {
                first.cancel().get(1, TimeUnit.MINUTES);
                throw e;
            }
            assertThat(first.getJobStatus().get(1, TimeUnit.MINUTES)).isEqualTo(JobStatus.FINISHED);
            copyTree(Paths.get(new java.net.URI(savepoint)), target);
            Properties taken = new Properties();
            taken.setProperty("binlog", binlogPosition(mariaDb));
            taken.setProperty("taken-with", System.getProperty("sluice.commit", "unknown commit"));
            taken.setProperty("route-parallelism", ROUTE_PARALLELISM.get(shape).toString());
            try (OutputStream out = Files.newOutputStream(target.resolve("fixture.properties"))) {
                taken.store(out, "Savepoint fixture: see SavepointFixtureITCase");
            }
        }
    }

    /*
     * The statements before the savepoint are always the same ones on a fresh server, so its
     * binlog is the same bytes: the seed (read by the first job's snapshot), then updates (read
     * from its binlog).
     */
    private static void seed(MariaDbServer mariaDb) {
        mariaDb.execute(null, "CREATE DATABASE `" + DATABASE + "`");
        mariaDb.execute(DATABASE, SqlScript.statements("ddl/counters.sql").toArray(String[]::new));
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(DATABASE, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
        }
    }

    private static void updateBeforeTheSavepoint(MariaDbServer mariaDb) {
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(DATABASE, "UPDATE counters SET version = 1 WHERE id = " + id);
        }
    }

    private static List<String> changeWhileStopped(MariaDbServer mariaDb) {
        List<String> after = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(DATABASE, "UPDATE counters SET version = 2 WHERE id = " + id);
            after.add(change("UPDATE", id, 2));
        }
        for (int id = ROWS; id < ROWS + 5; id++) {
            mariaDb.execute(DATABASE, "INSERT INTO counters VALUES (" + id + ", 2, 'new')");
            after.add(change("INSERT", id, 2));
        }
        mariaDb.execute(DATABASE, "DELETE FROM counters WHERE id IN (0, 1)");
        after.add(change("DELETE", 0, 2));
        after.add(change("DELETE", 1, 2));
        return after;
    }

    private static Configuration config(
            MariaDbServer mariaDb, String topic, int routeParallelism, String... overrides) {
        List<String> settings = new ArrayList<>();
        settings.add("job.checkpoint-interval=1s");
        settings.add("parallelism.source=2");
        settings.add("parallelism.route=" + routeParallelism);
        settings.add("parallelism.encode=" + routeParallelism);
        settings.add("parallelism.sink=2");
        settings.addAll(List.of(overrides));
        return EmbeddedJobs.config(
                mariaDb,
                KAFKA.server(),
                DATABASE + ".counters",
                topic,
                settings.toArray(new String[0]));
    }

    private static JobClient start(Configuration envConfig, Configuration config, String name)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(envConfig);
        env.setParallelism(2);
        return EmbeddedJobs.start(env, config, name);
    }

    /** {@code file:position} of the server's current binlog. */
    private static String binlogPosition(MariaDbServer mariaDb) throws SQLException {
        try (Connection connection = mariaDb.connect(null);
                Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
            assertThat(status.next()).as("SHOW MASTER STATUS has a row").isTrue();
            return status.getString(1) + ":" + status.getLong(2);
        }
    }

    private static Path copyFixture(String shape, Path target) throws IOException {
        String resource = "savepoints/" + shape + "/fixture.properties";
        URL url = SavepointFixtureITCase.class.getClassLoader().getResource(resource);
        assertThat(url).as("the savepoint fixture %s on the test classpath", resource).isNotNull();
        try {
            copyTree(Paths.get(url.toURI()).getParent(), target);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return target;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path copy = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        return properties;
    }
}

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
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.pipeline.CounterChanges.assertPerKeyOrder;
import static io.sluice.it.pipeline.CounterChanges.change;
import static io.sluice.it.pipeline.CounterChanges.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stop-with-savepoint and restore: everything before the savepoint is committed when the job stops;
 * changes made while it is stopped and after the restore arrive exactly once; nothing from before
 * the savepoint is written again (no second snapshot, no replayed binlog). The restored job is one
 * chained task per source subtask, at parallelism 2. The first job has that shape too; or routes at
 * parallelism 1 behind a keyed exchange and writes through the partition owners, so a savepoint of
 * that shape (and of Sluice before the chained shape) restores into it; or runs everything at
 * parallelism 1 (scaling up); or writes with 3 sink subtasks (scaling the sink down: the savepoint
 * holds the state of more writers than the restored job has).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SavepointRestoreITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int ROWS = 10;
    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);

    @ParameterizedTest(name = "first job: source {0}, route and encode {1}, sink {2}")
    @CsvSource({"2, 2, 2", "2, 1, 2", "1, 1, 1", "2, 2, 3"})
    void restoredJobWritesExactlyTheChangesAfterTheSavepoint(
            int firstSource, int firstRoute, int firstSink, @TempDir Path savepoints)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("savepoint", "ddl/counters.sql");
        List<String> before = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
            before.add(change("INSERT", id, 0));
        }
        String topic = "savepoint-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "parallelism.source=2",
                        "parallelism.encode=2",
                        "parallelism.sink=2");

        Configuration firstConfig = new Configuration(config);
        firstConfig.setString("parallelism.source", Integer.toString(firstSource));
        firstConfig.setString("parallelism.route", Integer.toString(firstRoute));
        firstConfig.setString("parallelism.encode", Integer.toString(firstRoute));
        firstConfig.setString("parallelism.sink", Integer.toString(firstSink));
        JobClient first = start(new Configuration(), firstConfig, "savepoint-first-" + database);
        String savepoint;
        try {
            assertThat(KAFKA.server().drainReadCommitted(topic, ROWS, WAIT)).hasSize(ROWS);
            for (int id = 0; id < ROWS; id++) {
                mariaDb.execute(database, "UPDATE counters SET version = 1 WHERE id = " + id);
                before.add(change("UPDATE", id, 1));
            }
            assertThat(KAFKA.server().drainReadCommitted(topic, 2 * ROWS, WAIT)).hasSize(2 * ROWS);
            savepoint =
                    first.stopWithSavepoint(
                                    false,
                                    savepoints.toUri().toString(),
                                    SavepointFormatType.DEFAULT)
                            .get(2, TimeUnit.MINUTES);
        } catch (Exception | AssertionError e) {
            first.cancel().get(1, TimeUnit.MINUTES);
            throw e;
        }
        assertThat(first.getJobStatus().get(1, TimeUnit.MINUTES)).isEqualTo(JobStatus.FINISHED);
        List<Delivered> atStop = drainAll(topic);
        assertThat(texts(atStop)).containsExactlyInAnyOrderElementsOf(before);

        // While the job is stopped.
        List<String> after = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "UPDATE counters SET version = 2 WHERE id = " + id);
            after.add(change("UPDATE", id, 2));
        }
        for (int id = ROWS; id < ROWS + 5; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 2, 'new')");
            after.add(change("INSERT", id, 2));
        }
        mariaDb.execute(database, "DELETE FROM counters WHERE id IN (0, 1)");
        after.add(change("DELETE", 0, 2));
        after.add(change("DELETE", 1, 2));

        Configuration restore = new Configuration();
        SavepointRestoreSettings.toConfiguration(
                SavepointRestoreSettings.forPath(savepoint, false), restore);
        JobClient second = start(restore, config, "savepoint-restored-" + database);
        try {
            for (int id = 2; id < ROWS + 5; id++) {
                mariaDb.execute(database, "UPDATE counters SET version = 3 WHERE id = " + id);
                after.add(change("UPDATE", id, 3));
            }
            List<Delivered> all =
                    Delivered.drain(
                            KAFKA.server(),
                            topic,
                            MessageFormat.CANAL_FLAT,
                            before.size() + after.size(),
                            WAIT);

            // What was there at the stop is unchanged; everything new is exactly the changes
            // made after the savepoint.
            Set<String> old = new HashSet<>();
            atStop.forEach(row -> old.add(row.partition + "@" + row.offset));
            List<Delivered> fresh = new ArrayList<>();
            for (Delivered row : all) {
                if (!old.contains(row.partition + "@" + row.offset)) {
                    fresh.add(row);
                }
            }
            assertThat(all).hasSize(atStop.size() + fresh.size());
            assertThat(texts(fresh))
                    .as("changes after the savepoint, each once, nothing from before")
                    .containsExactlyInAnyOrderElementsOf(after);

            // Per key, in its partition: the binlog order (the lists above are in that order).
            List<String> everything = new ArrayList<>(before);
            everything.addAll(after);
            assertPerKeyOrder(all, everything, database, PARTITIONS);
        } finally {
            second.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static JobClient start(Configuration envConfig, Configuration config, String name)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(envConfig);
        env.setParallelism(2);
        return EmbeddedJobs.start(env, config, name);
    }

    /** Everything committed in the topic now, read until it stays quiet for 2 s. */
    private static List<Delivered> drainAll(String topic) {
        return Delivered.decode(
                KAFKA.server().drainReadCommitted(topic, Duration.ofSeconds(2)),
                MessageFormat.CANAL_FLAT);
    }
}

package io.sluice.it.source;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.pipeline.Delivered;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code source.stall-timeout} on a real job: a snapshot chunk whose query cannot run (its table
 * locked) fails the source with the split named, and the job, restarted, delivers every row once
 * after the lock is gone; an idle database in the binlog phase, kept alive by heartbeats, is not
 * taken for a stall, with either reader. On MariaDB 11.4; the idle binlog with Sluice's reader on
 * MySQL 8.0 too, whose heartbeat events the reader reads itself (the snapshot and Flink CDC's
 * reader are the same code on both servers).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SourceStallITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String STALL_TIMEOUT = "3s";
    private static final String HEARTBEAT = "1s";

    /** With either reader: the snapshot is Flink CDC's in both, inside Sluice's stall watch. */
    @ParameterizedTest(name = "source.reader={0}")
    @ValueSource(strings = {"flink-cdc", "sluice"})
    void aBlockedChunkFailsTheSourceNamingItsSplitThenEveryRowArrivesOnce(
            String reader, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer mariaDb = SERVERS.mariaDb();
        int rows = 2_000;
        String database = seeded(mariaDb, "stalled_" + reader.replace('-', '_'), rows);
        String topic = "stalled-" + database;
        KAFKA.server().createTopic(topic, 1);
        JobClient job = start(mariaDb, database, topic, "source.reader=" + reader);
        try (Connection root = mariaDb.connect(database);
                Statement lock = root.createStatement()) {
            // Two hundred chunks of ten rows, each a query and a binlog backfill, take seconds
            // (twenty of a hundred went by before the first rows were out): once the first rows
            // are out, a later chunk's query meets the lock and waits for it, and so does the
            // source reader.
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (KAFKA.server().count(topic, "read_uncommitted", Duration.ofMillis(100)) == 0) {
                assertThat(System.nanoTime()).as("first snapshot rows").isLessThan(deadline);
            }
            lock.execute("LOCK TABLES counters WRITE");
            // Held for several timeouts; the failed task's cleanup waits for the query, so the
            // failure shows in the job's history once the lock is gone.
            Thread.sleep(Duration.parse("PT" + STALL_TIMEOUT).multipliedBy(4).toMillis());
            lock.execute("UNLOCK TABLES");
        }

        List<String> ids = new ArrayList<>();
        for (Delivered row :
                Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, rows, WAIT)) {
            ids.add(row.row.type + " " + row.get("id"));
        }
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < rows; id++) {
            expected.add("INSERT " + id);
        }
        assertThat(ids).as("every snapshot row once").containsExactlyInAnyOrderElementsOf(expected);

        JobExceptions exceptions = JobExceptions.of(rest, job.getJobID());
        assertThat(exceptions.failures()).as("failed, then restarted").isPositive();
        assertThat(exceptions.rootException())
                .contains("SourceStalledException")
                .containsPattern("read nothing from its splits \\[" + database + "\\.counters:\\d+")
                .contains("'source.stall-timeout' = PT3S");
        EmbeddedJobs.cancel(job);
    }

    @Test
    void anIdleDatabaseKeptAliveByHeartbeatsIsNotAStall(@InjectClusterRESTAddress URI rest)
            throws Exception {
        DatabaseServer mariaDb = SERVERS.mariaDb();
        String database = seeded(mariaDb, "idle", 10);
        String topic = "idle-" + database;
        KAFKA.server().createTopic(topic, 1);
        JobClient job = start(mariaDb, database, topic);
        try {
            assertThat(Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, 10, WAIT))
                    .as("the snapshot")
                    .hasSize(10);
            staysAliveWhileIdle(rest, job, mariaDb, database, topic, 10);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * The same with Sluice's binlog reader ({@code source.reader: sluice}), from the binlog, on
     * both servers: MariaDB's and MySQL's heartbeat events keep the stall watch quiet.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void anIdleDatabaseIsNotAStallForSluicesReader(
            DatabaseServer.Kind kind, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = seeded(server, "idle_sluice", 10);
        String[] end = server.binlogEnd();
        String topic = "idle-" + database;
        KAFKA.server().createTopic(topic, 1);
        JobClient job =
                start(
                        server,
                        database,
                        topic,
                        "source.reader=sluice",
                        "source.startup.mode=binlog-position",
                        "source.startup.binlog-file=" + end[0],
                        "source.startup.binlog-position=" + end[1]);
        try {
            staysAliveWhileIdle(rest, job, server, database, topic, 0);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * A change, several stall timeouts without any, then another: both delivered after the {@code
     * delivered} messages already out, and the job never failed.
     */
    private static void staysAliveWhileIdle(
            URI rest,
            JobClient job,
            DatabaseServer server,
            String database,
            String topic,
            int delivered)
            throws Exception {
        server.execute(database, "UPDATE counters SET version = 1 WHERE id = 0");
        assertThat(
                        Delivered.drain(
                                KAFKA.server(),
                                topic,
                                MessageFormat.CANAL_FLAT,
                                delivered + 1,
                                WAIT))
                .as("a first binlog change")
                .hasSize(delivered + 1);

        // Idle for several stall timeouts: only the server's heartbeats show the source alive.
        Thread.sleep(Duration.parse("PT" + STALL_TIMEOUT).multipliedBy(5).toMillis());
        server.execute(database, "UPDATE counters SET version = 2 WHERE id = 0");
        assertThat(
                        Delivered.drain(
                                KAFKA.server(),
                                topic,
                                MessageFormat.CANAL_FLAT,
                                delivered + 2,
                                WAIT))
                .hasSize(delivered + 2);

        assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                .as("never failed while idle")
                .isZero();
    }

    private static String seeded(DatabaseServer server, String prefix, int rows) {
        String database = server.createDatabase(prefix, "ddl/counters.sql");
        StringBuilder insert = new StringBuilder();
        for (int id = 0; id < rows; id++) {
            insert.append(insert.length() == 0 ? "INSERT INTO counters VALUES " : ", ");
            insert.append("(").append(id).append(", 0, 'seed')");
            if (insert.length() > 8_000 || id == rows - 1) {
                server.execute(database, insert.toString());
                insert.setLength(0);
            }
        }
        return database;
    }

    private static JobClient start(
            DatabaseServer server, String database, String topic, String... overrides)
            throws Exception {
        List<String> settings =
                new ArrayList<>(
                        List.of(
                                "job.checkpoint-interval=1s",
                                "source.snapshot.chunk-size=10",
                                "source.stall-timeout=" + STALL_TIMEOUT,
                                "source.heartbeat-interval=" + HEARTBEAT,
                                "parallelism.source=1",
                                "parallelism.encode=1",
                                "parallelism.sink=1"));
        settings.addAll(List.of(overrides));
        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        settings.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return EmbeddedJobs.start(env, config, "source-stall-" + database);
    }
}

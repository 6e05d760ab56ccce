package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobMetrics;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a heartbeat table, the lag stays small while the captured tables are idle: heartbeat rows
 * travel the binlog like any change, move the lag's binlog time and never reach Kafka. Without
 * them, lag would be at least the idle time, so the wait below could never end. On MariaDB 11.4 and
 * on MySQL 8.0 (GTIDs on, the heartbeat rows' transactions GTIDs of their own).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HeartbeatLagITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    /** The REST metric store fetches every second, not every 10 s: the idle time below is short. */
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(
                    2,
                    Configuration.fromMap(
                            Map.of(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL.key(), "1 s")));

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int ROWS = 5;

    /**
     * Longer than the REST metric store's staleness (1 s) plus the lag allowed below, with room: a
     * lag read after this idle time without heartbeats is at least 9 s.
     */
    private static final long IDLE_MS = 10_000;

    private static final long LAG_BOUND_MS = 5_000;

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void lagStaysSmallWhileTheDatabaseIsIdle(
            DatabaseServer.Kind kind, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("heartbeat", null);
        server.execute(database, "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(16))");
        server.grantCdcWrites(database);
        String topic = "heartbeat-" + database;
        KAFKA.server().createTopic(topic, 1);

        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + "\\.items",
                        topic,
                        "source.heartbeat-table=" + database + ".sluice_heartbeat",
                        "source.heartbeat-interval=1s",
                        "job.checkpoint-interval=500ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        JobClient job = EmbeddedJobs.start(env, config, "heartbeat-" + database);
        try {
            for (int id = 1; id <= ROWS; id++) {
                server.execute(database, "INSERT INTO items VALUES (" + id + ", 'x')");
            }
            assertThat(KAFKA.server().drainReadCommitted(topic, ROWS, WAIT)).hasSize(ROWS);
            long lastChange = System.currentTimeMillis();

            Map<String, Long> sums = new TreeMap<>();
            Waits.until(
                    "a lag under "
                            + LAG_BOUND_MS
                            + " ms after "
                            + IDLE_MS
                            + " ms without changes to captured tables",
                    WAIT,
                    () -> {
                        sums.clear();
                        sums.putAll(JobMetrics.sums(rest, job.getJobID()));
                        long idle = System.currentTimeMillis() - lastChange;
                        Long lag = sums.get("sluice.lagMs");
                        Long heartbeats = sums.get("sluice.heartbeats");
                        // The REST store fills vertex by vertex: the encoders' count too.
                        return idle > IDLE_MS
                                && sums.containsKey("sluice.messagesOut")
                                && lag != null
                                && lag < LAG_BOUND_MS
                                && heartbeats != null
                                && heartbeats > 0;
                    });
            // The source's enumerator writes the heartbeats, on the JobManager.
            Map<String, Long> writer = new TreeMap<>();
            Waits.until(
                    "the source coordinator's heartbeat writes in the REST store",
                    WAIT,
                    () -> {
                        writer.clear();
                        writer.putAll(JobMetrics.coordinatorSums(rest, job.getJobID()));
                        return writer.containsKey("sluice.heartbeatWrites");
                    });
            assertThat(writer.get("sluice.heartbeatWrites")).isGreaterThan(0);
            assertThat(writer.get("sluice.heartbeatWriteErrors")).isZero();
            assertThat(sums).doesNotContainKey("sluice.heartbeatWrites");
            // rowsIn is counted by both Normalize and Encode; the encoders' messages show alone
            // what went on after Normalize.
            assertThat(sums.get("sluice.messagesOut"))
                    .as("heartbeats are dropped before encoding")
                    .isEqualTo(ROWS);
            assertThat(KAFKA.server().count(topic, "read_committed", Duration.ofSeconds(2)))
                    .as("heartbeats never reach Kafka")
                    .isEqualTo(ROWS);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }
}

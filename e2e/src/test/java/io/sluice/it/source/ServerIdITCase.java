package io.sluice.it.source;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobCancellation;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Jobs that read one server side by side, as every team's job does on a shared database: with
 * {@code source.server-id} unset each draws ids of its own, so neither takes the other's place on
 * the server (it keeps one binlog connection per replica id and drops the other), and neither ever
 * reconnects. Two given one id by hand: the one that cannot stay connected fails naming the option.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServerIdITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final InMemoryReporter METRICS = InMemoryReporter.create();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(2, METRICS.addToConfiguration(new Configuration()));

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final ChangeEventQueue FIRST = new ChangeEventQueue();
    private static final ChangeEventQueue SECOND = new ChangeEventQueue();

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void jobsWithoutServerIdsReadOneServerSideBySideWithoutReconnecting(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("server_ids", null);
        server.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
        BinlogPosition start = ReaderRun.current(server);
        FIRST.clear();
        SECOND.clear();
        JobClient first = startJob(server, database, start, null, FIRST, "first");
        JobClient second = null;
        try {
            // The first is connected once it has the first row; the second connects while it is.
            server.execute(database, "INSERT INTO t VALUES (1)");
            assertThat(ids(FIRST.take(first, 1, ServerIdITCase::ofT, WAIT))).containsExactly("1");
            second = startJob(server, database, start, null, SECOND, "second");
            assertThat(ids(SECOND.take(second, 1, ServerIdITCase::ofT, WAIT))).containsExactly("1");
            // Rows after both connected: a job that lost its connection to the other on the way
            // has connected again before it reads them.
            server.execute(database, "INSERT INTO t VALUES (2), (3)");
            assertThat(ids(FIRST.take(first, 2, ServerIdITCase::ofT, WAIT)))
                    .containsExactly("2", "3");
            assertThat(ids(SECOND.take(second, 2, ServerIdITCase::ofT, WAIT)))
                    .containsExactly("2", "3");
            assertThat(reconnects(first.getJobID())).as("reconnects of the first job").isZero();
            assertThat(reconnects(second.getJobID())).as("reconnects of the second job").isZero();
        } finally {
            if (second == null) {
                JobCancellation.cancel(first);
            } else {
                JobCancellation.cancel(first, second);
            }
        }
    }

    @Test
    void twoJobsGivenOneServerIdByHandFailNamingTheOption() throws Exception {
        DatabaseServer server = SERVERS.mariaDb();
        String database = server.createDatabase("server_id_twice", null);
        server.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)");
        BinlogPosition start = ReaderRun.current(server);
        FIRST.clear();
        SECOND.clear();
        JobClient first = startJob(server, database, start, "7345", FIRST, "first");
        JobClient second = null;
        try {
            server.execute(database, "INSERT INTO t VALUES (1)");
            assertThat(FIRST.take(first, 1, ServerIdITCase::ofT, WAIT)).hasSize(1);
            second = startJob(server, database, start, "7345", SECOND, "second");
            // The server keeps one of the two connections; the other job fails (which one is
            // the server's choice), with no restart left to hide it.
            CompletableFuture<Object> ended =
                    CompletableFuture.anyOf(
                            first.getJobExecutionResult(), second.getJobExecutionResult());
            Throwable failure = catchThrowable(() -> ended.get(2, TimeUnit.MINUTES));
            assertThat(failure).as("the end of one of the two jobs").isNotNull();
            assertThat(ExceptionUtils.stringifyException(failure))
                    .contains(
                            "A slave with the same server_uuid/server_id",
                            "uses this reader's server id 7345",
                            "'source.server-id'");
        } finally {
            // One of the two failed on purpose.
            if (second == null) {
                JobCancellation.cancelRunning(first);
            } else {
                JobCancellation.cancelRunning(first, second);
            }
        }
    }

    private static List<String> ids(List<ChangeEvent> events) {
        return events.stream().map(e -> e.after().text(0)).collect(Collectors.toList());
    }

    private static boolean ofT(ChangeEvent event) {
        return event.table().equals("t");
    }

    /**
     * A Sluice-reader job from {@code start}, with {@code serverId} or none, into {@code queue}.
     */
    private static JobClient startJob(
            DatabaseServer server,
            String database,
            BinlogPosition start,
            String serverId,
            ChangeEventQueue queue,
            String name)
            throws Exception {
        Configuration config =
                SourceConfigs.startingAt(
                        SourceConfigs.connection(server, database + "\\..*"),
                        start.file(),
                        start.position());
        config.set(MySqlSourceOptions.READER, SourceReaderKind.SLUICE);
        if (serverId != null) {
            config.set(MySqlSourceOptions.SERVER_ID, serverId);
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(jobConfig);
        env.setParallelism(1);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(SourceConfigs.underSource(config)),
                        WatermarkStrategy.noWatermarks(),
                        "reader-sluice")
                .sinkTo(queue.sink())
                .name("queue");
        return env.executeAsync("server-id-" + name + "-" + database);
    }

    /** The source's {@code sluice.reconnects}. */
    private static long reconnects(JobID job) {
        Map<String, Metric> found =
                METRICS.findMetrics(job, ".*reader-sluice.*\\.sluice\\.reconnects");
        assertThat(found).as("the metric, once").hasSize(1);
        return ((Counter) found.values().iterator().next()).getCount();
    }
}

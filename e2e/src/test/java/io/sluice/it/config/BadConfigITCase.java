package io.sluice.it.config;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.tools.job.EmbeddedJobs;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.util.concurrent.TimeUnit.MINUTES;
import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Bad configuration stops Sluice with an error naming key, rule and value: before a job starts, or,
 * when only a broker can tell (its transaction limit), as soon as the sink's writers open.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BadConfigITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    @Test
    void transactionTimeoutAboveTheBrokerMaximumFailsTheJobOnceWithoutRestarts(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        String database = MARIADB.server().createDatabase("bad_timeout", "ddl/counters.sql");
        Configuration config =
                EmbeddedJobs.config(
                        MARIADB.server(),
                        KAFKA.server(),
                        database + ".counters",
                        "bad-timeout",
                        "sink.kafka.transaction-timeout=20 min");

        // The graph builds without asking the broker; the writers ask it as they open.
        JobClient job =
                EmbeddedJobs.start(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        config,
                        "bad-timeout");

        Throwable failure = catchThrowable(() -> job.getJobExecutionResult().get(2, MINUTES));

        assertThat(ExceptionUtils.findThrowable(failure, IllegalArgumentException.class))
                .get(as(InstanceOfAssertFactories.THROWABLE))
                .hasMessageContaining("'sink.kafka.transaction-timeout'")
                .hasMessageContaining("PT20M")
                .hasMessageContaining("transaction.max.timeout.ms=900000");
        ArchivedExecutionGraph graph = cluster.getArchivedExecutionGraph(job.getJobID()).get();
        assertThat(graph.getState()).isEqualTo(JobStatus.FAILED);
        assertThat(graph.getStatusTimestamp(JobStatus.RESTARTING))
                .as("a restart cannot raise the broker's limit: the job never restarted")
                .isZero();
    }

    @Test
    void unknownKeyBadRegexAndMissingPassword(@InjectClusterClient ClusterClient<?> client)
            throws Exception {
        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.config(
                                        MARIADB.server(),
                                        KAFKA.server(),
                                        "db.t",
                                        "t",
                                        "sink.tpoic=x"))
                .hasMessageContaining("Unknown option 'sink.tpoic'");
        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.start(
                                        StreamExecutionEnvironment.getExecutionEnvironment(),
                                        EmbeddedJobs.config(
                                                MARIADB.server(),
                                                KAFKA.server(),
                                                "db.t",
                                                "t",
                                                "route.dynamic-topic=t:db\\.(t"),
                                        "bad-regex"))
                .hasMessageContaining("'route.dynamic-topic'")
                .hasMessageContaining("invalid regular expression 'db\\.(t'");
        Configuration noPassword =
                EmbeddedJobs.config(MARIADB.server(), KAFKA.server(), "db.t", "t");
        noPassword.removeKey("source.password");
        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.start(
                                        StreamExecutionEnvironment.getExecutionEnvironment(),
                                        noPassword,
                                        "no-password"))
                .hasMessageContaining("Option 'source.password' is required but missing");
        assertThat(jobNames(client))
                .as("no job started")
                .doesNotContain("bad-regex", "no-password");
    }

    /** The names of the cluster's jobs: other tests of this class may have started one. */
    private static List<String> jobNames(ClusterClient<?> client) throws Exception {
        return client.listJobs().get().stream().map(JobStatusMessage::getJobName).toList();
    }
}

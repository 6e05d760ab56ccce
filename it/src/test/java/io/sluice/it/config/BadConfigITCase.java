package io.sluice.it.config;

import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.job.EmbeddedJobs;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad configuration stops Sluice before a job starts, with an error naming key, rule, value. */
class BadConfigITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
    @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    @Test
    void transactionTimeoutAboveTheBrokerMaximum(@InjectClusterClient ClusterClient<?> client)
            throws Exception {
        Configuration config =
                EmbeddedJobs.config(
                        MARIADB.server(),
                        KAFKA.server(),
                        "db.t",
                        "bad-timeout",
                        "sink.transaction-timeout=20 min");

        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.start(
                                        StreamExecutionEnvironment.getExecutionEnvironment(),
                                        config,
                                        "bad-timeout"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'sink.transaction-timeout'")
                .hasMessageContaining("PT20M")
                .hasMessageContaining("transaction.max.timeout.ms=900000");
        assertThat(client.listJobs().get()).as("no job started").isEmpty();
    }

    @Test
    void queriesAreRefusedOnMariaDb(@InjectClusterClient ClusterClient<?> client) throws Exception {
        Configuration config =
                EmbeddedJobs.config(
                        MARIADB.server(),
                        KAFKA.server(),
                        "db.t",
                        "queries",
                        "source.include-queries=true");

        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.start(
                                        StreamExecutionEnvironment.getExecutionEnvironment(),
                                        config,
                                        "queries"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'source.include-queries' needs MySQL")
                .hasMessageContaining("is MariaDB 11.")
                .hasMessageContaining("annotate-rows events");
        assertThat(client.listJobs().get()).as("no job started").isEmpty();
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
        noPassword.removeConfig(MySqlSourceOptions.PASSWORD);
        assertThatThrownBy(
                        () ->
                                EmbeddedJobs.start(
                                        StreamExecutionEnvironment.getExecutionEnvironment(),
                                        noPassword,
                                        "no-password"))
                .hasMessageContaining("Option 'source.password' is required but missing");
        assertThat(client.listJobs().get()).as("no job started").isEmpty();
    }
}

package io.sluice.it.sink;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.functions.sink.KafkaBrokerLimits;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.KafkaSecurity;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.slf4j.event.Level.WARN;

/**
 * A broker as production runs them: clients log in with SASL/PLAIN, and the job's user may only do
 * what its ACLs allow, which does not include reading the broker's configuration. The job takes its
 * client settings from {@code sink.properties.*} for every Kafka client it opens (producers, the
 * partition-count lookup, the broker check), starts, writes every change exactly once, and warns
 * that it could not check {@code sink.transaction-timeout}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaSecuredITCase {

    private static final String USER = "sluice";
    private static final String PASSWORD = "sluice-secret";

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    @RegisterExtension
    static final KafkaExtension KAFKA =
            KafkaExtension.own(
                    "SASL/PLAIN and ACLs on the client listener",
                    KafkaSecurity.saslPlain(Map.of(USER, PASSWORD)));

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    @RegisterExtension
    final LoggerAuditingExtension limitsLog =
            new LoggerAuditingExtension(KafkaBrokerLimits.class, WARN);

    private static final int ROWS = 20;
    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void aJobLoggedInWithSaslWritesExactlyOnceAndWarnsWhatItCouldNotCheck() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("secured", "ddl/counters.sql");
        for (int id = 0; id < ROWS; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
        }
        KafkaServer kafka = KAFKA.server();
        String topic = "secured-" + database;
        kafka.createTopic(topic, PARTITIONS);
        // EmbeddedJobs names the transactional ids after the topic.
        kafka.createAcls(jobUserAcls(topic, topic));

        JobClient job = startJob(mariaDb, kafka, database, topic);
        try {
            // The snapshot committed, then one update per row from the binlog.
            kafka.drainReadCommitted(topic, ROWS, WAIT);
            String[] updates = new String[ROWS];
            for (int id = 0; id < ROWS; id++) {
                updates[id] = "UPDATE counters SET version = 1 WHERE id = " + id;
            }
            mariaDb.execute(database, updates);

            List<String> seen = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record :
                    kafka.drainReadCommitted(topic, 2 * ROWS, WAIT)) {
                Map<String, String> row =
                        JSON.parseObject(record.value(), FlatMessage.class).getData().get(0);
                seen.add(row.get("id") + "@" + row.get("version"));
            }
            List<String> want = new ArrayList<>();
            for (int id = 0; id < ROWS; id++) {
                want.add(id + "@0");
                want.add(id + "@1");
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(want);
            assertThat(job.getJobStatus().get(1, TimeUnit.MINUTES)).isEqualTo(JobStatus.RUNNING);
        } finally {
            // A job that failed already would hide the assertion's message behind the cancel's.
            if (!job.getJobStatus().get(1, TimeUnit.MINUTES).isGloballyTerminalState()) {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
        }
        assertThat(limitsLog.getMessages())
                .as("the broker check's warnings")
                .anySatisfy(
                        message ->
                                assertThat(message)
                                        .contains("sink.kafka.transaction-timeout")
                                        .contains("transaction.max.timeout.ms")
                                        .contains("DESCRIBE_CONFIGS"));
    }

    private static JobClient startJob(
            MariaDbServer mariaDb, KafkaServer kafka, String database, String topic)
            throws Exception {
        List<String> overrides = new ArrayList<>();
        overrides.add("job.checkpoint-interval=2s");
        kafka.security()
                .clientProperties(USER)
                .forEach((key, value) -> overrides.add("sink.properties." + key + "=" + value));
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        kafka,
                        database + ".counters",
                        topic,
                        overrides.toArray(new String[0]));
        return EmbeddedJobs.start(
                StreamExecutionEnvironment.getExecutionEnvironment(),
                config,
                "secured-" + database);
    }

    /**
     * What a producer of {@code topic} needs and no more: write and describe the topic (which also
     * lets it read partition counts), its transactional ids, idempotent writes; reading the
     * brokers' configuration is denied outright.
     */
    private static List<AclBinding> jobUserAcls(String topic, String transactionalIdPrefix) {
        ResourcePattern topicPattern =
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL);
        ResourcePattern transactionalIds =
                new ResourcePattern(
                        ResourceType.TRANSACTIONAL_ID, transactionalIdPrefix, PatternType.PREFIXED);
        ResourcePattern cluster =
                new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
        return List.of(
                acl(topicPattern, AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(topicPattern, AclOperation.DESCRIBE, AclPermissionType.ALLOW),
                acl(transactionalIds, AclOperation.WRITE, AclPermissionType.ALLOW),
                acl(transactionalIds, AclOperation.DESCRIBE, AclPermissionType.ALLOW),
                acl(cluster, AclOperation.IDEMPOTENT_WRITE, AclPermissionType.ALLOW),
                acl(cluster, AclOperation.DESCRIBE_CONFIGS, AclPermissionType.DENY));
    }

    private static AclBinding acl(
            ResourcePattern pattern, AclOperation operation, AclPermissionType permission) {
        return new AclBinding(
                pattern, new AccessControlEntry("User:" + USER, "*", operation, permission));
    }
}

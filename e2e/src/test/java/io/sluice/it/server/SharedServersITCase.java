package io.sluice.it.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * The servers a test JVM shares ({@link ServerExtension}) really are shared, and sharing them does
 * not hide a leak between tests: two test classes that take the same database name, the same Kafka
 * topic or the same RocketMQ topic fail instead of reading each other's data. The probe classes run
 * in a JUnit run of their own, on this JVM's shared servers, so their failures are this test's
 * evidence rather than the build's.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SharedServersITCase {

    /** What the probes saw, by probe class: the servers' addresses. */
    private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    /** The one name both probes of a run take; set before the nested run starts. */
    private static volatile String clashingName;

    @Test
    void classesShareOneServerOfEachKindAndAReusedNameFailsATest() {
        clashingName = "probe_" + UUID.randomUUID().toString().substring(0, 8);
        SEEN.clear();

        TestExecutionSummary summary = run(FirstProbe.class, SecondProbe.class);

        assertThat(SEEN).as("servers the probes saw").containsOnlyKeys("first", "second");
        assertThat(SEEN.get("first"))
                .as("both classes got the same MariaDB, Kafka and RocketMQ servers")
                .isEqualTo(SEEN.get("second"));
        // Each probe takes the name on all three servers; whichever runs second fails on each.
        assertThat(summary.getTestsSucceededCount()).as("probes that succeeded").isEqualTo(3);
        assertThat(summary.getTestsFailedCount()).as("probes that failed").isEqualTo(3);
        List<String> failures =
                summary.getFailures().stream().map(f -> messages(f.getException())).toList();
        assertThat(failures)
                .anySatisfy(m -> assertThat(m).contains("database exists", clashingName))
                .anySatisfy(m -> assertThat(m).contains("already exists", clashingName))
                .anySatisfy(
                        m ->
                                assertThat(m)
                                        .contains(
                                                "exists on this RocketMQ server already",
                                                clashingName));
    }

    @Test
    void aPrivateServerNeedsAReason() {
        assertThatThrownBy(() -> MariaDbExtension.own(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a reason");
    }

    private static TestExecutionSummary run(Class<?>... classes) {
        LauncherDiscoveryRequest request =
                request()
                        .selectors(
                                Arrays.stream(classes)
                                        .map(DiscoverySelectors::selectClass)
                                        .toList())
                        .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, listener);
        return listener.getSummary();
    }

    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = e; t != null && seen.add(t); t = t.getCause()) {
            text.append(t).append(" | ");
        }
        return text.toString();
    }

    /**
     * Takes {@link #clashingName} as a database, a Kafka topic and a RocketMQ topic, on the servers
     * of its subclass's own extensions.
     */
    abstract static class Probe {

        private final String name;
        private final MariaDbExtension mariaDb;
        private final KafkaExtension kafka;
        private final RocketMqExtension rocketMq;

        Probe(
                String name,
                MariaDbExtension mariaDb,
                KafkaExtension kafka,
                RocketMqExtension rocketMq) {
            this.name = name;
            this.mariaDb = mariaDb;
            this.kafka = kafka;
            this.rocketMq = rocketMq;
        }

        @Test
        void database() {
            record();
            mariaDb.server().execute(null, "CREATE DATABASE " + clashingName);
        }

        @Test
        void kafkaTopic() {
            record();
            kafka.server().createTopic(clashingName, 1);
        }

        @Test
        void rocketMqTopic() {
            record();
            rocketMq.server().createTopic(clashingName, 1);
        }

        private void record() {
            SEEN.put(
                    name,
                    mariaDb.server().port()
                            + " "
                            + kafka.server().bootstrapServers()
                            + " "
                            + rocketMq.server().nameServerAddress());
        }
    }

    static class FirstProbe extends Probe {
        @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
        @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
        @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();

        FirstProbe() {
            super("first", MARIADB, KAFKA, ROCKETMQ);
        }
    }

    static class SecondProbe extends Probe {
        @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
        @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
        @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();

        SecondProbe() {
            super("second", MARIADB, KAFKA, ROCKETMQ);
        }
    }
}

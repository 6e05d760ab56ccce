package io.sluice.it.cluster;

import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.it.server.ServerDirs;
import io.sluice.tools.cluster.ClusterCommand;
import io.sluice.tools.cluster.FlinkCluster;
import io.sluice.tools.cluster.FlinkRestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session cluster that many jobs share stays up: the Sluice job is submitted, checkpoints and is
 * cancelled 40 times on one standalone cluster (a JobManager and a TaskManager JVM with Flink's
 * default 256 MB metaspace), four at a time, with both readers and both sinks. Beside each round
 * but the first, a submission through {@code ./sluice cluster submit} fails at start on purpose (a
 * table pattern that matches nothing, a wrong server time zone, a refused port, an unknown host, a
 * purged start file, a wrong password), once, and the command exits non-zero naming the mistake.
 * Afterwards, and after a forced GC, no job's class loader is alive in either JVM and their
 * loaded-class counts are back within a small margin of the counts after the first round: each
 * job's classes (Flink CDC, Debezium, the MySQL driver, the Kafka and RocketMQ clients) were
 * unloaded with it.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SessionClusterLeakITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();

    /** Jobs run side by side in a round (one slot each), then all are cancelled. */
    private static final int JOBS_PER_ROUND = 4;

    private static final int ROUNDS = 10;

    private static final int SUBMISSIONS = ROUNDS * JOBS_PER_ROUND;

    /**
     * Classes a JVM may hold after the last cancel beyond what it held after the first: Flink's own
     * caches and thread pools grow a little with use. One job's classes number in the thousands, so
     * one leaked loader is well past this.
     */
    private static final int CLASS_MARGIN = 600;

    /** The job's settings beyond its configuration file, one list per kind of job. */
    private static final List<List<String>> VARIANTS =
            List.of(
                    List.of(),
                    List.of("--set", "source.reader=flink-cdc"),
                    List.of("--set", "sink.type=rocketmq"));

    /** Flink's default metaspace of a JobManager and a TaskManager: 256 MB. */
    private static final String DEFAULT_METASPACE = "-XX:MaxMetaspaceSize=268435456";

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Duration RELEASE = Duration.ofSeconds(30);
    private static final String USER_CODE_LOADER = "org.apache.flink.util.ChildFirstClassLoader";

    /**
     * Where heap dumps of both JVMs go at each measurement, if set (e.g. {@code
     * -Dsluice.leak.dumps=/tmp/dumps}): a leak's path to its GC root is in them.
     */
    private static final String DUMP_DIR = "sluice.leak.dumps";

    private static FlinkCluster cluster;
    private static int measurements;

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void jobsSubmittedAndCancelledLeaveNoClassLoaderBehind() throws Exception {
        int[] ports = FreePorts.distinct(3);
        cluster =
                FlinkCluster.builder()
                        .workDir(ServerDirs.fresh("flink-leak"))
                        .classpath(BuildOutputs.flinkClasspath())
                        .baseConfig(BuildOutputs.flinkConfigDir())
                        .jvmOptions(jvmOptions())
                        .restPort(ports[0])
                        .prometheusPorts(ports[1], ports[2])
                        .taskSlots(JOBS_PER_ROUND)
                        .environment(ClusterJobConfig.PASSWORD_ENV, MariaDbServer.CDC_PASSWORD)
                        .start();
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("leak", "ddl/counters.sql");
        for (int id = 0; id < 10; id++) {
            mariaDb.execute(database, "INSERT INTO counters VALUES (" + id + ", 0, 'seed')");
        }
        String topic = "leak-" + database;
        KAFKA.server().createTopic(topic, 1);
        ROCKETMQ.server().createTopic(topic, 1);

        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(BuildOutputs.jobJar());
        List<Mistake> mistakes = mistakes(database);
        Map<String, Integer> baseline = null;
        Map<String, List<String>> baselineThreads = new TreeMap<>();
        int submitted = 0;
        for (int round = 0; round < ROUNDS; round++) {
            // A submission that fails at start runs beside the round's jobs, from round 1 on.
            Process failing = null;
            Mistake mistake = null;
            Path output = null;
            if (round > 0) {
                mistake = mistakes.get((round - 1) % mistakes.size());
                output = cluster.workDir().resolve("submit-" + round + ".log");
                failing =
                        submitFailing(
                                mistake,
                                config(database, topic, "leak-bad-" + database + "-" + round),
                                output);
            }
            // Each kind of job in turn: both readers, both sinks; submitted side by side.
            List<CompletableFuture<String>> submissions = new ArrayList<>();
            for (int j = 0; j < JOBS_PER_ROUND; j++, submitted++) {
                Path config = config(database, topic, "leak-" + database + "-" + submitted);
                List<String> args = new ArrayList<>(List.of("--config", config.toString()));
                args.addAll(VARIANTS.get(submitted % VARIANTS.size()));
                submissions.add(
                        CompletableFuture.supplyAsync(
                                () -> rest.runJar(jarId, ClusterCommand.ENTRY_CLASS, args, null)));
            }
            List<String> jobs = new ArrayList<>();
            for (CompletableFuture<String> submission : submissions) {
                jobs.add(submission.get());
            }
            for (String jobId : jobs) {
                rest.awaitHealthy(jobId, WAIT);
            }
            mariaDb.execute(database, "UPDATE counters SET version = " + (round + 1));
            for (String jobId : jobs) {
                rest.cancel(jobId);
            }
            for (String jobId : jobs) {
                rest.awaitState(jobId, "CANCELED", WAIT);
            }
            if (failing != null) {
                assertFailedNaming(failing, mistake, output);
            }
            if (round == 0) {
                baseline = measure(baselineThreads);
            }
        }
        Map<String, List<String>> threads = new TreeMap<>();
        Map<String, Integer> after = measure(threads);

        assertThat(cluster.processes()).hasSize(2).allMatch(ProcessHandle::isAlive);
        assertThat(rest.overview().path("taskmanagers").asInt()).isEqualTo(1);
        for (String role : List.of("jobmanager", "taskmanager")) {
            List<String> newThreads = new ArrayList<>(threads.get(role));
            newThreads.removeAll(baselineThreads.get(role));
            assertThat(after.get(role + ".userCodeLoaders"))
                    .as(
                            "user-code class loaders alive in the %s after %d jobs ended; threads"
                                    + " that were not there after the first: %s",
                            role, SUBMISSIONS, newThreads)
                    .isZero();
            assertThat(after.get(role + ".classes"))
                    .as(
                            "classes loaded in the %s after %d jobs ended (after the first: %d)",
                            role, SUBMISSIONS, baseline.get(role + ".classes"))
                    .isLessThanOrEqualTo(baseline.get(role + ".classes") + CLASS_MARGIN);
        }
    }

    /**
     * Flink's JVM options, and soft references cleared at every collection. The JDK keeps softly
     * reachable what may be asked for again, e.g. the serialization descriptors of the job's
     * classes that Flink deserialized, for a time that grows with the free heap (a second per free
     * MB by default, minutes here), so a released loader could stay alive past the forced
     * collections by chance. They are no leak: the JVM clears them before it runs out of heap or
     * metaspace.
     */
    private static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(BuildOutputs.jvmOptions());
        options.add("-XX:SoftRefLRUPolicyMSPerMB=0");
        return options;
    }

    /** Per JVM ("jobmanager", "taskmanager"): the loaded classes and live user-code loaders. */
    private static Map<String, Integer> measure(Map<String, List<String>> threads)
            throws Exception {
        measurements++;
        Map<String, Integer> figures = new TreeMap<>();
        List<ProcessHandle> processes = cluster.processes();
        String[] roles = {"jobmanager", "taskmanager"};
        for (int i = 0; i < roles.length; i++) {
            try (JvmProbe probe = JvmProbe.attach(processes.get(i).pid())) {
                assertThat(probe.jvmArguments())
                        .as("the %s's JVM", roles[i])
                        .contains(DEFAULT_METASPACE);
                int loaders = releasedLoaders(probe);
                figures.put(roles[i] + ".classes", probe.loadedClasses());
                MemoryPoolMXBean metaspace = probe.metaspace();
                figures.put(roles[i] + ".metaspaceMb", megabytes(metaspace.getUsage().getUsed()));
                figures.put(
                        roles[i] + ".metaspacePeakMb",
                        megabytes(metaspace.getPeakUsage().getUsed()));
                figures.put(roles[i] + ".userCodeLoaders", loaders);
                threads.put(roles[i], probe.threads());
                if (System.getProperty(DUMP_DIR) != null) {
                    probe.heapDump(
                            Path.of(
                                    System.getProperty(DUMP_DIR),
                                    roles[i] + "-" + measurements + ".hprof"));
                }
            }
        }
        System.out.println("SessionClusterLeakITCase: " + figures);
        return figures;
    }

    /**
     * The user-code loaders still alive after forced collections. A cancelled job's client threads
     * end a few seconds after it (Netty's graceful shutdown waits a quiet period of 2 s, at most 15
     * s), so a loader still held then is given until {@link #RELEASE} to go.
     */
    private static int releasedLoaders(JvmProbe probe) throws Exception {
        long deadline = System.nanoTime() + RELEASE.toNanos();
        while (true) {
            probe.gc();
            int loaders = probe.classLoaders().getOrDefault(USER_CODE_LOADER, 0);
            if (loaders == 0 || System.nanoTime() > deadline) {
                return loaders;
            }
            Thread.sleep(1000);
        }
    }

    private static int megabytes(long bytes) {
        return (int) (bytes / (1024 * 1024));
    }

    /** A submission that must fail at start, and what its error names. */
    private record Mistake(String what, List<String> settings, String message) {}

    private static List<Mistake> mistakes(String database) {
        int closed = FreePorts.next();
        return List.of(
                new Mistake(
                        "a table pattern that matches no table",
                        List.of("source.tables=" + database + "\\.nothing_.*"),
                        "Option 'source.tables' has '"
                                + database
                                + "\\.nothing_.*', which matches no table"),
                new Mistake(
                        "a server time zone that is not the server's",
                        List.of("source.server-time-zone=Asia/Tokyo"),
                        "Option 'source.server-time-zone' is 'Asia/Tokyo'"),
                new Mistake(
                        "a port nothing listens on",
                        List.of("source.hostname=127.0.0.1", "source.port=" + closed),
                        "Nothing accepts connections at 127.0.0.1:" + closed),
                new Mistake(
                        "an unknown host",
                        List.of("source.hostname=no-such-host.invalid"),
                        "Option 'source.hostname' is 'no-such-host.invalid'"),
                new Mistake(
                        "a purged start file",
                        List.of(
                                "source.startup.mode=binlog-position",
                                "source.startup.binlog-file=mysql-bin.000999",
                                "source.startup.binlog-position=4"),
                        "names 'mysql-bin.000999', which the server"),
                new Mistake(
                        "a wrong password",
                        List.of("source.password=wrong"),
                        "refuses user '" + MariaDbServer.CDC_USER + "'"));
    }

    /**
     * Starts {@code ./sluice cluster submit} (its main class, in a JVM of its own) with the
     * mistake, its output to {@code output}.
     */
    private static Process submitFailing(Mistake mistake, Path config, Path output)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("-Dsluice.cluster.workDir=" + cluster.workDir());
        command.add(ClusterCommand.class.getName());
        command.add("submit");
        command.add("--wait");
        command.add("1min");
        command.add("--config");
        command.add(config.toString());
        for (String setting : mistake.settings()) {
            command.add("--set");
            command.add(setting);
        }
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** The submission exited non-zero, naming the mistake, after the job failed once. */
    private static void assertFailedNaming(Process process, Mistake mistake, Path output)
            throws Exception {
        assertThat(process.waitFor(3, TimeUnit.MINUTES))
                .as("./sluice cluster submit with %s ended", mistake.what())
                .isTrue();
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as("exit code of ./sluice cluster submit with %s: %s", mistake.what(), printed)
                .isNotZero();
        assertThat(printed)
                .as("./sluice cluster submit with %s", mistake.what())
                .contains("is FAILED")
                .contains("it failed 1 time(s)")
                .contains(mistake.message());
    }

    private static Path config(String database, String topic, String transactionalIds)
            throws IOException {
        return ClusterJobConfig.write(
                cluster.workDir().resolve(transactionalIds + ".yaml"),
                "sluice-leak-it",
                "1 s",
                MARIADB.server(),
                database,
                topic,
                KAFKA.server().bootstrapServers(),
                transactionalIds,
                new int[] {1, 1, 1, 1},
                List.of(
                        "rocketmq.name-server: " + ROCKETMQ.server().nameServerAddress(),
                        "rocketmq.producer-group: " + transactionalIds));
    }
}

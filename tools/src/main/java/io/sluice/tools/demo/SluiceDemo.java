package io.sluice.tools.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.sink.KafkaClientProperties;
import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.MariaDbServer;
import io.sluice.job.config.JobOptions;
import io.sluice.tools.bench.LoadStats;
import io.sluice.tools.bench.MixedDmlWorkload;
import io.sluice.tools.cli.Cli;
import io.sluice.tools.job.EmbeddedJobs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice demo}: embedded MariaDB and Kafka, a mixed-DML load, and the Sluice job with the
 * Flink web UI on localhost:8081, printing progress until {@code --duration} passes or Ctrl-C.
 */
public final class SluiceDemo {

    private static final String TOPIC = "sluice-demo";
    private static final int PARTITIONS = 3;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final DemoArgs args;
    private final CountDownLatch stop = new CountDownLatch(1);

    private SluiceDemo(DemoArgs args) {
        this.args = args;
    }

    public static void main(String[] argv) throws Exception {
        DemoArgs args = Cli.parseOrExit("sluice demo", new DemoArgs(), argv);
        if (FreePorts.isListening(args.webPort)) {
            System.err.printf(
                    "sluice demo: port %d is taken, so the Flink web UI cannot start there."
                            + " Stop what listens on it, or pass --web-port <port>.%n",
                    args.webPort);
            System.exit(2);
        }
        System.exit(new SluiceDemo(args).run());
    }

    private int run() throws Exception {
        onSignal("INT");
        onSignal("TERM");
        long start = System.nanoTime();
        say("starting MariaDB (binlog ROW) and Kafka (KRaft) ...");
        try (MariaDbServer mariaDb = MariaDbServer.start();
                KafkaServer kafka = KafkaServer.start()) {
            MixedDmlWorkload workload = new MixedDmlWorkload();
            String database = mariaDb.createDatabase("demo", null);
            mariaDb.execute(database, workload.ddl());
            kafka.createTopic(TOPIC, PARTITIONS);
            try (Connection connection =
                    DriverManager.getConnection(
                            mariaDb.jdbcUrl(database),
                            mariaDb.rootUser(),
                            mariaDb.rootPassword())) {
                connection.setAutoCommit(false);
                MixedDmlWorkload.MixedWriter load = workload.newWriter(connection, 0, 1, 42);
                LoadStats stats = new LoadStats(false);
                load.seed(args.seedRows, stats);
                long seeded = stats.rows.get();
                say(
                        "MariaDB %s:%d, database '%s' (%d rows); Kafka %s, topic '%s' (%d"
                                + " partitions)",
                        mariaDb.host(),
                        mariaDb.port(),
                        database,
                        seeded,
                        kafka.bootstrapServers(),
                        TOPIC,
                        PARTITIONS);

                Configuration sluice = jobConfig(mariaDb, kafka, database);
                JobClient job = startJob(sluice);
                say("Flink web UI: http://localhost:%d  (job %s)", args.webPort, job.getJobID());
                try (JobProgress progress = new JobProgress(args.webPort, job.getJobID());
                        DeliveredCounter delivered =
                                new DeliveredCounter(
                                        KafkaClientProperties.common(sluice), TOPIC, PARTITIONS)) {
                    // Changes made before the snapshot reads a row fold into its snapshot
                    // image, so the load starts once the snapshot is out: from then on every
                    // row change is one binlog message, and the end-of-run count is exact.
                    if (!awaitDelivery(delivered, seeded, Duration.ofMinutes(2))) {
                        job.cancel().get(30, TimeUnit.SECONDS);
                        if (stop.getCount() == 0) {
                            return 0;
                        }
                        say("the snapshot was not delivered within 2 minutes; stopping");
                        return 1;
                    }
                    say("snapshot delivered (%d rows); starting the mixed-DML load", seeded);
                    drive(load, stats, progress, delivered, start);
                    long expected = stats.rows.get();
                    say("load stopped; waiting for the last checkpoints to commit ...");
                    awaitDelivery(delivered, expected, Duration.ofSeconds(30));
                    long got = delivered.delivered();
                    say(
                            "done: %d row changes written, %d delivered%s",
                            expected,
                            got,
                            got == expected
                                    ? " (each exactly once)"
                                    : got < expected
                                            ? " (" + (expected - got) + " not yet committed)"
                                            : " (" + (got - expected) + " MORE than written)");
                    job.cancel().get(30, TimeUnit.SECONDS);
                    return got > 0 ? 0 : 1;
                }
            }
        } finally {
            say("stopped; every server is shut down");
        }
    }

    private static Configuration jobConfig(
            MariaDbServer mariaDb, KafkaServer kafka, String database) {
        // The demo's lag stays true between load bursts (docs/pipeline.md, "Lag while idle").
        mariaDb.grantCdcWrites(database);
        return EmbeddedJobs.config(
                mariaDb,
                kafka,
                database + ".customers;" + database + ".orders",
                TOPIC,
                "sink.kafka.transactional-id-prefix=sluice-demo-" + database,
                "job.checkpoint-interval=2s",
                "source.heartbeat-table=" + database + ".sluice_heartbeat",
                "source.heartbeat-interval=2s",
                "job.name=sluice-demo");
    }

    private JobClient startJob(Configuration sluice) throws Exception {
        Configuration flink = new Configuration();
        flink.set(RestOptions.PORT, args.webPort);
        flink.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        // The web UI's numbers, and ours, refresh every second rather than every ten.
        flink.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofSeconds(1));
        flink.set(WebOptions.REFRESH_INTERVAL, Duration.ofSeconds(1));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(flink);
        env.setParallelism(2);
        return EmbeddedJobs.start(env, sluice, JobOptions.job(sluice).get(JobOptions.NAME));
    }

    private void drive(
            MixedDmlWorkload.MixedWriter load,
            LoadStats stats,
            JobProgress progress,
            DeliveredCounter delivered,
            long start)
            throws Exception {
        long deadline = args.duration == null ? Long.MAX_VALUE : start + args.duration.toNanos();
        long pause = 1_000_000_000L / args.transactionsPerSecond;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        long next = System.nanoTime();
        while (System.nanoTime() < deadline && stop.getCount() > 0) {
            load.nextTransaction(stats);
            next += pause;
            long now = System.nanoTime();
            if (now >= nextProgress) {
                printProgress(stats, progress, delivered, start);
                nextProgress += PROGRESS_EVERY.toNanos();
            }
            if (next > now) {
                stop.await(next - now, TimeUnit.NANOSECONDS);
            }
        }
        printProgress(stats, progress, delivered, start);
    }

    private void printProgress(
            LoadStats stats, JobProgress progress, DeliveredCounter delivered, long start) {
        long lag = delivered.lagMillis();
        long captured = progress.rowsCaptured();
        say(
                "[%4ds] written %d rows (%d tx) | captured %s | delivered %d | lag %s",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                stats.rows.get(),
                stats.transactions.get(),
                captured < 0 ? "?" : Long.toString(captured),
                delivered.delivered(),
                lag < 0 ? "-" : String.format("%.1fs", lag / 1000.0));
    }

    /** Waits, bounded and interruptible by Ctrl-C, until {@code expected} rows are readable. */
    private boolean awaitDelivery(DeliveredCounter delivered, long expected, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (delivered.delivered() < expected && System.nanoTime() < deadline) {
            if (stop.await(200, TimeUnit.MILLISECONDS)) {
                break;
            }
        }
        return delivered.delivered() >= expected;
    }

    @SuppressWarnings("restriction")
    private void onSignal(String name) {
        // Ctrl-C ends the demo in order, so servers stop and the exit code stays 0.
        sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> stop.countDown());
    }

    private static void say(String format, Object... values) {
        System.out.println(
                LocalTime.now().format(CLOCK) + " sluice demo: " + String.format(format, values));
        System.out.flush();
    }

    /** Command-line arguments of the demo. */
    @Command(
            name = "sluice demo",
            sortOptions = false,
            description =
                    "Embedded MariaDB and Kafka, a mixed-DML load and the Sluice job, with the Flink"
                            + " web UI; stops after --duration, or on Ctrl-C.")
    static final class DemoArgs {

        @Option(
                names = "--duration",
                order = 0,
                converter = Cli.FlinkDuration.class,
                paramLabel = "<duration>",
                description = "how long the load runs, e.g. 60s (default: until Ctrl-C)")
        Duration duration;

        @Option(
                names = "--rate",
                order = 1,
                converter = Cli.Positive.class,
                paramLabel = "<transactions/s>",
                description = "load transactions a second (default: ${DEFAULT-VALUE})")
        int transactionsPerSecond = 50;

        @Option(
                names = "--web-port",
                order = 2,
                converter = Cli.Positive.class,
                paramLabel = "<port>",
                description = "the Flink web UI's port (default: ${DEFAULT-VALUE})")
        int webPort = 8081;

        @Option(
                names = "--seed-rows",
                order = 3,
                converter = Cli.Positive.class,
                paramLabel = "N",
                description =
                        "customers and orders inserted before the job starts (default:"
                                + " ${DEFAULT-VALUE})")
        int seedRows = 100;

        @Option(
                names = {"-h", "--help"},
                order = 9,
                usageHelp = true,
                description = "this help")
        boolean help;
    }
}

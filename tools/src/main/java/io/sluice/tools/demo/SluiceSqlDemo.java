package io.sluice.tools.demo;

import org.apache.flink.core.execution.JobClient;

import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqServer;
import io.sluice.job.SluiceSqlRunner;
import io.sluice.tools.cli.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice sql <script.sql>}: runs a Sluice SQL script (e.g. one of {@code sql/}) against
 * embedded servers: MariaDB with a {@code shop} database ({@code orders}, {@code order_items},
 * {@code users}), Kafka, and RocketMQ if the script names {@code ${NAME_SERVER}}. The script's
 * {@code ${SOURCE_HOST}}, {@code ${SOURCE_PORT}}, {@code ${SOURCE_USER}}, {@code
 * ${SOURCE_PASSWORD}}, {@code ${DATABASE}}, {@code ${KAFKA}} and {@code ${NAME_SERVER}} point at
 * them. Updates a row every second and prints what each topic holds, until {@code --duration}
 * passes or Ctrl-C.
 */
public final class SluiceSqlDemo {

    private static final String[] TABLES = {"orders", "order_items", "users"};
    private static final String[] TOPICS = {"orders", "order_items", "users", "paid_orders", "all"};
    private static final int ROWS = 6;
    private static final int PARTITIONS = 3;
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final CountDownLatch stop = new CountDownLatch(1);

    public static void main(String[] argv) throws Exception {
        SqlDemoArgs args = Cli.parseOrExit("sluice sql", new SqlDemoArgs(), argv);
        if (!Files.isRegularFile(args.script)) {
            System.err.println("sluice sql: the SQL script '" + args.script + "' does not exist");
            System.exit(2);
        }
        String text = Files.readString(args.script, StandardCharsets.UTF_8);
        System.exit(new SluiceSqlDemo().run(args.script, text, args.duration, args.defines));
    }

    private int run(Path file, String script, Duration duration, Map<String, String> extra)
            throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        boolean rocketMq = script.contains("${NAME_SERVER}");
        say("starting MariaDB (binlog ROW), Kafka%s ...", rocketMq ? " and RocketMQ" : "");
        try (MariaDbServer mariaDb = MariaDbServer.start();
                KafkaServer kafka = KafkaServer.start();
                AutoCloseable rmq = rocketMq ? RocketMqServer.start() : () -> {}) {
            String database = ShopDatabase.create(mariaDb, "shop");
            ShopDatabase.seed(mariaDb, database, ROWS);
            List<String> topics = new ArrayList<>();
            for (String suffix : TOPICS) {
                String topic = database + "_" + suffix;
                topics.add(topic);
                kafka.createTopic(topic, PARTITIONS);
                if (rocketMq) {
                    ((RocketMqServer) rmq).createTopic(topic, PARTITIONS);
                }
            }
            Map<String, String> defines = new LinkedHashMap<>();
            defines.put("SOURCE_HOST", mariaDb.host());
            defines.put("SOURCE_PORT", Integer.toString(mariaDb.port()));
            defines.put("SOURCE_USER", MariaDbServer.CDC_USER);
            defines.put("SOURCE_PASSWORD", MariaDbServer.CDC_PASSWORD);
            defines.put("DATABASE", database);
            defines.put("KAFKA", kafka.bootstrapServers());
            if (rocketMq) {
                defines.put("NAME_SERVER", ((RocketMqServer) rmq).nameServerAddress());
            }
            defines.putAll(extra);
            say(
                    "MariaDB %s:%d, database '%s'; Kafka %s",
                    mariaDb.host(), mariaDb.port(), database, kafka.bootstrapServers());
            defines.forEach((k, v) -> say("  --define %s=%s", k, v));

            JobClient job =
                    SluiceSqlRunner.start(
                            script, file.getFileName().toString(), defines, System.getenv());
            say("job %s runs %s; one row updated per second", job.getJobID(), file);
            long start = System.nanoTime();
            long deadline = duration == null ? Long.MAX_VALUE : start + duration.toNanos();
            long nextProgress = start + PROGRESS_EVERY.toNanos();
            int version = 0;
            while (System.nanoTime() < deadline && stop.getCount() > 0) {
                String table = TABLES[version % TABLES.length];
                mariaDb.execute(
                        database,
                        "UPDATE "
                                + table
                                + " SET version = version + 1 WHERE id = "
                                + (version % ROWS));
                version++;
                if (System.nanoTime() >= nextProgress) {
                    progress(kafka, rocketMq ? (RocketMqServer) rmq : null, topics);
                    nextProgress += PROGRESS_EVERY.toNanos();
                }
                stop.await(1, TimeUnit.SECONDS);
            }
            progress(kafka, rocketMq ? (RocketMqServer) rmq : null, topics);
            job.cancel().get(30, TimeUnit.SECONDS);
            return 0;
        } finally {
            say("stopped; every server is shut down");
        }
    }

    private static void progress(KafkaServer kafka, RocketMqServer rocketMq, List<String> topics) {
        StringBuilder line = new StringBuilder("committed messages:");
        for (String topic : topics) {
            int count =
                    rocketMq != null
                            ? rocketMq.drainAll(topic, Duration.ofMillis(200)).size()
                            : kafka.count(topic, "read_committed", Duration.ofMillis(200));
            if (count > 0) {
                line.append(' ').append(topic).append('=').append(count);
            }
        }
        say("%s", line);
    }

    private static void say(String format, Object... args) {
        System.out.printf(
                "%s sluice sql: %s%n", LocalTime.now().format(CLOCK), String.format(format, args));
    }

    /** Command-line arguments of the SQL demo. */
    @Command(
            name = "sluice sql",
            sortOptions = false,
            description =
                    "Runs a Flink SQL script against embedded MariaDB, Kafka and, if the script"
                            + " names $${NAME_SERVER}, RocketMQ.")
    static final class SqlDemoArgs {

        @Parameters(index = "0", paramLabel = "<script.sql>", description = "the SQL script")
        Path script;

        @Option(
                names = "--duration",
                order = 0,
                converter = Cli.FlinkDuration.class,
                paramLabel = "<duration>",
                description = "how long it runs, e.g. 60s (default: until Ctrl-C)")
        Duration duration;

        final Map<String, String> defines = new LinkedHashMap<>();

        @Option(
                names = {"-h", "--help"},
                order = 9,
                usageHelp = true,
                description = "this help")
        boolean help;

        @Option(
                names = "--define",
                order = 1,
                paramLabel = "NAME=value",
                description = "a $${NAME} of the script, over the servers' own; repeatable")
        void defines(List<String> values) {
            defines.clear();
            for (String value : values) {
                int eq = value.indexOf('=');
                if (eq < 1) {
                    throw Cli.bad("--define", "takes NAME=value", value);
                }
                defines.put(value.substring(0, eq), value.substring(eq + 1));
            }
        }
    }
}

package io.sluice.job.canal;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code ./sluice canal-diff --bootstrap-servers <hosts> --canal-topic <t[,t]> --sluice-topic
 * <t[,t]> [--sluice-bootstrap-servers <hosts>] [--window <duration>] [--property key=value ...]
 * [--json]}: reads the topics a Canal instance writes and those Sluice writes from the same source
 * (Kafka, or RocketMQ as {@code rocketmq://<name server>/<topic>}; each message flat JSON or binary
 * protobuf), pairs their rows and statements as it reads ({@link RowPairing}), compares them field
 * by field ({@link RowComparison}) and reports each difference, marked documented when it is one of
 * {@link DeliberateDifference}. Exit 0 when every difference is documented, 1 when any is not, 2 on
 * bad arguments or unreadable topics.
 */
public final class CanalDiff {

    /** How long in binlog time a row waits for its pair before it counts as on one side only. */
    public static final ConfigOption<Duration> WINDOW =
            ConfigOptions.key("canal-diff.window")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "How far (in binlog execute time, es) both sides must have read past"
                                    + " a row before canal-diff reports it as only on one side;"
                                    + " rows are held at most this long, so memory stays bounded"
                                    + " on topics of any length. Larger than the spread of es"
                                    + " within a partition (long transactions).");

    static final String USAGE =
            "usage: ./sluice canal-diff --canal-topic <topic[,topic]> --sluice-topic <topic[,topic]>\n"
                    + "         [--bootstrap-servers <host:port>] [--sluice-bootstrap-servers"
                    + " <host:port>]\n"
                    + "         [--window <duration>] [--property key=value ...] [--json]\n"
                    + "  Reads both sides from their start to their current end (committed"
                    + " messages only), pairs rows by\n"
                    + "  table, type, execute time (es) and primary key, and reports differences by"
                    + " field. Exit 1 on any\n"
                    + "  undocumented one. Each message may be flat JSON (canal.mq.flatMessage=true)"
                    + " or binary protobuf.\n"
                    + "  A topic is a Kafka topic on --bootstrap-servers (Sluice's side: on"
                    + " --sluice-bootstrap-servers\n"
                    + "  when given), or rocketmq://<name server host:port>/<topic> for RocketMQ.\n"
                    + "  --window: how far in es both sides read past a row before it counts as on"
                    + " one side only\n"
                    + "    (rows are held at most that long; default "
                    + "10 min; e.g. 30 s, 1 h).\n"
                    + "  --property: a Kafka consumer setting for both sides (security.protocol,"
                    + " sasl.*, ssl.*, ...).";

    private static final String ROCKETMQ = "rocketmq://";

    private CanalDiff() {}

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs, reporting to {@code out} (progress and errors to {@code err}); the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (BadArguments e) {
            err.println("canal-diff: " + e.getMessage());
            return 2;
        }
        if (arguments.help) {
            out.println(USAGE);
            return 0;
        }
        String servers = arguments.servers;
        Duration window = arguments.window;
        DiffReport report = new DiffReport();
        try (DiffSide canal =
                        side(
                                "Canal",
                                "--canal-topic",
                                arguments.canalTopics,
                                servers,
                                arguments.client,
                                window,
                                err);
                DiffSide sluice =
                        side(
                                "Sluice",
                                "--sluice-topic",
                                arguments.sluiceTopics,
                                arguments.sluiceServers == null ? servers : arguments.sluiceServers,
                                arguments.client,
                                window,
                                err)) {
            compare(canal, sluice, window, report);
        } catch (RuntimeException e) {
            err.println("canal-diff: " + e.getMessage());
            return 2;
        }
        if (arguments.json) {
            report.printJson(out);
        } else {
            report.printText(out);
        }
        return report.undocumented() == 0 ? 0 : 1;
    }

    /**
     * Reads both sides, the one behind in {@code es} first, pairing as rows come; a row without a
     * pair once both sides have read {@code window} past it is reported as on one side only.
     */
    private static void compare(
            DiffSide canal, DiffSide sluice, Duration window, DiffReport report) {
        RowPairing pairing = new RowPairing(report);
        boolean canalsTurn = true;
        while (!(canal.done() & sluice.done())) {
            long canalAt = canal.watermark();
            long sluiceAt = sluice.watermark();
            DiffSide next;
            if (canal.done() || sluiceAt < canalAt) {
                next = sluice;
            } else if (sluice.done() || canalAt < sluiceAt) {
                next = canal;
            } else {
                next = canalsTurn ? canal : sluice;
                canalsTurn = !canalsTurn;
            }
            for (FlatRow row : next.poll()) {
                pairing.add(next == canal, row);
            }
            long low = Math.min(canal.watermark(), sluice.watermark());
            if (low != Long.MIN_VALUE && low != Long.MAX_VALUE) {
                pairing.evictBefore(low - window.toMillis());
            }
        }
        pairing.finish();
        report.canalMessages = canal.messages;
        report.canalRows = canal.rows;
        report.sluiceMessages = sluice.messages;
        report.sluiceRows = sluice.rows;
    }

    private static Duration window(String value) {
        try {
            Duration window =
                    Configuration.fromMap(java.util.Map.of(WINDOW.key(), value)).get(WINDOW);
            return window.isNegative() ? null : window;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * One side's topics: all Kafka (on {@code servers}) or all RocketMQ through one name server.
     */
    private static DiffSide side(
            String name,
            String option,
            String topics,
            String servers,
            Properties client,
            Duration window,
            PrintStream err) {
        List<String> kafka = new ArrayList<>();
        List<String> rocketMq = new ArrayList<>();
        String nameServer = null;
        for (String topic : topics.split(",")) {
            topic = topic.trim();
            if (topic.isEmpty()) {
                continue;
            }
            if (topic.startsWith(ROCKETMQ)) {
                String rest = topic.substring(ROCKETMQ.length());
                int slash = rest.indexOf('/');
                if (slash <= 0 || slash == rest.length() - 1) {
                    throw new IllegalArgumentException(
                            option
                                    + ": '"
                                    + topic
                                    + "' is not rocketmq://<name server host:port>/<topic>");
                }
                String server = rest.substring(0, slash);
                if (nameServer != null && !nameServer.equals(server)) {
                    throw new IllegalArgumentException(
                            option + ": the topics of one side go through one name server");
                }
                nameServer = server;
                rocketMq.add(rest.substring(slash + 1));
            } else if (topic.contains("://")) {
                throw new IllegalArgumentException(
                        option
                                + ": '"
                                + topic
                                + "' names an unknown system '"
                                + topic.substring(0, topic.indexOf("://"))
                                + "'; a topic is a Kafka topic name or"
                                + " rocketmq://<name server host:port>/<topic>");
            } else {
                kafka.add(topic);
            }
        }
        if (kafka.isEmpty() == rocketMq.isEmpty()) {
            throw new IllegalArgumentException(
                    option
                            + ": '"
                            + topics
                            + "' must name Kafka topics or RocketMQ topics (one side reads one"
                            + " system)");
        }
        MessageSource source;
        if (rocketMq.isEmpty()) {
            if (servers == null) {
                throw new IllegalArgumentException(
                        option + " names Kafka topics: --bootstrap-servers is required");
            }
            Properties props = new Properties();
            props.putAll(client);
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
            source = new KafkaSource(name, props, kafka);
        } else {
            source = new RocketMqSource(name, nameServer, rocketMq);
        }
        return new DiffSide(name, topics, source, window, err);
    }

    /** The command line, read; {@link #parse} fails on the first argument it cannot take. */
    private static final class Arguments {
        private String servers;
        private String sluiceServers;
        private String canalTopics;
        private String sluiceTopics;
        private Duration window = WINDOW.defaultValue();
        private final Properties client = new Properties();
        private boolean json;
        private boolean help;

        static Arguments parse(String... args) throws BadArguments {
            Arguments parsed = new Arguments();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if ("--json".equals(flag)) {
                    parsed.json = true;
                    continue;
                }
                if ("--help".equals(flag) || "-h".equals(flag)) {
                    parsed.help = true;
                    return parsed;
                }
                if (i + 1 >= args.length) {
                    throw new BadArguments("'" + flag + "' needs a value\n" + USAGE);
                }
                String value = args[++i];
                switch (flag) {
                    case "--bootstrap-servers":
                        parsed.servers = value;
                        break;
                    case "--sluice-bootstrap-servers":
                        parsed.sluiceServers = value;
                        break;
                    case "--canal-topic":
                        parsed.canalTopics = value;
                        break;
                    case "--sluice-topic":
                        parsed.sluiceTopics = value;
                        break;
                    case "--window":
                        parsed.window = window(value);
                        if (parsed.window == null) {
                            throw new BadArguments(
                                    "'--window' ("
                                            + WINDOW.key()
                                            + ") takes a duration of 0 or more such as 30 s or 10"
                                            + " min, but got '"
                                            + value
                                            + "'");
                        }
                        break;
                    case "--property":
                        int eq = value.indexOf('=');
                        if (eq <= 0) {
                            throw new BadArguments(
                                    "'--property' takes key=value, but got '" + value + "'");
                        }
                        parsed.client.put(value.substring(0, eq), value.substring(eq + 1));
                        break;
                    default:
                        throw new BadArguments("unknown option '" + flag + "'\n" + USAGE);
                }
            }
            if (!parsed.help && (parsed.canalTopics == null || parsed.sluiceTopics == null)) {
                throw new BadArguments("--canal-topic and --sluice-topic are required\n" + USAGE);
            }
            return parsed;
        }
    }

    /** An argument the command cannot take: the message says which and why (exit code 2). */
    private static final class BadArguments extends Exception {
        private static final long serialVersionUID = 1L;

        BadArguments(String message) {
            super(message);
        }
    }
}

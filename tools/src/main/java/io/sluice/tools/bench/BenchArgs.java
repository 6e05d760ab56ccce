package io.sluice.tools.bench;

import io.sluice.tools.cli.Cli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Command-line arguments of {@code ./sluice bench}. */
@Command(
        name = "sluice bench",
        sortOptions = false,
        abbreviateSynopsis = true,
        usageHelpWidth = 100,
        description =
                "The end-to-end benchmark: embedded MariaDB (or MySQL), Kafka (or RocketMQ) and a local"
                        + " MiniCluster; Sluice over a matrix of formats, topics, partitions and"
                        + " guarantees, side by side with the source limit, the producer limit and"
                        + " plain Flink SQL, and the stage funnel.")
final class BenchArgs {

    @Option(
            names = "--quick",
            order = 0,
            description = "a run of under 5 minutes (the smaller defaults marked 'quick')")
    boolean quick;

    String workload = "mixed-dml";
    String mode = "backlog";
    String sink = "kafka";
    String server = "mariadb";
    List<String> formats = List.of("canal-flat", "canal-binary");
    List<Integer> topics = List.of(1, 2);
    List<Integer> partitions = List.of(1, 3);
    List<String> guarantees;
    long rows;
    Duration duration;

    @Option(
            names = "--connections",
            order = 10,
            converter = Cli.Positive.class,
            description = "load generator connections (default: ${DEFAULT-VALUE})")
    int connections = 4;

    @Option(
            names = "--batch-rows",
            order = 11,
            converter = Cli.Positive.class,
            description =
                    "rows per batch-insert transaction; wide-row: a twentieth (default:"
                            + " ${DEFAULT-VALUE})")
    int batchRows = 1000;

    @Option(
            names = "--parallelism",
            order = 12,
            converter = Cli.Positive.class,
            description = "job parallelism (default: ${DEFAULT-VALUE})")
    int parallelism = 2;

    @Option(
            names = "--checkpoint-interval",
            order = 13,
            converter = Cli.FlinkDuration.class,
            paramLabel = "<duration>",
            description = "(default: 1s)")
    Duration checkpointInterval = Duration.ofSeconds(1);

    boolean compare = true;
    int repeat;

    /** The reader of the (d) Sluice and (e) SQL door runs: source.reader's value. */
    String reader = "sluice";

    @Option(
            names = "--warmup",
            order = 17,
            converter = Cli.NonNegative.class,
            paramLabel = "N",
            description =
                    "rounds of the side by side and funnel run first and not counted (default:"
                            + " ${DEFAULT-VALUE})")
    int warmup = 1;

    @Option(
            names = "--group-rows",
            order = 20,
            description =
                    "backlog mode: each matrix variant also runs with format.group-rows=event (g),"
                            + " beside one row per message")
    boolean groupRows;

    @Option(
            names = "--progress-markers",
            order = 21,
            description =
                    "backlog mode: each matrix variant also runs twice side by side, with"
                            + " encode.progress-markers=checkpoint and off (the same reader, markers"
                            + " not counted as rows)")
    boolean progressMarkers;

    @Option(
            names = "--out",
            order = 18,
            paramLabel = "FILE",
            description = "also write the report (markdown) to FILE")
    String out;

    @Option(
            names = {"-h", "--help"},
            order = 21,
            usageHelp = true,
            description = "this help")
    boolean help;

    /** Producer properties every Kafka pipeline gets, Sluice's and Flink SQL's alike. */
    final Map<String, String> producerProperties = new LinkedHashMap<>();

    /** filter.* options of the (f) run; none: no (f) run. */
    final Map<String, String> filters = new LinkedHashMap<>();

    final List<String> command = new ArrayList<>();

    private Long givenRows;
    private Integer givenRepeat;
    private Duration givenDuration;
    private List<String> givenGuarantees;

    static BenchArgs parse(String[] argv) {
        return Cli.parse(new BenchArgs(), argv).resolve(argv);
    }

    /** For the main: prints the usage and exits on {@code --help} or a bad argument. */
    static BenchArgs parseOrExit(String[] argv) {
        return Cli.parseOrExit("sluice bench", new BenchArgs(), argv).resolve(argv);
    }

    /** The defaults that depend on {@code --quick}. */
    private BenchArgs resolve(String[] argv) {
        command.addAll(Arrays.asList(argv));
        repeat = givenRepeat != null ? givenRepeat : quick ? 2 : 3;
        boolean snapshot = workload.equals("snapshot");
        rows =
                givenRows != null
                        ? givenRows
                        : snapshot ? (quick ? 200_000 : 2_000_000) : quick ? 100_000 : 1_000_000;
        duration =
                givenDuration != null
                        ? givenDuration
                        : quick ? Duration.ofSeconds(15) : Duration.ofSeconds(60);
        guarantees =
                givenGuarantees != null
                        ? givenGuarantees
                        : quick
                                ? List.of("exactly-once")
                                : List.of("exactly-once", "at-least-once");
        return this;
    }

    @Option(
            names = "--workload",
            order = 1,
            paramLabel = "mixed-dml|batch-insert|wide-row|snapshot",
            description =
                    "(default: mixed-dml); snapshot: three tables read with startup 'initial',"
                            + " Sluice at parallelism 1 and 2 side by side with plain Flink SQL's"
                            + " mysql-cdc snapshot and the server's own SELECT")
    void workload(String value) {
        workload = oneOf("--workload", value, "mixed-dml", "batch-insert", "wide-row", "snapshot");
    }

    @Option(
            names = "--chunk-size",
            order = 19,
            converter = Cli.Positive.class,
            paramLabel = "N",
            description =
                    "snapshot: rows per snapshot chunk, for Sluice (source.snapshot.chunk-size) and"
                            + " Flink SQL alike (default: the connectors' 8096)")
    int chunkSize;

    @Option(
            names = "--mode",
            order = 2,
            paramLabel = "backlog|live",
            description = "(default: backlog)")
    void mode(String value) {
        mode = oneOf("--mode", value, "backlog", "live");
    }

    @Option(
            names = "--sink",
            order = 3,
            paramLabel = "kafka|rocketmq",
            description = "rocketmq: no (b), (c), (e) (default: kafka)")
    void sink(String value) {
        sink = oneOf("--sink", value, "kafka", "rocketmq");
    }

    @Option(
            names = "--server",
            order = 3,
            paramLabel = "mariadb|mysql",
            description = "the source database: MariaDB 11.4 or MySQL 8.0.31 (default: mariadb)")
    void server(String value) {
        server = oneOf("--server", value, "mariadb", "mysql");
    }

    @Option(
            names = "--reader",
            order = 3,
            paramLabel = "flink-cdc|sluice",
            description =
                    "source.reader of (d) Sluice and (e) the SQL door (default: sluice); (a) and"
                            + " (a2) always run one reader each")
    void reader(String value) {
        reader = oneOf("--reader", value, "flink-cdc", "sluice");
    }

    @Option(
            names = "--formats",
            order = 4,
            paramLabel = "canal-flat,canal-binary,debezium-json",
            description = "(default: canal-flat,canal-binary)")
    void formats(String value) {
        List<String> given = new ArrayList<>();
        for (String f : value.split(",")) {
            String format = f.trim();
            if (format.equals("flat") || format.equals("binary")) {
                format = "canal-" + format;
            }
            given.add(oneOf("--formats", format, "canal-flat", "canal-binary", "debezium-json"));
        }
        formats = given;
    }

    @Option(
            names = "--topics",
            order = 5,
            paramLabel = "1,2",
            description = "topics: one, or one per table (default: 1,2)")
    void topics(String value) {
        topics = ints("--topics", value, 1, 2);
    }

    @Option(names = "--partitions", order = 6, paramLabel = "1,3", description = "(default: 1,3)")
    void partitions(String value) {
        partitions = ints("--partitions", value, 1, 64);
    }

    @Option(
            names = "--guarantees",
            order = 7,
            paramLabel = "exactly-once,at-least-once",
            description = "(default: both; quick: exactly-once)")
    void guarantees(String value) {
        List<String> given = new ArrayList<>();
        for (String g : value.split(",")) {
            given.add(oneOf("--guarantees", g.trim(), "exactly-once", "at-least-once"));
        }
        givenGuarantees = given;
    }

    @Option(
            names = "--rows",
            order = 8,
            converter = Cli.Positive.class,
            paramLabel = "N",
            description =
                    "backlog size in row changes (default: 1000000; quick: 100000); snapshot: rows"
                            + " in the three tables (default: 2000000; quick: 200000)")
    void rows(int value) {
        givenRows = (long) value;
    }

    @Option(
            names = "--duration",
            order = 9,
            converter = Cli.FlinkDuration.class,
            paramLabel = "<duration>",
            description = "live mode: how long the load runs (default: 60s; quick: 15s)")
    void duration(Duration value) {
        givenDuration = value;
    }

    @Option(
            names = "--repeat",
            order = 16,
            converter = Cli.Positive.class,
            paramLabel = "N",
            description =
                    "rounds of the side by side and funnel, best counts (default: 3; quick: 2)")
    void repeat(int value) {
        givenRepeat = value;
    }

    @Option(
            names = "--no-compare",
            order = 15,
            description = "skip the side-by-side baselines and the funnel")
    void noCompare(boolean value) {
        compare = !value;
    }

    @Option(
            names = "--producer-property",
            order = 14,
            paramLabel = "KEY=VALUE",
            description =
                    "a Kafka producer property for every Kafka pipeline ((b)-(e)); repeatable")
    void producerProperties(List<String> values) {
        producerProperties.clear();
        for (String value : values) {
            int equals = value.indexOf('=');
            if (equals < 1 || equals == value.length() - 1) {
                throw Cli.bad("--producer-property", "takes KEY=VALUE", value);
            }
            producerProperties.put(value.substring(0, equals), value.substring(equals + 1));
        }
    }

    @Option(
            names = "--filter",
            order = 19,
            paramLabel = "filter.KEY=VALUE",
            description =
                    "a filter.* option; backlog mode then also runs (f) Sluice with the filters in"
                            + " every side-by-side round; repeatable")
    void filters(List<String> values) {
        filters.clear();
        for (String value : values) {
            int eq = value.indexOf('=');
            if (eq < 1 || !value.startsWith("filter.")) {
                throw Cli.bad("--filter", "takes filter.KEY=VALUE", value);
            }
            filters.put(value.substring(0, eq), value.substring(eq + 1));
        }
    }

    private static String oneOf(String flag, String value, String... allowed) {
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw Cli.bad(flag, "takes " + String.join(", ", allowed), value);
    }

    private static List<Integer> ints(String flag, String value, int min, int max) {
        List<Integer> values = new ArrayList<>();
        for (String v : value.split(",")) {
            int n;
            try {
                n = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw Cli.bad(flag, "takes numbers " + min + ".." + max, value);
            }
            if (n < min || n > max) {
                throw Cli.bad(flag, "values must be " + min + ".." + max, n);
            }
            values.add(n);
        }
        return values;
    }
}

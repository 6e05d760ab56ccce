package io.sluice.it.bench;

import org.apache.flink.util.TimeUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Command-line arguments of {@code ./sluice bench}. */
final class BenchArgs {

    static final String USAGE =
            String.join(
                    "\n",
                    "usage: sluice bench [--quick] [options]",
                    "  --workload mixed-dml|batch-insert|wide-row   (mixed-dml)",
                    "  --mode backlog|live                           (backlog)",
                    "  --sink kafka|rocketmq   rocketmq: no (b), (c), (e)     (kafka)",
                    "  --formats canal-flat,canal-binary             (both)",
                    "  --topics 1,2            topics: one, or one per table   (1,2)",
                    "  --partitions 1,3                                        (1,3)",
                    "  --guarantees exactly-once,at-least-once     (quick: exactly-once)",
                    "  --rows N                backlog size in row changes (quick 100000, full"
                            + " 1000000)",
                    "  --duration 20s          live mode: how long the load runs (quick 15s, full"
                            + " 60s)",
                    "  --connections 4         load generator connections",
                    "  --batch-rows 1000       rows per batch-insert transaction (wide-row: /20)",
                    "  --parallelism 2         job parallelism",
                    "  --checkpoint-interval 1s",
                    "  --producer-property K=V Kafka producer property for every Kafka pipeline"
                            + " ((b)-(e)); repeatable",
                    "  --no-compare            skip the side-by-side baselines and the funnel",
                    "  --repeat N              rounds of the side by side and funnel, best counts"
                            + " (quick 2, full 3)",
                    "  --warmup N              rounds of the side by side and funnel run first and"
                            + " not counted (1)",
                    "  --out FILE              also write the report (markdown) to FILE",
                    "  --filter KEY=VALUE      a filter.* option; backlog mode then also runs (f)"
                            + " Sluice with the filters in every side-by-side round",
                    "  --group-rows            backlog mode: each matrix variant also runs with"
                            + " format.group-rows=event (g), beside one row per message");

    String workload = "mixed-dml";
    String mode = "backlog";
    String sink = "kafka";
    List<String> formats = List.of("canal-flat", "canal-binary");
    List<Integer> topics = List.of(1, 2);
    List<Integer> partitions = List.of(1, 3);
    List<String> guarantees;
    long rows;
    Duration duration;
    int connections = 4;
    int batchRows = 1000;
    int parallelism = 2;
    Duration checkpointInterval = Duration.ofSeconds(1);
    boolean compare = true;
    int repeat;
    int warmup = 1;
    boolean quick;
    boolean groupRows;
    String out;

    /** Producer properties every Kafka pipeline gets, Sluice's and Flink SQL's alike. */
    final Map<String, String> producerProperties = new LinkedHashMap<>();

    /** filter.* options of the (f) run; none: no (f) run. */
    final Map<String, String> filters = new LinkedHashMap<>();

    final List<String> command = new ArrayList<>();

    static BenchArgs parse(String[] argv) {
        BenchArgs args = new BenchArgs();
        Long rows = null;
        Integer repeat = null;
        Duration duration = null;
        List<String> guarantees = null;
        for (int i = 0; i < argv.length; i++) {
            String flag = argv[i];
            args.command.add(flag);
            if (flag.equals("--quick")) {
                args.quick = true;
                continue;
            }
            if (flag.equals("--group-rows")) {
                args.groupRows = true;
                continue;
            }
            if (flag.equals("--no-compare")) {
                args.compare = false;
                continue;
            }
            if (i + 1 >= argv.length) {
                throw new IllegalArgumentException("'" + flag + "' needs a value");
            }
            String value = argv[++i];
            args.command.add(value);
            try {
                switch (flag) {
                    case "--workload":
                        args.workload = oneOf(flag, value, "mixed-dml", "batch-insert", "wide-row");
                        break;
                    case "--mode":
                        args.mode = oneOf(flag, value, "backlog", "live");
                        break;
                    case "--sink":
                        args.sink = oneOf(flag, value, "kafka", "rocketmq");
                        break;
                    case "--formats":
                        args.formats = new ArrayList<>();
                        for (String f : value.split(",")) {
                            String format = f.trim();
                            if (format.equals("flat") || format.equals("binary")) {
                                format = "canal-" + format;
                            }
                            args.formats.add(oneOf(flag, format, "canal-flat", "canal-binary"));
                        }
                        break;
                    case "--topics":
                        args.topics = ints(flag, value, 1, 2);
                        break;
                    case "--partitions":
                        args.partitions = ints(flag, value, 1, 64);
                        break;
                    case "--guarantees":
                        guarantees = new ArrayList<>();
                        for (String g : value.split(",")) {
                            guarantees.add(oneOf(flag, g.trim(), "exactly-once", "at-least-once"));
                        }
                        break;
                    case "--rows":
                        rows = (long) positive(flag, value);
                        break;
                    case "--duration":
                        duration = TimeUtils.parseDuration(value);
                        break;
                    case "--connections":
                        args.connections = positive(flag, value);
                        break;
                    case "--batch-rows":
                        args.batchRows = positive(flag, value);
                        break;
                    case "--parallelism":
                        args.parallelism = positive(flag, value);
                        break;
                    case "--checkpoint-interval":
                        args.checkpointInterval = TimeUtils.parseDuration(value);
                        break;
                    case "--repeat":
                        repeat = positive(flag, value);
                        break;
                    case "--warmup":
                        args.warmup = nonNegative(flag, value);
                        break;
                    case "--out":
                        args.out = value;
                        break;
                    case "--filter":
                        int eq = value.indexOf('=');
                        if (eq < 1 || !value.startsWith("filter.")) {
                            throw new IllegalArgumentException(
                                    "'"
                                            + flag
                                            + "' takes filter.KEY=VALUE, but got '"
                                            + value
                                            + "'");
                        }
                        args.filters.put(value.substring(0, eq), value.substring(eq + 1));
                        break;
                    case "--producer-property":
                        int equals = value.indexOf('=');
                        if (equals < 1 || equals == value.length() - 1) {
                            throw new IllegalArgumentException(
                                    "'" + flag + "' takes KEY=VALUE, but got '" + value + "'");
                        }
                        args.producerProperties.put(
                                value.substring(0, equals), value.substring(equals + 1));
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option '" + flag + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "'" + flag + "' takes a number, but got '" + value + "'");
            }
        }
        args.repeat = repeat != null ? repeat : args.quick ? 2 : 3;
        args.rows = rows != null ? rows : args.quick ? 100_000 : 1_000_000;
        args.duration =
                duration != null
                        ? duration
                        : args.quick ? Duration.ofSeconds(15) : Duration.ofSeconds(60);
        args.guarantees =
                guarantees != null
                        ? guarantees
                        : args.quick
                                ? List.of("exactly-once")
                                : List.of("exactly-once", "at-least-once");
        return args;
    }

    private static String oneOf(String flag, String value, String... allowed) {
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw new IllegalArgumentException(
                "'" + flag + "' takes " + String.join(", ", allowed) + ", but got '" + value + "'");
    }

    private static List<Integer> ints(String flag, String value, int min, int max) {
        List<Integer> values = new ArrayList<>();
        for (String v : value.split(",")) {
            int n = Integer.parseInt(v.trim());
            if (n < min || n > max) {
                throw new IllegalArgumentException(
                        "'" + flag + "' values must be " + min + ".." + max + ", but got " + n);
            }
            values.add(n);
        }
        return values;
    }

    private static int nonNegative(String flag, String value) {
        int n = Integer.parseInt(value);
        if (n < 0) {
            throw new IllegalArgumentException(
                    "'" + flag + "' must be zero or more, but is " + value);
        }
        return n;
    }

    private static int positive(String flag, String value) {
        int n = Integer.parseInt(value);
        if (n <= 0) {
            throw new IllegalArgumentException("'" + flag + "' must be positive, but is " + value);
        }
        return n;
    }
}

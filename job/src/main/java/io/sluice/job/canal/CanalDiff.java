package io.sluice.job.canal;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * {@code ./sluice canal-diff --bootstrap-servers <hosts> --canal-topic <t[,t]> --sluice-topic
 * <t[,t]> [--sluice-bootstrap-servers <hosts>] [--property key=value ...] [--json]}: reads the
 * topics a Canal instance writes and those Sluice writes from the same source (both flat JSON),
 * pairs their rows and statements ({@link RowPairing}), compares them field by field ({@link
 * RowComparison}) and reports each difference, marked documented when it is one of {@link
 * DeliberateDifference}. Exit 0 when every difference is documented, 1 when any is not, 2 on bad
 * arguments or unreadable topics.
 */
public final class CanalDiff {

    static final String USAGE =
            "usage: ./sluice canal-diff --bootstrap-servers <host:port> --canal-topic <topic[,topic]>"
                    + " --sluice-topic <topic[,topic]>\n"
                    + "         [--sluice-bootstrap-servers <host:port>] [--property key=value ...]"
                    + " [--json]\n"
                    + "  Reads both sides from their start to their current end (read_committed),"
                    + " pairs rows by table, type,\n"
                    + "  execute time (es) and primary key, and reports differences by field. Exit 1"
                    + " on any undocumented one.\n"
                    + "  --property: a Kafka consumer setting for both sides (security.protocol,"
                    + " sasl.*, ssl.*, ...).";

    private CanalDiff() {}

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs, reporting to {@code out} (progress and errors to {@code err}); the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        String servers = null;
        String sluiceServers = null;
        List<String> canalTopics = List.of();
        List<String> sluiceTopics = List.of();
        Properties client = new Properties();
        boolean json = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if ("--json".equals(flag)) {
                json = true;
                continue;
            }
            if ("--help".equals(flag) || "-h".equals(flag)) {
                out.println(USAGE);
                return 0;
            }
            if (i + 1 >= args.length) {
                err.println("canal-diff: '" + flag + "' needs a value\n" + USAGE);
                return 2;
            }
            String value = args[++i];
            switch (flag) {
                case "--bootstrap-servers":
                    servers = value;
                    break;
                case "--sluice-bootstrap-servers":
                    sluiceServers = value;
                    break;
                case "--canal-topic":
                    canalTopics = topics(value);
                    break;
                case "--sluice-topic":
                    sluiceTopics = topics(value);
                    break;
                case "--property":
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        err.println(
                                "canal-diff: '--property' takes key=value, but got '"
                                        + value
                                        + "'");
                        return 2;
                    }
                    client.put(value.substring(0, eq), value.substring(eq + 1));
                    break;
                default:
                    err.println("canal-diff: unknown option '" + flag + "'\n" + USAGE);
                    return 2;
            }
        }
        if (servers == null || canalTopics.isEmpty() || sluiceTopics.isEmpty()) {
            err.println(
                    "canal-diff: --bootstrap-servers, --canal-topic and --sluice-topic are"
                            + " required\n"
                            + USAGE);
            return 2;
        }
        DiffReport report = new DiffReport();
        try {
            long[] canalCount = {0};
            long[] sluiceCount = {0};
            List<FlatRow> canal =
                    new TopicReader(clientOf(client, servers), err)
                            .read("Canal", canalTopics, canalCount);
            List<FlatRow> sluice =
                    new TopicReader(
                                    clientOf(
                                            client,
                                            sluiceServers == null ? servers : sluiceServers),
                                    err)
                            .read("Sluice", sluiceTopics, sluiceCount);
            report.canalMessages = canalCount[0];
            report.canalRows = canal.size();
            report.sluiceMessages = sluiceCount[0];
            report.sluiceRows = sluice.size();
            RowPairing.pair(canal, sluice, report);
        } catch (RuntimeException e) {
            err.println("canal-diff: " + e.getMessage());
            return 2;
        }
        if (json) {
            report.printJson(out);
        } else {
            report.printText(out);
        }
        return report.undocumented() == 0 ? 0 : 1;
    }

    private static List<String> topics(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .collect(Collectors.toCollection(ArrayList::new));
    }

    private static Properties clientOf(Properties common, String servers) {
        Properties props = new Properties();
        props.putAll(common);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        return props;
    }
}

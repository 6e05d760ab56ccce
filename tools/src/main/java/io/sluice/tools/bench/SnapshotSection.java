package io.sluice.tools.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's section for {@code --workload snapshot}: every run, then the targets. */
final class SnapshotSection {

    static final String SELECT = "server SELECT over JDBC, streaming";
    static final String SPIKE = "Sluice chunk reader spike (JDBC chunks + renderers, one thread)";
    static final String SLUICE_P1 = "Sluice snapshot, parallelism 1";
    static final String SLUICE_P2 = "Sluice snapshot, parallelism 2";
    static final String FLINK_SQL = "Flink SQL mysql-cdc snapshot";
    static final String BINLOG = "Sluice, the same rows from the binlog";

    private SnapshotSection() {}

    static void render(StringBuilder out, List<RunResult> runs, BenchArgs args) {
        out.append("### Initial snapshot side by side (")
                .append(runs.get(0).rows)
                .append(" rows in three tables; chunk size ")
                .append(args.chunkSize > 0 ? Integer.toString(args.chunkSize) : "8096 (default)")
                .append(")\n\n");
        out.append(
                "rows/s = rows / (first message appended -> last message readable by a"
                        + " read_committed consumer); the SELECT: rows / its wall time. Cores = CPU-s"
                        + " / seconds from submission to the last message: the job's threads, the"
                        + " whole JVM (job, in-JVM Kafka broker, the benchmark's consumer) and the"
                        + " database server.\n\n");
        out.append(
                "| pipeline | rows/s | s from submission | cores: job threads | cores: JVM |"
                        + " cores: database | CPU-s per M rows (job / JVM) |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : runs) {
            double seconds = r.sinceStartMillis / 1000.0;
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,.0f | %.1f | %.2f | %.2f | %.2f | %.1f / %.1f |\n",
                            r.pipeline,
                            r.rowsPerSecond(),
                            seconds,
                            r.resources.pipelineCpuSeconds() / seconds,
                            r.resources.jvmCpuSeconds() / seconds,
                            database(r) / seconds,
                            r.cpuSecondsPerMillionRows(r.resources.pipelineCpuSeconds()),
                            r.cpuSecondsPerMillionRows(r.resources.jvmCpuSeconds())));
        }
        out.append('\n');
        Map<String, Double> best = new LinkedHashMap<>();
        for (RunResult r : runs) {
            best.merge(r.pipeline, r.rowsPerSecond(), Math::max);
        }
        double p1 = best.getOrDefault(SLUICE_P1, Double.NaN);
        double p2 = best.getOrDefault(SLUICE_P2, Double.NaN);
        double sql = best.getOrDefault(FLINK_SQL, Double.NaN);
        double binlog = best.getOrDefault(BINLOG, Double.NaN);
        double select = best.getOrDefault(SELECT, Double.NaN);
        out.append("Targets (best run of each):\n\n");
        target(out, "parallelism 1 ≥ 10× plain Flink SQL", p1 / sql, 10);
        target(out, "parallelism 1 ≥ ½ of the binlog-phase rate", p1 / binlog, 0.5);
        target(out, "parallelism 2 faster than 1", p2 / p1, 1.0);
        out.append(
                String.format(
                        Locale.ROOT,
                        "- parallelism 1 ÷ the server's SELECT: %.2f×\n",
                        p1 / select));
        for (RunResult r : runs) {
            if (r.pipeline.equals(SPIKE)) {
                out.append(
                        String.format(
                                Locale.ROOT,
                                "- chunk reader spike: %,.0f rows/s, %,.0f rows per CPU-second of"
                                        + " its thread; ÷ the server's SELECT: %.2f×\n",
                                r.rowsPerSecond(),
                                r.rows / r.readerRowsCpuSeconds,
                                r.rowsPerSecond() / select));
            }
        }
        out.append('\n');
    }

    private static void target(StringBuilder out, String name, double ratio, double needed) {
        out.append(
                String.format(
                        Locale.ROOT,
                        "- %s: %s (%.2f×)\n",
                        name,
                        ratio >= needed && (needed != 1.0 || ratio > needed) ? "met" : "not met",
                        ratio));
    }

    private static double database(RunResult r) {
        return r.resources.cpuByGroup().entrySet().stream()
                .filter(e -> e.getKey().endsWith("(process)"))
                .mapToDouble(Map.Entry::getValue)
                .sum();
    }
}

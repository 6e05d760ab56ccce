package io.sluice.tools.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The figures of one pipeline run over one load. */
final class RunResult {

    String pipeline;
    String workload;
    String mode;
    String sink = "-";
    String format = "-";
    int topics;
    int partitions;
    String guarantee = "-";
    long rows;
    long transactions;
    long messages;

    /** Key and value bytes delivered, 0 for discard-sink runs. */
    long bytes;

    /** Bytes the broker's log holds for the run's topics (compressed batches); 0 if not Kafka. */
    long storedBytes;

    /** From the first output to the last one readable (or counted). */
    double windowMillis;

    /**
     * From the last output stored to the moment it was readable (the commit of the last
     * transaction, for exactly-once), inside {@link #windowMillis}; 0 for discard-sink cuts.
     */
    double tailMillis;

    /** From job submission (or connect) to the last output. */
    long sinceStartMillis;

    /** Live mode: one latency sample in ms per insert committed and read. */
    List<Long> latencies = List.of();

    /** Live mode: inserts committed whose message was not read by the end of the run. */
    List<String> unreadInserts = List.of();

    /** CPU and heap over the run, as the meter measured them. */
    ResourceMeter.Resources resources = ResourceMeter.Resources.NONE;

    List<BenchCluster.TaskTime> tasks = List.of();

    /**
     * CPU-seconds of the binlog reading thread(s) before the first row came out (start-up: server
     * checks, table schemas, connecting) and from then to the last row; NaN where not measured.
     */
    double readerStartCpuSeconds = Double.NaN;

    double readerRowsCpuSeconds = Double.NaN;

    double rowsPerSecond() {
        return windowMillis <= 0 ? Double.NaN : rows * 1000.0 / windowMillis;
    }

    /**
     * Rows per second from the first output to the last one stored, before it became readable: the
     * pipeline's own pace, without the final commit's wait that a finite backlog ends with.
     */
    double rowsPerSecondToLastOutput() {
        double millis = windowMillis - tailMillis;
        return millis <= 0 ? Double.NaN : rows * 1000.0 / millis;
    }

    double messagesPerSecond() {
        return windowMillis <= 0 ? Double.NaN : messages * 1000.0 / windowMillis;
    }

    double transactionsPerSecond() {
        return windowMillis <= 0 ? Double.NaN : transactions * 1000.0 / windowMillis;
    }

    /** Latency percentile in ms, or -1 without samples. */
    long latencyPercentile(double p) {
        if (latencies.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** Delivered key + value bytes per row, then the bytes stored per row where known. */
    String bytesPerRow() {
        if (bytes == 0) {
            return "-";
        }
        String delivered = Long.toString(Math.round((double) bytes / rows));
        return storedBytes == 0
                ? delivered
                : delivered + " / " + Math.round((double) storedBytes / rows);
    }

    double cpuSecondsPerMillionRows(double cpuSeconds) {
        return cpuSeconds * 1_000_000.0 / rows;
    }
}

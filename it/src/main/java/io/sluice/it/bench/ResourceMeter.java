package io.sluice.it.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * CPU time and heap of one pipeline run. The pipeline's CPU is that of the threads started after
 * {@link #start()} (task threads, the binlog reader, producers), sampled every 100 ms so threads
 * that end are counted too; the benchmark's own threads ({@code bench-*}) are left out. The JVM's
 * CPU includes the in-process Kafka broker. Peak heap is the JVM's (broker included).
 */
final class ResourceMeter implements AutoCloseable {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ScheduledExecutorService sampler =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread thread = new Thread(r, "bench-cpu-sampler");
                        thread.setDaemon(true);
                        return thread;
                    });
    private final Set<Long> before = new HashSet<>();
    private final Map<Long, Long> pipelineNanos = new HashMap<>();
    private long processStart;
    private long peakHeap;

    void start() {
        for (long id : threads.getAllThreadIds()) {
            before.add(id);
        }
        processStart = os.getProcessCpuTime();
        sampler.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        peakHeap =
                Math.max(
                        peakHeap,
                        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null
                    || before.contains(info.getThreadId())
                    || info.getThreadName().startsWith("bench-")) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                pipelineNanos.put(info.getThreadId(), cpu);
            }
        }
    }

    /** Stops sampling; returns {pipeline CPU s, JVM CPU s, peak heap MiB}. */
    synchronized double[] stop() throws InterruptedException {
        sample();
        sampler.shutdownNow();
        long pipeline = pipelineNanos.values().stream().mapToLong(Long::longValue).sum();
        long process = os.getProcessCpuTime() - processStart;
        return new double[] {pipeline / 1e9, process / 1e9, peakHeap / (1024.0 * 1024.0)};
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}

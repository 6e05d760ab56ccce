package io.sluice.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * CPU time and heap of one pipeline run. The pipeline's CPU is that of the threads started after
 * {@link #start()} (task threads, the binlog reader, producers), sampled every 100 ms so threads
 * that end are counted too; the benchmark's own threads ({@code bench-*}) are left out. The JVM's
 * CPU includes the in-process Kafka broker. Peak heap is the JVM's (broker included).
 *
 * <p>Every thread's CPU over the run is also summed by thread group (its name without subtask
 * indexes and numbers), with the database server's process (mariadbd or mysqld) as one more group,
 * so a run shows where the machine's cores went: the job, the broker, the benchmark's consumer or
 * the database.
 */
final class ResourceMeter implements AutoCloseable {

    /** Subtask suffixes, producer client ids and numbers, which split one role into many names. */
    private static final Pattern SUBTASK = Pattern.compile(" \\(\\d+/\\d+\\)(#\\d+)?");

    private static final Pattern CLIENT = Pattern.compile(" \\| .*");
    private static final Pattern NUMBER = Pattern.compile("\\d+");
    private static final long CLOCK_TICKS_PER_SECOND = 100;
    static final String DATABASE = "mariadbd (process)";
    static final String MYSQL_DATABASE = "mysqld (process)";

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
    private final Map<Long, Long> startNanos = new HashMap<>();
    private final Map<Long, Long> lastNanos = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Optional<ProcessHandle> database;
    private final String databaseGroup;
    private long processStart;
    private long databaseStartTicks;
    private long peakHeap;

    /**
     * @param database the MariaDB server process, counted as one more group where known
     */
    ResourceMeter(Optional<ProcessHandle> database) {
        this(database, DATABASE);
    }

    /**
     * @param database the source server's process, counted as one more group where known
     * @param databaseGroup that group's name, e.g. {@code mysqld (process)}
     */
    ResourceMeter(Optional<ProcessHandle> database, String databaseGroup) {
        this.database = database;
        this.databaseGroup = databaseGroup;
    }

    void start() {
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            if (cpu > 0) {
                startNanos.put(id, cpu);
            }
        }
        processStart = os.getProcessCpuTime();
        databaseStartTicks = database.map(ResourceMeter::ticks).orElse(0L);
        sampler.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        peakHeap =
                Math.max(
                        peakHeap,
                        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                lastNanos.put(info.getThreadId(), cpu);
                names.put(info.getThreadId(), info.getThreadName());
            }
        }
    }

    /** Stops sampling and returns the run's figures. */
    synchronized Resources stop() {
        sample();
        sampler.shutdownNow();
        long pipeline = 0;
        Map<String, Double> byGroup = new HashMap<>();
        String busiest = "-";
        long busiestUsed = 0;
        for (Map.Entry<Long, Long> thread : lastNanos.entrySet()) {
            String name = names.get(thread.getKey());
            Long before = startNanos.get(thread.getKey());
            long used = thread.getValue() - (before == null ? 0 : before);
            if (before == null && !name.startsWith("bench-")) {
                pipeline += used;
            }
            byGroup.merge(group(name), used / 1e9, Double::sum);
            if (used > busiestUsed) {
                busiest = group(name);
                busiestUsed = used;
            }
        }
        long jvm = os.getProcessCpuTime() - processStart;
        double javaThreads = byGroup.values().stream().mapToDouble(Double::doubleValue).sum();
        // Garbage collection and JIT compilation run on threads the MXBean does not list.
        byGroup.put("JVM internal (GC, JIT)", Math.max(0, jvm / 1e9 - javaThreads));
        database.ifPresent(
                process ->
                        byGroup.put(
                                databaseGroup,
                                (ticks(process) - databaseStartTicks)
                                        / (double) CLOCK_TICKS_PER_SECOND));
        Map<String, Double> sorted = new LinkedHashMap<>();
        byGroup.entrySet().stream()
                // The database stays even at 0: its CPU is counted in 10 ms ticks, which a short
                // run may not reach.
                .filter(e -> e.getValue() > 0 || e.getKey().equals(databaseGroup))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return new Resources(
                pipeline / 1e9,
                jvm / 1e9,
                peakHeap / (1024.0 * 1024.0),
                sorted,
                new ThreadCpu(busiest, busiestUsed / 1e9));
    }

    static String group(String threadName) {
        String name = SUBTASK.matcher(threadName).replaceAll("");
        name = CLIENT.matcher(name).replaceAll("");
        return NUMBER.matcher(name).replaceAll("#").trim();
    }

    /** User and system CPU of a process in clock ticks, from {@code /proc} (0 where unreadable). */
    private static long ticks(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // Fields after the parenthesised command: state is field 3, utime 14, stime 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    /**
     * One run's resources: CPU-seconds of the pipeline's threads and of the JVM, peak heap,
     * CPU-seconds by thread group (largest first) and the single thread that used the most.
     */
    record Resources(
            double pipelineCpuSeconds,
            double jvmCpuSeconds,
            double peakHeapMiB,
            Map<String, Double> cpuByGroup,
            ThreadCpu busiestThread) {

        /** Before a run was measured. */
        static final Resources NONE =
                new Resources(
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        Map.of(),
                        new ThreadCpu("-", Double.NaN));

        /** The CPU-seconds of all groups: the whole JVM and the database server. */
        double allCpuSeconds() {
            return cpuByGroup.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** One thread's CPU-seconds over the run, named by its group. */
    record ThreadCpu(String group, double cpuSeconds) {}
}

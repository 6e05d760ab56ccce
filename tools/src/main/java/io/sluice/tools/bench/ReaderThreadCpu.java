package io.sluice.tools.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.Set;

/**
 * The CPU time of a run's binlog reading threads (Sluice's {@value Report#SLUICE_READER_THREAD}*,
 * Flink CDC's {@value Report#FLINK_CDC_BINLOG_THREAD}*) at a moment of the run, so that a run's
 * start-up (before its first row) and its steady reading (first row to last) are told apart.
 * Threads that ran before the run began (e.g. a cancelled job's, still ending) are left out.
 */
final class ReaderThreadCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Set<Long> before = new HashSet<>();

    /** Notes the threads that run now, before the run's job is submitted. */
    ReaderThreadCpu() {
        for (long id : THREADS.getAllThreadIds()) {
            before.add(id);
        }
    }

    /** The CPU-seconds the run's reading threads used so far. */
    double seconds() {
        long nanos = 0;
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
            if (info == null || before.contains(info.getThreadId())) {
                continue;
            }
            String name = info.getThreadName();
            if (name.startsWith(Report.SLUICE_READER_THREAD)
                    || name.startsWith(Report.FLINK_CDC_BINLOG_THREAD)) {
                nanos += Math.max(0, THREADS.getThreadCpuTime(info.getThreadId()));
            }
        }
        return nanos / 1e9;
    }
}

package io.sluice.it.flink;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Cancels a test's job at its end. A job that already failed is reported with its own failure:
 * {@code cancel()} alone would say only that the job was not cancelled but FAILED, and, thrown from
 * a {@code finally}, that would hide whatever the test had found.
 *
 * <p>In a MiniCluster, Flink CDC's classes are the test JVM's, so its JDBC connection pools, kept
 * in one static registry per host, port and user, are shared by every job of the JVM, and a job's
 * split assigner clears the whole registry when it closes, after the job is reported ended. The
 * next test's job, reading the same server, would have its connections closed under it ("Socket
 * closed" while its chunks are split). So this waits, a bounded time, for the registry to be
 * cleared. (A job submitted to a cluster has Flink CDC in its own class loader and a registry of
 * its own.)
 */
public final class JobCancellation {

    private static final String POOLS =
            "org.apache.flink.cdc.connectors.mysql.source.connection.JdbcConnectionPools";

    private static final long POOLS_WAIT_MS = 30_000;

    private JobCancellation() {}

    /** Cancels each job that runs; fails with a job's failure if one failed. */
    public static void cancel(JobClient... jobs) throws Exception {
        try {
            for (JobClient job : jobs) {
                cancelOne(job);
            }
        } finally {
            awaitPoolsCleared();
        }
    }

    /** Cancels each job that still runs, for jobs one of which a test made fail on purpose. */
    public static void cancelRunning(JobClient... jobs) throws Exception {
        try {
            for (JobClient job : jobs) {
                if (!job.getJobStatus().get(30, TimeUnit.SECONDS).isGloballyTerminalState()) {
                    job.cancel().get(1, TimeUnit.MINUTES);
                }
            }
        } finally {
            awaitPoolsCleared();
        }
    }

    private static void cancelOne(JobClient job) throws Exception {
        JobStatus status = job.getJobStatus().get(30, TimeUnit.SECONDS);
        if (status == JobStatus.FAILED) {
            try {
                job.getJobExecutionResult().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("The job " + job.getJobID() + " had failed", e.getCause());
            }
        }
        if (!status.isGloballyTerminalState()) {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void awaitPoolsCleared() throws InterruptedException {
        Map<?, ?> pools = sharedPools();
        long deadline = System.currentTimeMillis() + POOLS_WAIT_MS;
        while (pools != null && !pools.isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }

    /** Flink CDC's registry of pools, if its classes are this JVM's; null otherwise. */
    private static Map<?, ?> sharedPools() {
        try {
            Class<?> type = Class.forName(POOLS);
            Object instance = type.getMethod("getInstance").invoke(null);
            Field pools = type.getDeclaredField("pools");
            pools.setAccessible(true);
            return (Map<?, ?>) pools.get(instance);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}

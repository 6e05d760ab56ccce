package io.sluice.it.flink;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Cancels a test's job at its end. A job that already failed is reported with its own failure:
 * {@code cancel()} alone would say only that the job was not cancelled but FAILED, and, thrown from
 * a {@code finally}, that would hide whatever the test had found.
 */
public final class JobCancellation {

    private JobCancellation() {}

    /** Cancels {@code job} if it runs; fails with the job's failure if it failed. */
    public static void cancel(JobClient job) throws Exception {
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
}

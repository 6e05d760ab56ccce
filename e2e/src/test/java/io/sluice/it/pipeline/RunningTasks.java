package io.sluice.it.pipeline;

import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;

import io.sluice.it.server.Waits;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Waits for a MiniCluster job's tasks, before a test kills a TaskManager under them. */
final class RunningTasks {

    private RunningTasks() {}

    /** Until every task of {@code job} runs; fails if the job ends first. */
    static void awaitAll(MiniCluster cluster, JobID job, Duration wait) {
        awaitAll(cluster, job, 0, wait);
    }

    /**
     * Until every task of {@code job} runs in attempt {@code attempt} or a later one, so a test
     * that just killed a TaskManager does not take the tasks it killed, still shown running, for
     * the restarted ones.
     */
    static void awaitAll(MiniCluster cluster, JobID job, int attempt, Duration wait) {
        Waits.until(
                "every task of job " + job + " running in attempt " + attempt + " or later",
                wait,
                () -> {
                    assertThat(cluster.getJobStatus(job).get(10, TimeUnit.SECONDS))
                            .as("job %s before all its tasks ran", job)
                            .matches(status -> !status.isGloballyTerminalState());
                    // A job still initializing has no vertices yet.
                    int running = 0;
                    int tasks = 0;
                    for (AccessExecutionVertex vertex :
                            cluster.getExecutionGraph(job)
                                    .get(10, TimeUnit.SECONDS)
                                    .getAllExecutionVertices()) {
                        tasks++;
                        running +=
                                vertex.getExecutionState() == ExecutionState.RUNNING
                                                && vertex.getCurrentExecutionAttempt()
                                                                .getAttemptNumber()
                                                        >= attempt
                                        ? 1
                                        : 0;
                    }
                    return tasks > 0 && running == tasks;
                });
    }
}

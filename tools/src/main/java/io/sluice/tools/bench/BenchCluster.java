package io.sluice.tools.bench;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.FreePorts;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One local MiniCluster for a whole benchmark run: jobs are submitted to it one after another, and
 * their per-task busy times are read from its REST API, the numbers the web UI shows.
 */
final class BenchCluster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final MiniCluster cluster;
    private final URI rest;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    BenchCluster(int slots) throws Exception {
        Configuration config = FlinkMiniCluster.configuration();
        config.set(RestOptions.PORT, FreePorts.next());
        config.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        config.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(500));
        this.cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(config)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        cluster.start();
        this.rest = cluster.getRestAddress().get(30, TimeUnit.SECONDS);
    }

    /** Submits what was built on {@code env}; returns once the job is submitted. */
    JobID submit(StreamExecutionEnvironment env, String name) throws Exception {
        Configuration named = new Configuration();
        named.set(PipelineOptions.NAME, name);
        env.configure(named);
        JobGraph graph = env.getStreamGraph().getJobGraph();
        return cluster.submitJob(graph).get(60, TimeUnit.SECONDS).getJobID();
    }

    /** Waits until every task of {@code job} runs (the source has then opened its reader). */
    void awaitRunning(JobID job, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
            if (status.isTerminalState()) {
                cluster.requestJobResult(job)
                        .get(10, TimeUnit.SECONDS)
                        .getSerializedThrowable()
                        .ifPresent(
                                t -> {
                                    throw new IllegalStateException(
                                            "Benchmark job " + job + " failed",
                                            t.deserializeError(getClass().getClassLoader()));
                                });
                throw new IllegalStateException("Benchmark job " + job + " ended: " + status);
            }
            if (allTasksRunning(job)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Benchmark job " + job + " did not start in " + timeout);
    }

    /** Throws the job's failure if it failed; used while waiting for its output. */
    void checkAlive(JobID job) throws Exception {
        JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
        if (status == JobStatus.FAILED || status == JobStatus.RESTARTING) {
            throw new IllegalStateException("Benchmark job " + job + " is " + status);
        }
    }

    void cancel(JobID job) throws Exception {
        JobStatus status = cluster.getJobStatus(job).get(10, TimeUnit.SECONDS);
        if (!status.isGloballyTerminalState()) {
            cluster.cancelJob(job).get(30, TimeUnit.SECONDS);
        }
        cluster.requestJobResult(job).get(60, TimeUnit.SECONDS);
    }

    /**
     * Busy and back-pressured milliseconds of each task (chain) of {@code job}, summed over its
     * subtasks, from the accumulated task metrics; -1 where they could not be read.
     */
    List<TaskTime> taskTimes(JobID job) throws Exception {
        List<TaskTime> times = new ArrayList<>();
        for (JsonNode first : get("/jobs/" + job).path("vertices")) {
            JsonNode vertex = first;
            long[] busyAndBackPressured = {-1, -1};
            // The first request only starts a metric fetch; answers arrive within a second.
            for (int attempt = 0; attempt < 20 && busyAndBackPressured[0] < 0; attempt++) {
                if (attempt > 0) {
                    Thread.sleep(250);
                    vertex = vertex(job, first.path("id").asText());
                }
                busyAndBackPressured =
                        "RUNNING".equals(vertex.path("status").asText())
                                ? runningTimes(job, vertex.path("id").asText())
                                : finalTimes(vertex.path("metrics"));
            }
            times.add(
                    new TaskTime(
                            vertex.path("name").asText(),
                            vertex.path("parallelism").asInt(),
                            busyAndBackPressured[0],
                            busyAndBackPressured[1]));
        }
        return times;
    }

    private JsonNode vertex(JobID job, String id) throws Exception {
        for (JsonNode vertex : get("/jobs/" + job).path("vertices")) {
            if (id.equals(vertex.path("id").asText())) {
                return vertex;
            }
        }
        throw new IllegalStateException("Job " + job + " has no vertex " + id);
    }

    /** A running task's times from its subtasks' metrics, or -1 while they are not fetched yet. */
    private long[] runningTimes(JobID job, String vertex) throws Exception {
        long busy = -1;
        long backPressured = -1;
        JsonNode metrics =
                get(
                        "/jobs/"
                                + job
                                + "/vertices/"
                                + vertex
                                + "/subtasks/metrics?get=accumulateBusyTimeMs,"
                                + "accumulateBackPressuredTimeMs&agg=sum");
        for (JsonNode metric : metrics) {
            long sum = (long) metric.path("sum").asDouble(-1);
            if ("accumulateBusyTimeMs".equals(metric.path("id").asText())) {
                busy = sum;
            } else if ("accumulateBackPressuredTimeMs".equals(metric.path("id").asText())) {
                backPressured = sum;
            }
        }
        return busy < 0 || backPressured < 0
                ? new long[] {-1, -1}
                : new long[] {busy, backPressured};
    }

    /**
     * A finished task (a bounded job's) no longer reports metrics; the job's details keep the
     * totals its subtasks reported when they ended.
     */
    private static long[] finalTimes(JsonNode totals) {
        return new long[] {
            (long) totals.path("accumulated-busy-time").asDouble(-1),
            totals.path("accumulated-backpressured-time").asLong(-1)
        };
    }

    private boolean allTasksRunning(JobID job) throws IOException, InterruptedException {
        JsonNode vertices = get("/jobs/" + job).path("vertices");
        if (vertices.size() == 0) {
            return false;
        }
        for (JsonNode vertex : vertices) {
            if (!"RUNNING".equals(vertex.path("status").asText())) {
                return false;
            }
        }
        return true;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(rest.resolve(path))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + rest + path);
        }
        return JSON.readTree(response.body());
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }

    /** One task's (operator chain's) accumulated times. */
    static final class TaskTime {
        final String name;
        final int parallelism;
        final long busyMillis;
        final long backPressuredMillis;

        TaskTime(String name, int parallelism, long busyMillis, long backPressuredMillis) {
            this.name = name;
            this.parallelism = parallelism;
            this.busyMillis = busyMillis;
            this.backPressuredMillis = backPressuredMillis;
        }
    }
}

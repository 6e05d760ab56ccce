package io.sluice.tools.demo;

import org.apache.flink.api.common.JobID;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a running job's counters from Flink's REST API, the same numbers the web UI shows. It polls
 * every second, because each answer carries the values of the previous fetch.
 */
final class JobProgress implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String job;
    private final ScheduledExecutorService poller =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread thread = new Thread(r, "demo-job-progress");
                        thread.setDaemon(true);
                        return thread;
                    });

    /** Normalize's count of the rows the source delivered (chained to the source). */
    private static final String ROWS_IN = ".sluice.rowsIn";

    private final AtomicLong captured = new AtomicLong(-1);
    private String sourceVertex;

    JobProgress(int restPort, JobID jobId) {
        this.job = "http://localhost:" + restPort + "/jobs/" + jobId;
        poller.scheduleWithFixedDelay(
                () -> captured.set(fetchRowsCaptured()), 0, 1, TimeUnit.SECONDS);
    }

    /** Records the source has emitted, summed over its subtasks; -1 while REST cannot tell. */
    long rowsCaptured() {
        return captured.get();
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }

    private long fetchRowsCaptured() {
        try {
            if (sourceVertex == null) {
                sourceVertex = findSourceVertex();
                if (sourceVertex == null) {
                    return -1;
                }
            }
            // The metrics endpoint is refreshed by the metric fetcher; the job-details counters
            // only move with TaskManager heartbeats. The source vertex may be chained all the way
            // to the sink, so its numRecordsOut stays 0: count what Normalize takes in.
            String base = "/vertices/" + sourceVertex + "/subtasks/metrics";
            for (JsonNode available : get(base)) {
                String id = available.path("id").asText();
                if (id.endsWith(ROWS_IN)) {
                    String query = "?get=" + URLEncoder.encode(id, StandardCharsets.UTF_8);
                    for (JsonNode metric : get(base + query + "&agg=sum")) {
                        return metric.path("sum").asLong(-1);
                    }
                }
            }
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (IOException e) {
            return -1;
        }
    }

    private String findSourceVertex() throws IOException, InterruptedException {
        for (JsonNode vertex : get("").path("vertices")) {
            if (vertex.path("name").asText().startsWith("Source:")) {
                return vertex.path("id").asText();
            }
        }
        return null;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(job + path))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + job + path);
        }
        return JSON.readTree(response.body());
    }
}

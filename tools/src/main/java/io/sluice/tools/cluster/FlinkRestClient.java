package io.sluice.tools.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * The parts of Flink's REST API (stable, documented at {@code /v1}) that operating Sluice needs:
 * upload and run a jar, read a job's state and plan, stop it with a savepoint.
 */
public final class FlinkRestClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);

    private final URI base;
    private final HttpClient http;

    public FlinkRestClient(URI base) {
        this.base = base;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** {@code GET /overview}: TaskManagers, slots, jobs by state. */
    public JsonNode overview() {
        return get("/overview");
    }

    public JsonNode get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET());
    }

    /** The body of {@code GET path} as text, e.g. the web UI's index page. */
    public String getText(String path) {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(base.resolve(path))
                                    .timeout(CALL_TIMEOUT)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "GET " + path + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + base.resolve(path), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: GET " + path, e);
        }
    }

    public JsonNode post(String path, JsonNode body) {
        return send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    /** {@code POST /jars/upload}; returns the jar's id for {@link #runJar}. */
    public String uploadJar(Path jar) {
        String boundary = "sluice-" + UUID.randomUUID();
        byte[] head =
                ("--"
                                + boundary
                                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                                + jar.getFileName()
                                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] content;
        try {
            content = Files.readAllBytes(jar);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the job jar " + jar, e);
        }
        JsonNode answer =
                send(
                        HttpRequest.newBuilder(base.resolve("/jars/upload"))
                                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                                .POST(
                                        HttpRequest.BodyPublishers.ofByteArrays(
                                                List.of(head, content, tail))));
        String file = answer.path("filename").asText();
        if (!"success".equals(answer.path("status").asText()) || file.isEmpty()) {
            throw new IllegalStateException("Uploading " + jar + " failed: " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    /**
     * {@code POST /jars/:id/run}: runs {@code entryClass}'s main with {@code args} in the
     * JobManager; {@code savepointPath} (may be null) restores state. Returns the job id.
     */
    public String runJar(String jarId, String entryClass, List<String> args, String savepointPath) {
        ObjectNode body = JSON.createObjectNode();
        body.put("entryClass", entryClass);
        args.forEach(body.putArray("programArgsList")::add);
        if (savepointPath != null) {
            body.put("savepointPath", savepointPath);
            body.put("allowNonRestoredState", false);
        }
        JsonNode answer = post("/jars/" + jarId + "/run", body);
        String jobId = answer.path("jobid").asText();
        if (jobId.isEmpty()) {
            throw new IllegalStateException("Running jar " + jarId + " gave no job id: " + answer);
        }
        return jobId;
    }

    /** {@code GET /jobs/:id}: the job's state, e.g. RUNNING, FINISHED, FAILED. */
    public String jobState(String jobId) {
        return get("/jobs/" + jobId).path("state").asText();
    }

    /** Each job vertex's name and parallelism, from {@code GET /jobs/:id}. */
    public Map<String, Integer> vertexParallelism(String jobId) {
        Map<String, Integer> vertices = new LinkedHashMap<>();
        for (JsonNode vertex : get("/jobs/" + jobId).path("vertices")) {
            vertices.put(vertex.path("name").asText(), vertex.path("parallelism").asInt());
        }
        return vertices;
    }

    /** Each job vertex's id by name. */
    public Map<String, String> vertexIds(String jobId) {
        Map<String, String> vertices = new LinkedHashMap<>();
        for (JsonNode vertex : get("/jobs/" + jobId).path("vertices")) {
            vertices.put(vertex.path("name").asText(), vertex.path("id").asText());
        }
        return vertices;
    }

    /**
     * Waits until the job is RUNNING with every task running (not merely scheduled), failing early
     * if it reaches a terminal state.
     */
    public void awaitAllTasksRunning(String jobId, Duration timeout) {
        await(
                "job " + jobId + " with all tasks running",
                timeout,
                () -> {
                    JsonNode job = get("/jobs/" + jobId);
                    String state = job.path("state").asText();
                    if (Set.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                        throw new IllegalStateException(
                                "Job "
                                        + jobId
                                        + " is "
                                        + state
                                        + ": "
                                        + get("/jobs/" + jobId + "/exceptions"));
                    }
                    if (!"RUNNING".equals(state)) {
                        return false;
                    }
                    for (JsonNode vertex : job.path("vertices")) {
                        if (!"RUNNING".equals(vertex.path("status").asText())) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /**
     * Waits until the job is RUNNING with every task running and a checkpoint completed, the sign
     * that its source reads and its sink commits. Fails with the job's latest exception when it
     * ends, or when the time is up (a job that keeps restarting never gets there).
     */
    public void awaitHealthy(String jobId, Duration timeout) {
        try {
            await(
                    "job " + jobId + " to run every task and complete a checkpoint",
                    timeout,
                    () -> {
                        JsonNode job = get("/jobs/" + jobId);
                        String state = job.path("state").asText();
                        if (Set.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                            throw new IllegalStateException("it is " + state);
                        }
                        if (!"RUNNING".equals(state)) {
                            return false;
                        }
                        for (JsonNode vertex : job.path("vertices")) {
                            if (!"RUNNING".equals(vertex.path("status").asText())) {
                                return false;
                            }
                        }
                        JsonNode counts = get("/jobs/" + jobId + "/checkpoints").path("counts");
                        return counts.path("completed").asInt() > 0;
                    });
        } catch (IllegalStateException e) {
            throw new IllegalStateException(
                    "Job "
                            + jobId
                            + " is not running healthily: "
                            + e.getMessage()
                            + latestFailure(jobId));
        }
    }

    /** The job's failures so far and the first line of the latest one, or "". */
    private String latestFailure(String jobId) {
        JsonNode entries = get("/jobs/" + jobId + "/exceptions").path("exceptionHistory");
        JsonNode history = entries.path("entries");
        if (history.size() == 0) {
            return "";
        }
        // The deepest cause says what went wrong; the first line only where it failed.
        String cause = "";
        for (String line :
                (Iterable<String>) history.get(0).path("stacktrace").asText().lines()::iterator) {
            if (cause.isEmpty() || line.startsWith("Caused by: ")) {
                cause = line.replaceFirst("^Caused by: ", "");
            }
        }
        return "; it failed "
                + history.size()
                + (entries.path("truncated").asBoolean() ? "+" : "")
                + " time(s), the latest with: "
                + cause;
    }

    /** Waits until the job reaches {@code state}. */
    public void awaitState(String jobId, String state, Duration timeout) {
        await("job " + jobId + " " + state, timeout, () -> state.equals(jobState(jobId)));
    }

    /**
     * {@code POST /jobs/:id/stop} without draining: a savepoint into {@code targetDirectory}, then
     * the job finishes. Returns the savepoint's location.
     */
    public String stopWithSavepoint(String jobId, String targetDirectory, Duration timeout) {
        String trigger = triggerStopWithSavepoint(jobId, targetDirectory);
        String[] location = new String[1];
        await(
                "the savepoint of job " + jobId,
                timeout,
                () -> {
                    JsonNode status = get("/jobs/" + jobId + "/savepoints/" + trigger);
                    if (!"COMPLETED".equals(status.path("status").path("id").asText())) {
                        return false;
                    }
                    JsonNode operation = status.path("operation");
                    if (operation.has("failure-cause")) {
                        throw new IllegalStateException(
                                "The savepoint of job "
                                        + jobId
                                        + " failed: "
                                        + operation.path("failure-cause"));
                    }
                    location[0] = operation.path("location").asText();
                    return true;
                });
        return location[0];
    }

    /**
     * Starts a stop-with-savepoint without draining and returns its trigger id. In application mode
     * the cluster ends with the job, so the savepoint is found in {@code targetDirectory}.
     */
    public String triggerStopWithSavepoint(String jobId, String targetDirectory) {
        ObjectNode body = JSON.createObjectNode();
        body.put("drain", false);
        body.put("targetDirectory", targetDirectory);
        String trigger = post("/jobs/" + jobId + "/stop", body).path("request-id").asText();
        if (trigger.isEmpty()) {
            throw new IllegalStateException("Stopping job " + jobId + " gave no request id");
        }
        return trigger;
    }

    /** {@code PATCH /jobs/:id}: cancels the job. */
    public void cancel(String jobId) {
        send(
                HttpRequest.newBuilder(base.resolve("/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody()));
    }

    private JsonNode send(HttpRequest.Builder request) {
        HttpRequest built = request.timeout(CALL_TIMEOUT).build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(built.method() + " " + built.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "Interrupted: " + built.method() + " " + built.uri(), e);
        }
        JsonNode body;
        try {
            body =
                    response.body().isEmpty()
                            ? JSON.createObjectNode()
                            : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(
                    built.method() + " " + built.uri() + " answered non-JSON: " + response.body(),
                    e);
        }
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(
                    built.method()
                            + " "
                            + built.uri()
                            + " answered "
                            + response.statusCode()
                            + ": "
                            + rootCause(body.path("errors")));
        }
        return body;
    }

    /** The innermost "Caused by" of the server's stack traces, else the first error line. */
    private static String rootCause(JsonNode errors) {
        String first = null;
        String cause = null;
        for (JsonNode error : errors) {
            for (String line : error.asText().split("\n")) {
                if (first == null && !line.isBlank()) {
                    first = line.trim();
                }
                if (line.startsWith("Caused by: ")) {
                    cause = line.substring("Caused by: ".length()).trim();
                }
            }
        }
        return cause != null ? cause : first != null ? first : errors.toString();
    }

    private static void await(String what, Duration timeout, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (IllegalStateException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Waiting for " + what, e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
    }
}

package io.sluice.it.flink;

import org.apache.flink.api.common.JobID;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Sluice's metrics of a running job as the web UI shows them, read from the REST API. The REST
 * metric store fills asynchronously (every {@code metrics.fetcher.update-interval}), so callers
 * poll until the metrics they need are there.
 */
public final class JobMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JobMetrics() {}

    /**
     * Every metric of the {@code sluice} group, summed over all vertices and subtasks, by its name
     * below the operator (e.g. {@code sluice.rowsIn}); empty before the store has them.
     */
    public static Map<String, Long> sums(URI rest, JobID job)
            throws IOException, InterruptedException {
        String base = rest.toString().replaceAll("/$", "") + "/jobs/" + job;
        Map<String, Long> sums = new TreeMap<>();
        for (JsonNode vertex : get(base).path("vertices")) {
            String vertexUrl = base + "/vertices/" + vertex.path("id").asText();
            List<String> ids = new ArrayList<>();
            for (JsonNode metric : get(vertexUrl + "/subtasks/metrics")) {
                String id = metric.path("id").asText();
                if (id.contains(".sluice.")) {
                    ids.add(id);
                }
            }
            if (ids.isEmpty()) {
                continue;
            }
            String query = String.join(",", ids);
            for (JsonNode metric : get(vertexUrl + "/subtasks/metrics?agg=sum&get=" + query)) {
                String id = metric.path("id").asText();
                String name = id.substring(id.indexOf(".sluice.") + 1);
                sums.merge(name, (long) metric.path("sum").asDouble(), Long::sum);
            }
        }
        return sums;
    }

    /**
     * Every metric of the {@code sluice} group of the vertices' coordinators on the JobManager (a
     * source's split enumerator), summed, by its name from {@code sluice} on; empty before the
     * store has them.
     */
    public static Map<String, Long> coordinatorSums(URI rest, JobID job)
            throws IOException, InterruptedException {
        String base = rest.toString().replaceAll("/$", "") + "/jobs/" + job;
        Map<String, Long> sums = new TreeMap<>();
        for (JsonNode vertex : get(base).path("vertices")) {
            String url = base + "/vertices/" + vertex.path("id").asText() + "/jm-operator-metrics";
            List<String> ids = new ArrayList<>();
            for (JsonNode metric : get(url)) {
                String id = metric.path("id").asText();
                if (id.contains("sluice.")) {
                    ids.add(id);
                }
            }
            if (ids.isEmpty()) {
                continue;
            }
            // Coordinator metric ids hold the vertex name ("a -> b"): encode each.
            String query =
                    ids.stream()
                            .map(id -> URLEncoder.encode(id, StandardCharsets.UTF_8))
                            .collect(Collectors.joining(","));
            for (JsonNode metric : get(url + "?get=" + query)) {
                String id = metric.path("id").asText();
                String name = id.substring(id.indexOf("sluice."));
                sums.merge(name, (long) metric.path("value").asDouble(), Long::sum);
            }
        }
        return sums;
    }

    /**
     * The value of the metric {@code name} (e.g. {@code sluice.rowsIn}) of the operator whose name
     * starts with {@code operator} (e.g. {@code Normalize}) in each subtask; empty before the store
     * has it.
     */
    public static Map<Integer, Long> bySubtask(URI rest, JobID job, String operator, String name)
            throws IOException, InterruptedException {
        String base = rest.toString().replaceAll("/$", "") + "/jobs/" + job;
        Map<Integer, Long> values = new TreeMap<>();
        for (JsonNode vertex : get(base).path("vertices")) {
            String vertexUrl = base + "/vertices/" + vertex.path("id").asText();
            for (JsonNode metric : get(vertexUrl + "/subtasks/metrics")) {
                String id = metric.path("id").asText();
                if (!id.startsWith(operator) || !id.endsWith("." + name)) {
                    continue;
                }
                for (int subtask = 0; subtask < vertex.path("parallelism").asInt(); subtask++) {
                    String url = vertexUrl + "/subtasks/" + subtask + "/metrics?get=" + id;
                    for (JsonNode value : get(url)) {
                        values.put(subtask, (long) value.path("value").asDouble());
                    }
                }
                return values;
            }
        }
        return values;
    }

    /**
     * The values of the metric {@code name} (e.g. {@code sluice.serverUuid}, a text gauge) in every
     * subtask that has it, as text; empty before the store has them.
     */
    public static List<String> texts(URI rest, JobID job, String name)
            throws IOException, InterruptedException {
        String base = rest.toString().replaceAll("/$", "") + "/jobs/" + job;
        List<String> values = new ArrayList<>();
        for (JsonNode vertex : get(base).path("vertices")) {
            String vertexUrl = base + "/vertices/" + vertex.path("id").asText();
            for (JsonNode metric : get(vertexUrl + "/subtasks/metrics")) {
                String id = metric.path("id").asText();
                if (!id.endsWith("." + name)) {
                    continue;
                }
                for (int subtask = 0; subtask < vertex.path("parallelism").asInt(); subtask++) {
                    String url =
                            vertexUrl
                                    + "/subtasks/"
                                    + subtask
                                    + "/metrics?get="
                                    + URLEncoder.encode(id, StandardCharsets.UTF_8);
                    for (JsonNode value : get(url)) {
                        values.add(value.path("value").asText());
                    }
                }
            }
        }
        return values;
    }

    private static JsonNode get(String url) throws IOException, InterruptedException {
        return JSON.readTree(JobExceptions.body(url));
    }
}

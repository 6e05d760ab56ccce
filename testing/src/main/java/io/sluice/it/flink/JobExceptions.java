package io.sluice.it.flink;

import org.apache.flink.api.common.JobID;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A job's failures as the web UI's exceptions tab shows them, read from the REST API. */
public final class JobExceptions {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final int failures;
    private final String rootException;

    private JobExceptions(int failures, String rootException) {
        this.failures = failures;
        this.rootException = rootException;
    }

    /** The job's exception history. */
    public static JobExceptions of(URI rest, JobID job) throws IOException, InterruptedException {
        JsonNode body = JSON.readTree(get(rest, "/jobs/" + job + "/exceptions"));
        JsonNode history = body.path("exceptionHistory").path("entries");
        String root =
                history.size() > 0
                        ? history.get(0).path("stacktrace").asText()
                        : body.path("root-exception").asText();
        return new JobExceptions(history.size(), root);
    }

    /** The body of a GET of {@code path} from the REST API, e.g. {@code /jobmanager/config}. */
    public static String get(URI rest, String path) throws IOException, InterruptedException {
        return body(rest.toString().replaceAll("/$", "") + path);
    }

    /** The body of a GET of {@code url}; fails on any answer but 200. */
    static String body(String url) throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** How many times the job failed (each restart follows one failure). */
    public int failures() {
        return failures;
    }

    /** The stack trace of the latest failure, its message on the first line. */
    public String rootException() {
        return rootException;
    }
}

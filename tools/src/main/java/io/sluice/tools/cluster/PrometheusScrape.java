package io.sluice.tools.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text endpoint (format 0.0.4): samples by metric name. */
public final class PrometheusScrape {

    private static final Pattern SAMPLE =
            Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** A sample: labels and value. */
    public record Sample(Map<String, String> labels, double value) {}

    private final Map<String, List<Sample>> samples;

    private PrometheusScrape(Map<String, List<Sample>> samples) {
        this.samples = samples;
    }

    /** GETs {@code endpoint} and parses it. */
    public static PrometheusScrape of(URI endpoint) {
        try {
            HttpResponse<String> response =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(endpoint)
                                            .timeout(Duration.ofSeconds(30))
                                            .GET()
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        endpoint + " answered " + response.statusCode() + ": " + response.body());
            }
            return parse(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot scrape " + endpoint, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted scraping " + endpoint, e);
        }
    }

    public static PrometheusScrape parse(String text) {
        Map<String, List<Sample>> samples = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line.trim());
            if (!sample.matches()) {
                throw new IllegalArgumentException("Not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new TreeMap<>();
            if (sample.group(3) != null) {
                Matcher label = LABEL.matcher(sample.group(3));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.computeIfAbsent(sample.group(1), n -> new ArrayList<>())
                    .add(new Sample(labels, Double.parseDouble(sample.group(4))));
        }
        return new PrometheusScrape(samples);
    }

    /** {@code value} as Flink's Prometheus reporter writes label values. */
    public static String labelValue(String value) {
        return value.replaceAll("[^a-zA-Z0-9:_]", "_");
    }

    /** Every metric name. */
    public Set<String> names() {
        return samples.keySet();
    }

    /** The samples of {@code name}; empty if absent. */
    public List<Sample> samples(String name) {
        return samples.getOrDefault(name, List.of());
    }

    /** The sum over every sample of {@code name} (all subtasks, operators, topics). */
    public double sum(String name) {
        return samples(name).stream().mapToDouble(Sample::value).sum();
    }

    /**
     * The sum over the samples of {@code name} whose {@code label} contains {@code part}. Flink's
     * reporter writes label values with every character outside {@code [a-zA-Z0-9:_]} as {@code _}
     * (a topic {@code a-b} is {@code a_b}), so {@code part} is compared in that form.
     */
    public double sum(String name, String label, String part) {
        String filtered = labelValue(part);
        return samples(name).stream()
                .filter(s -> s.labels().getOrDefault(label, "").contains(filtered))
                .mapToDouble(Sample::value)
                .sum();
    }
}

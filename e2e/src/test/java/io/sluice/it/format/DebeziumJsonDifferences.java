package io.sluice.it.format;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.it.format.DebeziumJsonJudgeITCase.Message;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The differences between Debezium's records and Sluice's debezium-json that {@code
 * docs/formats.md} allows, and only those: each is masked in both records before they are compared
 * as JSON trees. Any other difference fails.
 */
final class DebeziumJsonDifferences {

    /** Fields of {@code payload.source} that may differ (docs/formats.md, "Differences"). */
    static final List<String> SOURCE_FIELDS =
            List.of(
                    // Which program wrote it: Debezium's version, Sluice's name.
                    "version",
                    // Debezium takes MySQL 8's commit time in microseconds, Sluice the event
                    // header's seconds.
                    "ts_ms",
                    "ts_us",
                    "ts_ns",
                    // The client connection's thread id: not carried by Sluice's change events.
                    "thread");

    /** Fields of {@code payload} that may differ: when the message was written. */
    static final List<String> PAYLOAD_FIELDS = List.of("ts_ms", "ts_us", "ts_ns");

    private DebeziumJsonDifferences() {}

    /** Asserts that {@code actual} (Sluice) is {@code expected} (Debezium) but for the allowed. */
    static void assertSame(List<Message> expected, List<Message> actual) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            Message want = i < expected.size() ? expected.get(i) : null;
            Message got = i < actual.size() ? actual.get(i) : null;
            if (want == null || got == null) {
                problems.add("#" + i + ": Debezium " + want + "\n      Sluice   " + got);
                continue;
            }
            JsonNode wantKey = masked(want.key());
            JsonNode gotKey = masked(got.key());
            JsonNode wantValue = masked(want.value());
            JsonNode gotValue = masked(got.value());
            maskNullsAsDefaults(wantValue, gotValue);
            if (!want.table().equals(got.table())
                    || !equal(wantKey, gotKey)
                    || !equal(wantValue, gotValue)) {
                List<String> paths = new ArrayList<>();
                diff("key", wantKey, gotKey, paths);
                diff("value", wantValue, gotValue, paths);
                problems.add(
                        "#"
                                + i
                                + " ("
                                + want.table()
                                + (want.table().equals(got.table()) ? "" : " vs " + got.table())
                                + "): "
                                + String.join("; ", paths));
            }
        }
        assertThat(problems)
                .as("records that differ from Debezium's beyond docs/formats.md's list")
                .isEmpty();
    }

    /** Where two trees differ: each path with Debezium's and Sluice's value. */
    static void diff(String path, JsonNode want, JsonNode got, List<String> out) {
        if (want == null || got == null || want.isObject() != got.isObject()) {
            if (!equal(want, got)) {
                out.add(path + ": Debezium " + want + ", Sluice " + got);
            }
            return;
        }
        if (want.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            want.fieldNames().forEachRemaining(names::add);
            got.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                diff(path + "." + name, want.get(name), got.get(name), out);
            }
        } else if (want.isArray() && got.isArray() && want.size() == got.size()) {
            for (int i = 0; i < want.size(); i++) {
                diff(path + "[" + i + "]", want.get(i), got.get(i), out);
            }
        } else if (!want.equals(got)) {
            out.add(path + ": Debezium " + want + ", Sluice " + got);
        }
    }

    /**
     * Kafka Connect's JsonConverter writes a column's DEFAULT for its NULL ({@code
     * replace.null.with.default}, true by default); Sluice knows no defaults and writes null.
     */
    static void maskNullsAsDefaults(JsonNode want, JsonNode got) {
        if (want == null || got == null) {
            return;
        }
        JsonNode wantPayload = want.has("payload") ? want.get("payload") : want;
        JsonNode gotPayload = got.has("payload") ? got.get("payload") : got;
        for (JsonNode field : want.path("schema").path("fields")) {
            String image = field.path("field").asText();
            if (!image.equals("before") && !image.equals("after")) {
                continue;
            }
            for (JsonNode column : field.path("fields")) {
                String name = column.path("field").asText();
                JsonNode wantRow = wantPayload.path(image);
                JsonNode gotRow = gotPayload.path(image);
                if (column.has("default")
                        && wantRow.isObject()
                        && gotRow.isObject()
                        && gotRow.path(name).isNull()
                        && wantRow.path(name).equals(column.get("default"))) {
                    ((ObjectNode) wantRow).put(name, "(null or its default)");
                    ((ObjectNode) gotRow).put(name, "(null or its default)");
                }
            }
        }
        removeDefaults(want);
        removeDefaults(got);
    }

    private static boolean equal(JsonNode a, JsonNode b) {
        return a == null ? b == null : a.equals(b);
    }

    /** A copy with the allowed differences blanked out. */
    static JsonNode masked(JsonNode record) {
        if (record == null) {
            return null;
        }
        JsonNode copy = record.deepCopy();
        JsonNode payload = copy.has("payload") ? copy.get("payload") : copy;
        if (payload.has("source") && payload.get("source").isObject()) {
            ObjectNode source = (ObjectNode) payload.get("source");
            SOURCE_FIELDS.forEach(field -> source.put(field, "(masked)"));
        }
        if (payload.isObject() && payload.has("op")) {
            PAYLOAD_FIELDS.forEach(field -> ((ObjectNode) payload).put(field, "(masked)"));
        }
        return copy;
    }

    /** Column defaults are not in Sluice's model of a table: no field schema has "default". */
    private static void removeDefaults(JsonNode record) {
        for (JsonNode field : record.path("schema").path("fields")) {
            if (field.path("field").asText().matches("before|after")) {
                for (JsonNode column : field.path("fields")) {
                    ((ObjectNode) column).remove("default");
                }
            }
        }
    }
}

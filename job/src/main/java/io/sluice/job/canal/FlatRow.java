package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row (or one statement) of a Canal FlatMessage, with where its message was: a message of n
 * rows gives n of these, so that Canal's multi-row messages pair with Sluice's rows one by one. A
 * row of a binary entry ({@link BinaryMessage}) is one too: its FlatMessage form (as Canal's
 * converter makes it) and every field of its protobuf entry, row and columns ({@link #binary}).
 */
final class FlatRow {

    final String topic;
    final int partition;
    final long offset;
    final boolean keyed;
    final JsonNode message;

    /** The row's index in the message's {@code data}, -1 for a statement. */
    final int index;

    /** Where in its message the row is: {@code [index]}, or {@code #entry[row]} when binary. */
    private final String at;

    /** A binary row's protobuf fields ({@code header.*}, {@code after.c.isNull}, ...), or null. */
    final Map<String, String> binary;

    private FlatRow(
            String topic,
            int partition,
            long offset,
            boolean keyed,
            JsonNode message,
            int index,
            String at,
            Map<String, String> binary) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.keyed = keyed;
        this.message = message;
        this.index = index;
        this.at = at;
        this.binary = binary;
    }

    /** A row ({@code message} has one in {@code data}) or statement of a binary entry. */
    static FlatRow binary(
            String topic,
            int partition,
            long offset,
            boolean keyed,
            JsonNode message,
            boolean statement,
            String at,
            Map<String, String> fields) {
        return new FlatRow(
                topic, partition, offset, keyed, message, statement ? -1 : 0, at, fields);
    }

    /** The rows of one message; a message without {@code data} is one statement. */
    static List<FlatRow> of(
            String topic, int partition, long offset, boolean keyed, JsonNode message) {
        List<FlatRow> rows = new ArrayList<>();
        JsonNode data = message.path("data");
        if (!data.isArray() || data.size() == 0) {
            rows.add(new FlatRow(topic, partition, offset, keyed, message, -1, "", null));
        } else {
            for (int i = 0; i < data.size(); i++) {
                rows.add(
                        new FlatRow(
                                topic, partition, offset, keyed, message, i, "[" + i + "]", null));
            }
        }
        return rows;
    }

    String database() {
        return message.path("database").asText("");
    }

    String table() {
        return message.path("table").asText("");
    }

    String type() {
        return message.path("type").asText("");
    }

    boolean isDdl() {
        return message.path("isDdl").asBoolean(false);
    }

    boolean isStatement() {
        return index < 0;
    }

    long es() {
        return message.path("es").asLong();
    }

    String text(String field) {
        JsonNode node = message.path(field);
        return node.isMissingNode() || node.isNull() ? null : node.asText();
    }

    /** The row's values (after image; before image for DELETE), null as null. */
    Map<String, String> data() {
        return values(message.path("data").path(index));
    }

    /** The row's {@code old} values, or null when the message has none. */
    Map<String, String> old() {
        JsonNode old = message.path("old");
        return old.isArray() && index >= 0 ? values(old.path(index)) : null;
    }

    Map<String, String> typeMap(String field) {
        return values(message.path(field));
    }

    List<String> pkNames() {
        List<String> names = new ArrayList<>();
        message.path("pkNames").forEach(n -> names.add(n.asText()));
        return names;
    }

    /** The primary-key values of the row (all values without a key), as text. */
    String keyText() {
        return keyText(data());
    }

    String keyText(Map<String, String> values) {
        List<String> pk = pkNames();
        if (pk.isEmpty()) {
            return values.toString();
        }
        StringBuilder key = new StringBuilder();
        for (String column : pk) {
            key.append(key.length() == 0 ? "" : ",")
                    .append(column)
                    .append('=')
                    .append(values.get(column));
        }
        return key.toString();
    }

    /** Where the row is, for examples: topic-partition@offset[index] (binary: #entry[row]). */
    String where() {
        return topic + "-" + partition + "@" + offset + at;
    }

    private static Map<String, String> values(JsonNode object) {
        Map<String, String> values = new LinkedHashMap<>();
        if (object == null || !object.isObject()) {
            return values;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            values.put(
                    field.getKey(), field.getValue().isNull() ? null : field.getValue().asText());
        }
        return values;
    }
}

package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes a Debezium JSON change as it is, keyed by {@code database.table}, with the binlog execute
 * time as the record timestamp (snapshot rows have none and get the produce time).
 *
 * <p>This is the walking skeleton's encoding; the Canal-compatible encoders replace it.
 */
@Internal
public final class DebeziumJsonKafkaSerializationSchema
        implements KafkaRecordSerializationSchema<String> {

    private static final long serialVersionUID = 1L;
    private static final JsonFactory JSON = new JsonFactory();

    private final String topic;

    public DebeziumJsonKafkaSerializationSchema(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            String change, KafkaSinkContext context, Long timestamp) {
        byte[] value = change.getBytes(StandardCharsets.UTF_8);
        Source source = Source.of(value);
        byte[] key = (source.database + '.' + source.table).getBytes(StandardCharsets.UTF_8);
        Long executeTime = source.executeTimeMs > 0 ? source.executeTimeMs : null;
        return new ProducerRecord<>(topic, null, executeTime, key, value);
    }

    /** The fields of Debezium's {@code source} block that routing needs. */
    static final class Source {
        final String database;
        final String table;
        final long executeTimeMs;

        private Source(String database, String table, long executeTimeMs) {
            this.database = database;
            this.table = table;
            this.executeTimeMs = executeTimeMs;
        }

        static Source of(byte[] json) {
            try (JsonParser parser = JSON.createParser(json)) {
                expect(parser.nextToken() == JsonToken.START_OBJECT, json);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    if ("source".equals(field)) {
                        return readSource(parser);
                    }
                    parser.skipChildren();
                }
                throw new IllegalArgumentException(
                        "Debezium change has no 'source' block: " + preview(json));
            } catch (IOException e) {
                throw new UncheckedIOException("Unreadable Debezium change: " + preview(json), e);
            }
        }

        private static Source readSource(JsonParser parser) throws IOException {
            String database = null;
            String table = null;
            long ts = 0;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "db":
                        database = parser.getValueAsString();
                        break;
                    case "table":
                        table = parser.getValueAsString();
                        break;
                    case "ts_ms":
                        ts = value == JsonToken.VALUE_NUMBER_INT ? parser.getLongValue() : 0;
                        break;
                    default:
                        parser.skipChildren();
                }
            }
            return new Source(database, table, ts);
        }

        private static void expect(boolean condition, byte[] json) {
            if (!condition) {
                throw new IllegalArgumentException(
                        "Debezium change is not a JSON object: " + preview(json));
            }
        }

        private static String preview(byte[] json) {
            String text = new String(json, StandardCharsets.UTF_8);
            return text.length() > 200 ? text.substring(0, 200) + "..." : text;
        }
    }
}

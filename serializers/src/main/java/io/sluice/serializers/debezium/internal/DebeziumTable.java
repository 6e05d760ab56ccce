package io.sluice.serializers.debezium.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.io.SerializedString;
import io.sluice.serializers.event.TableSchema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * What a table version's Debezium messages share, rendered once: each column's writer, the field
 * names, and the JSON schemas of the key ({@code <prefix>.<db>.<table>.Key}) and of the envelope
 * ({@code <prefix>.<db>.<table>.Envelope}, version 2, with {@code before}/{@code after} of {@code
 * <prefix>.<db>.<table>.Value}, Debezium's MySQL {@code source} block and the {@code transaction}
 * block), in Kafka Connect JsonConverter's field order.
 */
public final class DebeziumTable {

    /** Debezium 3's {@code io.debezium.connector.mysql.Source} schema, version 1. */
    private static final String SOURCE_SCHEMA =
            "{\"type\":\"struct\",\"fields\":["
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"version\"},"
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"connector\"},"
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"name\"},"
                    + "{\"type\":\"int64\",\"optional\":false,\"field\":\"ts_ms\"},"
                    + "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Enum\","
                    + "\"version\":1,\"parameters\":{\"allowed\":\"true,first,"
                    + "first_in_data_collection,last_in_data_collection,last,false,incremental\"},"
                    + "\"default\":\"false\",\"field\":\"snapshot\"},"
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"db\"},"
                    + "{\"type\":\"string\",\"optional\":true,\"field\":\"sequence\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_us\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ns\"},"
                    + "{\"type\":\"string\",\"optional\":true,\"field\":\"table\"},"
                    + "{\"type\":\"int64\",\"optional\":false,\"field\":\"server_id\"},"
                    + "{\"type\":\"string\",\"optional\":true,\"field\":\"gtid\"},"
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"file\"},"
                    + "{\"type\":\"int64\",\"optional\":false,\"field\":\"pos\"},"
                    + "{\"type\":\"int32\",\"optional\":false,\"field\":\"row\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"thread\"},"
                    + "{\"type\":\"string\",\"optional\":true,\"field\":\"query\"}],"
                    + "\"optional\":false,\"name\":\"io.debezium.connector.mysql.Source\","
                    + "\"version\":1,\"field\":\"source\"}";

    /** The transaction block's schema ({@code event.block}, version 1). */
    private static final String TRANSACTION_SCHEMA =
            "{\"type\":\"struct\",\"fields\":["
                    + "{\"type\":\"string\",\"optional\":false,\"field\":\"id\"},"
                    + "{\"type\":\"int64\",\"optional\":false,\"field\":\"total_order\"},"
                    + "{\"type\":\"int64\",\"optional\":false,\"field\":\"data_collection_order\"}],"
                    + "\"optional\":true,\"name\":\"event.block\",\"version\":1,"
                    + "\"field\":\"transaction\"}";

    private static final String ENVELOPE_TAIL =
            "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ms\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_us\"},"
                    + "{\"type\":\"int64\",\"optional\":true,\"field\":\"ts_ns\"}],";

    private final TableSchema schema;
    private final DebeziumColumn[] columns;
    private final SerializedString[] names;
    private final SerializedString keySchema;
    private final SerializedString valueSchema;

    private DebeziumTable(
            TableSchema schema,
            DebeziumColumn[] columns,
            SerializedString[] names,
            byte[] keySchema,
            byte[] valueSchema) {
        this.schema = schema;
        this.columns = columns;
        this.names = names;
        this.keySchema = keySchema == null ? null : utf8(keySchema);
        this.valueSchema = utf8(valueSchema);
    }

    /** Renders {@code schema}'s parts; {@code prefix} is Debezium's {@code topic.prefix}. */
    public static DebeziumTable of(TableSchema schema, String prefix, JsonFactory json) {
        int n = schema.columnCount();
        DebeziumColumn[] columns = new DebeziumColumn[n];
        SerializedString[] names = new SerializedString[n];
        for (int c = 0; c < n; c++) {
            // Sluice's model has no nullability: key columns are NOT NULL, the rest nullable.
            columns[c] = DebeziumColumn.of(schema.name(c), schema.mysqlType(c), !schema.isKey(c));
            names[c] = new SerializedString(schema.name(c));
        }
        String base = prefix + "." + schema.database() + "." + schema.table();
        try {
            return new DebeziumTable(
                    schema,
                    columns,
                    names,
                    keySchema(schema, columns, base, json),
                    valueSchema(columns, base, json));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot render the Debezium schema of " + schema, e);
        }
    }

    public TableSchema schema() {
        return schema;
    }

    public int columnCount() {
        return columns.length;
    }

    public DebeziumColumn column(int c) {
        return columns[c];
    }

    public SerializedString name(int c) {
        return names[c];
    }

    /** The key's JSON schema; null for a table without a primary key. */
    public SerializedString keySchemaString() {
        return keySchema;
    }

    /** The envelope's JSON schema. */
    public SerializedString valueSchemaString() {
        return valueSchema;
    }

    private static SerializedString utf8(byte[] json) {
        return new SerializedString(new String(json, StandardCharsets.UTF_8));
    }

    private static byte[] keySchema(
            TableSchema schema, DebeziumColumn[] columns, String base, JsonFactory json)
            throws IOException {
        if (schema.keyColumnCount() == 0) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator out = json.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeStringField("type", "struct");
            out.writeArrayFieldStart("fields");
            for (int k = 0; k < schema.keyColumnCount(); k++) {
                columns[schema.keyColumn(k)].writeSchema(out);
            }
            out.writeEndArray();
            out.writeBooleanField("optional", false);
            out.writeStringField("name", base + ".Key");
            out.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private static byte[] valueSchema(DebeziumColumn[] columns, String base, JsonFactory json)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator out = json.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeStringField("type", "struct");
            out.writeArrayFieldStart("fields");
            for (String field : new String[] {"before", "after"}) {
                out.writeStartObject();
                out.writeStringField("type", "struct");
                out.writeArrayFieldStart("fields");
                for (DebeziumColumn column : columns) {
                    column.writeSchema(out);
                }
                out.writeEndArray();
                out.writeBooleanField("optional", true);
                out.writeStringField("name", base + ".Value");
                out.writeStringField("field", field);
                out.writeEndObject();
            }
            out.writeRaw(',');
            out.writeRaw(SOURCE_SCHEMA);
            out.writeRaw(',');
            out.writeRaw(TRANSACTION_SCHEMA);
            out.writeRaw(',');
            out.writeRaw(ENVELOPE_TAIL);
            // Raw to the end: the generator still thinks it is in the fields array.
            out.writeRaw("\"optional\":false,\"name\":\"");
            out.writeRaw(
                    new String(JsonStringEncoder.getInstance().quoteAsString(base + ".Envelope")));
            out.writeRaw("\",\"version\":2}");
            out.flush();
        }
        return bytes.toByteArray();
    }
}

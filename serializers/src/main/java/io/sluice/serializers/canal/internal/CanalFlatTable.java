package io.sluice.serializers.canal.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.sluice.serializers.event.TableSchema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The parts of a flat message that depend only on the table schema, encoded once per schema: the
 * column names as field names, the database and table names, and the whole {@code mysqlType},
 * {@code sqlType} and {@code pkNames} values.
 *
 * <p>Sluice fixes {@code sqlType} by declared type, so these three values are constants of the
 * schema and are written as pre-rendered JSON instead of being rebuilt for every message.
 */
public final class CanalFlatTable {

    private final TableSchema schema;
    private final byte[][] fieldPrefixes;
    private final byte[] afterData;
    private final byte[] isDdlToOld;
    private final byte[] pkNamesToTs;

    private CanalFlatTable(TableSchema schema, JsonFactory json) {
        this.schema = schema;
        int n = schema.columnCount();
        SerializedString[] names = new SerializedString[n];
        byte[][] prefixes = new byte[n][];
        for (int i = 0; i < n; i++) {
            names[i] = encoded(schema.name(i));
            prefixes[i] = FlatRowWriter.fieldPrefix(schema.name(i));
        }
        this.fieldPrefixes = prefixes;
        // Canal leaves a map null when it would be empty, and pkNames null without a primary key.
        SerializedString mysqlTypes =
                n == 0 ? null : render(json, out -> writeMysqlTypes(out, schema, names));
        SerializedString sqlTypes =
                n == 0 ? null : render(json, out -> writeSqlTypes(out, schema, names));
        SerializedString pkNames =
                schema.keyColumnCount() == 0
                        ? null
                        : render(json, out -> writePkNames(out, schema, names));
        // The runs of a row message that only the table decides, between the varying fields.
        this.afterData =
                concat(",\"database\":", FlatRowWriter.quotedString(schema.database()), ",\"es\":");
        this.isDdlToOld =
                concat(",\"isDdl\":false,\"mysqlType\":", rawOrNull(mysqlTypes), ",\"old\":");
        this.pkNamesToTs =
                concat(
                        ",\"pkNames\":",
                        rawOrNull(pkNames),
                        ",\"sql\":\"\",\"sqlType\":",
                        rawOrNull(sqlTypes),
                        ",\"table\":",
                        FlatRowWriter.quotedString(schema.table()),
                        ",\"ts\":");
    }

    private CanalFlatTable(TableSchema schema, CanalFlatTable encoded) {
        this.schema = schema;
        this.fieldPrefixes = encoded.fieldPrefixes;
        this.afterData = encoded.afterData;
        this.isDdlToOld = encoded.isDdlToOld;
        this.pkNamesToTs = encoded.pkNamesToTs;
    }

    /** Encodes the schema's constant parts with {@code json}, which must be the encoder's. */
    public static CanalFlatTable of(TableSchema schema, JsonFactory json) {
        return new CanalFlatTable(schema, json);
    }

    public TableSchema schema() {
        return schema;
    }

    /** These same encoded parts for {@code equal}, a schema equal to {@link #schema()}. */
    public CanalFlatTable withSchema(TableSchema equal) {
        if (!schema.equals(equal)) {
            throw new IllegalArgumentException(equal + " is not the same schema as " + schema);
        }
        return new CanalFlatTable(equal, this);
    }

    /** The UTF-8 bytes of {@code "name":} for a column, for {@link FlatRowWriter}. */
    public byte[] fieldPrefix(int column) {
        return fieldPrefixes[column];
    }

    /** {@code ,"database":"db","es":} */
    public byte[] afterData() {
        return afterData;
    }

    /** {@code ,"isDdl":false,"mysqlType":{...},"old":} */
    public byte[] isDdlToOld() {
        return isDdlToOld;
    }

    /** {@code ,"pkNames":[...],"sql":"","sqlType":{...},"table":"t","ts":} */
    public byte[] pkNamesToTs() {
        return pkNamesToTs;
    }

    public int columnCount() {
        return fieldPrefixes.length;
    }

    private static void writeMysqlTypes(
            JsonGenerator out, TableSchema schema, SerializedString[] names) throws IOException {
        out.writeStartObject();
        for (int i = 0; i < names.length; i++) {
            out.writeFieldName(names[i]);
            out.writeString(schema.mysqlType(i));
        }
        out.writeEndObject();
    }

    private static void writeSqlTypes(
            JsonGenerator out, TableSchema schema, SerializedString[] names) throws IOException {
        out.writeStartObject();
        for (int i = 0; i < names.length; i++) {
            out.writeFieldName(names[i]);
            out.writeNumber(schema.sqlType(i));
        }
        out.writeEndObject();
    }

    private static void writePkNames(
            JsonGenerator out, TableSchema schema, SerializedString[] names) throws IOException {
        out.writeStartArray();
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            out.writeString(names[schema.keyColumn(k)]);
        }
        out.writeEndArray();
    }

    /** A string whose quoted and unquoted UTF-8 forms are computed now, not on first use. */
    private static byte[] rawOrNull(SerializableString json) {
        return json == null ? "null".getBytes(StandardCharsets.US_ASCII) : json.asUnquotedUTF8();
    }

    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(
                    part instanceof String
                            ? ((String) part).getBytes(StandardCharsets.UTF_8)
                            : (byte[]) part);
        }
        return out.toByteArray();
    }

    private static SerializedString encoded(String text) {
        SerializedString encoded = new SerializedString(text);
        encoded.asQuotedUTF8();
        encoded.asUnquotedUTF8();
        return encoded;
    }

    /**
     * Renders a JSON value with the encoder's own factory, so escaping is the same as in the rest
     * of the message; the result is meant for {@code writeRawValue}, which uses its unquoted form.
     */
    private static SerializedString render(JsonFactory json, Part part) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = json.createGenerator(out)) {
            part.write(generator);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot render a schema part as JSON", e);
        }
        return encoded(out.toString(StandardCharsets.UTF_8));
    }

    @FunctionalInterface
    private interface Part {
        void write(JsonGenerator out) throws IOException;
    }
}

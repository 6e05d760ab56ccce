package io.sluice.serializers.debezium;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.canal.internal.CanalFlatSink;
import io.sluice.serializers.debezium.internal.DebeziumTable;
import io.sluice.serializers.debezium.internal.DebeziumValues;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Writes row changes as Debezium 3's MySQL connector does, through Kafka Connect's JsonConverter:
 * the value is the envelope ({@code before}, {@code after}, {@code source}, {@code transaction},
 * {@code op}, {@code ts_ms}, {@code ts_us}, {@code ts_ns}), the key the primary-key struct, each
 * with its JSON schema ({@code {"schema":…,"payload":…}}) or, without schemas, the payload alone.
 * Values as Debezium's default modes render them ({@link DebeziumValues}). A DELETE is followed by
 * a tombstone (a null value under the same key) when {@link DebeziumJsonSettings#tombstones()}.
 *
 * <p>Statements (DDL) have no message here: Debezium writes none to a table's topic. Where the
 * output differs from Debezium's, and why, is in {@code docs/formats.md}.
 *
 * <p>Performance: each table version's schemas are rendered once; values are parsed from the row
 * image's bytes in place and written by one long-lived generator. An instance serves one thread.
 */
public final class DebeziumJsonEncoder implements ChangeEncoder {

    /** No buffer recycling: the generator lives as long as the encoder. */
    private static final JsonFactory JSON =
            new JsonFactoryBuilder()
                    .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                    .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
                    .rootValueSeparator((SerializableString) null)
                    .recyclerPool(JsonRecyclerPools.nonRecyclingPool())
                    .build();

    /** Debezium's {@code source.version}: which Sluice wrote the message. */
    public static final String VERSION = "sluice";

    private static final SerializedString SCHEMA = new SerializedString("schema");
    private static final SerializedString PAYLOAD = new SerializedString("payload");
    private static final SerializedString BEFORE = new SerializedString("before");
    private static final SerializedString AFTER = new SerializedString("after");
    private static final SerializedString SOURCE = new SerializedString("source");
    private static final SerializedString TRANSACTION = new SerializedString("transaction");
    private static final SerializedString OP = new SerializedString("op");
    private static final SerializedString TS_MS = new SerializedString("ts_ms");
    private static final SerializedString TS_US = new SerializedString("ts_us");
    private static final SerializedString TS_NS = new SerializedString("ts_ns");
    private static final SerializedString VERSION_FIELD = new SerializedString("version");
    private static final SerializedString CONNECTOR = new SerializedString("connector");
    private static final SerializedString NAME = new SerializedString("name");
    private static final SerializedString SNAPSHOT = new SerializedString("snapshot");
    private static final SerializedString DB = new SerializedString("db");
    private static final SerializedString SEQUENCE = new SerializedString("sequence");
    private static final SerializedString TABLE = new SerializedString("table");
    private static final SerializedString SERVER_ID = new SerializedString("server_id");
    private static final SerializedString GTID = new SerializedString("gtid");
    private static final SerializedString FILE = new SerializedString("file");
    private static final SerializedString POS = new SerializedString("pos");
    private static final SerializedString ROW = new SerializedString("row");
    private static final SerializedString THREAD = new SerializedString("thread");
    private static final SerializedString QUERY = new SerializedString("query");

    private static final int CACHED_TABLES = 8;

    private final DebeziumJsonSettings settings;
    private final SerializedString prefixName;
    private final DebeziumValues values;
    private final CanalFlatSink sink = new CanalFlatSink(4 * 1024, 1024 * 1024);
    private final TableSlot[] tables = new TableSlot[CACHED_TABLES];
    private int nextSlot;
    private JsonGenerator generator = newGenerator(sink);

    public DebeziumJsonEncoder(DebeziumJsonSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings must not be null");
        this.prefixName = new SerializedString(settings.topicPrefix());
        this.values = new DebeziumValues(settings.timestampZone());
    }

    public DebeziumJsonSettings settings() {
        return settings;
    }

    /**
     * Whether a tombstone (the key with a null value) follows {@code change}'s message: after each
     * DELETE when tombstones are on, as Debezium's {@code tombstones.on.delete}.
     */
    public boolean tombstoneAfter(ChangeEvent change) {
        return settings.tombstones() && change.type() == ChangeType.DELETE;
    }

    /**
     * The message key of a row change: the primary-key struct, or null for a table without a
     * primary key (as Debezium) and for statements.
     */
    public byte[] key(ChangeEvent change) {
        if (!change.isRow() || change.schema().keyColumnCount() == 0) {
            return null;
        }
        DebeziumTable table = table(change.schema());
        RowImage row = change.data();
        try {
            JsonGenerator out = generator;
            if (settings.schemas()) {
                out.writeStartObject();
                out.writeFieldName(SCHEMA);
                out.writeRawValue(table.keySchemaString());
                out.writeFieldName(PAYLOAD);
            }
            out.writeStartObject();
            TableSchema schema = change.schema();
            for (int k = 0; k < schema.keyColumnCount(); k++) {
                int c = schema.keyColumn(k);
                out.writeFieldName(table.name(c));
                values.write(out, table.column(c), row, c);
            }
            out.writeEndObject();
            if (settings.schemas()) {
                out.writeEndObject();
            }
            return sink.drain(out);
        } catch (IOException | RuntimeException e) {
            throw failed(change, e);
        }
    }

    /** The value of a row change: Debezium's envelope. */
    public byte[] value(ChangeEvent change, long buildTime) {
        if (!change.isRow()) {
            throw new IllegalArgumentException(
                    "debezium-json writes row changes only, but got a "
                            + change.type()
                            + " of "
                            + change.database()
                            + "."
                            + change.table());
        }
        DebeziumTable table = table(change.schema());
        try {
            JsonGenerator out = generator;
            if (settings.schemas()) {
                out.writeStartObject();
                out.writeFieldName(SCHEMA);
                out.writeRawValue(table.valueSchemaString());
                out.writeFieldName(PAYLOAD);
            }
            writePayload(out, table, change, buildTime);
            if (settings.schemas()) {
                out.writeEndObject();
            }
            return sink.drain(out);
        } catch (IOException | RuntimeException e) {
            throw failed(change, e);
        }
    }

    @Override
    public byte[] encode(List<ChangeEvent> changes, long messageId, long buildTime) {
        if (changes.size() != 1) {
            throw new IllegalArgumentException(
                    "debezium-json writes one row per message, but got " + changes.size());
        }
        return value(changes.get(0), buildTime);
    }

    @Override
    public byte[] encode(
            List<ChangeEvent> changes, long messageId, long buildTime, String name, String json) {
        ChangeEncoder.checkPropertyName(name);
        byte[] message = encode(changes, messageId, buildTime);
        // The value is one object: the field goes before its closing brace.
        byte[] field = (",\"" + name + "\":" + json + "}").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(message, message.length - 1 + field.length);
        System.arraycopy(field, 0, out, message.length - 1, field.length);
        return out;
    }

    private void writePayload(JsonGenerator out, DebeziumTable table, ChangeEvent change, long now)
            throws IOException {
        boolean snapshot = change.binlogFile().isEmpty();
        out.writeStartObject();
        out.writeFieldName(BEFORE);
        writeRow(out, table, change.before());
        out.writeFieldName(AFTER);
        writeRow(out, table, change.after());
        out.writeFieldName(SOURCE);
        out.writeStartObject();
        out.writeFieldName(VERSION_FIELD);
        out.writeString(VERSION);
        out.writeFieldName(CONNECTOR);
        out.writeString("mysql");
        out.writeFieldName(NAME);
        out.writeString(prefixName);
        long executed = change.executeTime();
        out.writeFieldName(TS_MS);
        out.writeNumber(executed);
        out.writeFieldName(SNAPSHOT);
        out.writeString(snapshot ? "true" : "false");
        out.writeFieldName(DB);
        out.writeString(change.database());
        out.writeFieldName(SEQUENCE);
        out.writeNull();
        out.writeFieldName(TS_US);
        out.writeNumber(executed * 1_000L);
        out.writeFieldName(TS_NS);
        out.writeNumber(executed * 1_000_000L);
        out.writeFieldName(TABLE);
        out.writeString(change.table());
        out.writeFieldName(SERVER_ID);
        out.writeNumber(change.serverId());
        out.writeFieldName(GTID);
        if (change.gtid().isEmpty()) {
            out.writeNull();
        } else {
            out.writeString(change.gtid());
        }
        out.writeFieldName(FILE);
        out.writeString(change.binlogFile());
        out.writeFieldName(POS);
        out.writeNumber(change.binlogPosition());
        out.writeFieldName(ROW);
        out.writeNumber(change.rowInEvent());
        out.writeFieldName(THREAD);
        out.writeNull();
        out.writeFieldName(QUERY);
        if (change.query().isEmpty()) {
            out.writeNull();
        } else {
            out.writeString(change.query());
        }
        out.writeEndObject();
        out.writeFieldName(TRANSACTION);
        out.writeNull();
        out.writeFieldName(OP);
        out.writeString(op(change.type(), snapshot));
        out.writeFieldName(TS_MS);
        out.writeNumber(now);
        out.writeFieldName(TS_US);
        out.writeNumber(now * 1_000L);
        out.writeFieldName(TS_NS);
        out.writeNumber(now * 1_000_000L);
        out.writeEndObject();
    }

    private void writeRow(JsonGenerator out, DebeziumTable table, RowImage row) throws IOException {
        if (row == null) {
            out.writeNull();
            return;
        }
        out.writeStartObject();
        for (int c = 0, n = table.columnCount(); c < n; c++) {
            out.writeFieldName(table.name(c));
            values.write(out, table.column(c), row, c);
        }
        out.writeEndObject();
    }

    private static String op(ChangeType type, boolean snapshot) {
        switch (type) {
            case INSERT:
                return snapshot ? "r" : "c";
            case UPDATE:
                return "u";
            default:
                return "d";
        }
    }

    private DebeziumTable table(TableSchema schema) {
        for (TableSlot slot : tables) {
            if (slot != null && slot.schema == schema) {
                return slot.table;
            }
        }
        for (TableSlot slot : tables) {
            if (slot != null && slot.schema.equals(schema)) {
                slot.schema = schema; // the next lookup is by identity
                return slot.table;
            }
        }
        DebeziumTable table = DebeziumTable.of(schema, settings.topicPrefix(), JSON);
        tables[nextSlot] = new TableSlot(schema, table);
        nextSlot = (nextSlot + 1) % tables.length;
        return table;
    }

    private RuntimeException failed(ChangeEvent change, Exception e) {
        // Start the next message from a clean generator and an empty sink.
        generator = newGenerator(sink);
        sink.reset();
        String what =
                "Cannot write the Debezium message of "
                        + change.type()
                        + " of "
                        + change.database()
                        + "."
                        + change.table();
        if (e instanceof IOException) {
            return new UncheckedIOException(what, (IOException) e);
        }
        return new IllegalStateException(what + ": " + e.getMessage(), e);
    }

    private static JsonGenerator newGenerator(CanalFlatSink sink) {
        try {
            return JSON.createGenerator(sink);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a JSON generator", e);
        }
    }

    private static final class TableSlot {
        private TableSchema schema;
        private final DebeziumTable table;

        private TableSlot(TableSchema schema, DebeziumTable table) {
            this.schema = schema;
            this.table = table;
        }
    }
}

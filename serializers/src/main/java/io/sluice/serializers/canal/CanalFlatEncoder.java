package io.sluice.serializers.canal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.sluice.serializers.canal.internal.CanalFlatSink;
import io.sluice.serializers.canal.internal.CanalFlatTable;
import io.sluice.serializers.canal.internal.CanalFlatTableCache;
import io.sluice.serializers.canal.internal.FlatRowWriter;
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
 * Writes changes as Canal 1.1.8's FlatMessage JSON, the value of a Kafka or RocketMQ record with
 * {@code canal.mq.flatMessage=true}: the bytes Canal's {@code CanalKafkaProducer} writes with
 * fastjson2, which consumers read back with {@code JSON.parseObject(bytes, FlatMessage.class)}.
 *
 * <p>The output is compact UTF-8 with Canal's key order ({@code data, database, es, gtid, id,
 * isDdl, mysqlType, old, pkNames, sql, sqlType, table, ts, type}), nulls written, and every column
 * value a JSON string or {@code null}. Escaping matches fastjson2's byte for byte: {@code \b \t \n
 * \f \r \" \\}, other control characters as lower-case {@code \}{@code u00xx}, everything else
 * (including ISO-8859-1 characters of binary columns, CJK and emoji) as plain UTF-8.
 *
 * <p>Where Sluice deliberately differs from Canal:
 *
 * <ul>
 *   <li>{@code old} holds, per row, only the columns whose value changed in <em>that</em> row.
 *       Canal collects the updated-column set once per message, so in a multi-row UPDATE a column
 *       changed in an earlier row also shows up in the {@code old} of every later row, even where
 *       it did not change. That is a Canal defect; single-row messages (the usual case with per-key
 *       partitioning) are identical either way.
 *   <li>{@code sqlType} is fixed by each column's declared type ({@link TableSchema#sqlType}), not
 *       taken from the last row's value as in Canal (see {@code docs/dev/canal-format-notes.md}
 *       §1.2).
 *   <li>{@code es} and {@code gtid} come from the first change; Canal takes them from the header of
 *       the one binlog event its rows share.
 * </ul>
 *
 * <p>Performance: row messages, the hot path, are assembled by {@link FlatRowWriter} from runs that
 * Jackson renders once per table schema (column names, database and table, and the schema-constant
 * {@code mysqlType}, {@code sqlType} and {@code pkNames}), values copied from the {@link
 * RowImage}'s UTF-8 bytes with the same escaping; statements go through one long-lived Jackson
 * generator. The only allocation per message is the returned array.
 *
 * <p>An instance serves one thread.
 */
public final class CanalFlatEncoder implements ChangeEncoder {

    /**
     * Jackson set up to write what fastjson2 writes: lower-case hex in control-character escapes
     * (fastjson2 writes 0x0B as backslash, "u000b"), non-ASCII and '/' unescaped. No buffer
     * recycling: the generator lives as long as the encoder, and a thread-local pool would tie its
     * buffer to whichever thread built the encoder.
     */
    static final JsonFactory JSON =
            new JsonFactoryBuilder()
                    .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                    .disable(JsonWriteFeature.ESCAPE_NON_ASCII)
                    .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
                    .enable(JsonWriteFeature.QUOTE_FIELD_NAMES)
                    .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
                    .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
                    .disable(StreamWriteFeature.STRICT_DUPLICATE_DETECTION)
                    .rootValueSeparator((SerializableString) null)
                    .recyclerPool(JsonRecyclerPools.nonRecyclingPool())
                    .build();

    private static final byte[] DATA_ARRAY = ascii("{\"data\":[");
    private static final byte[] DATA_NULL = ascii("{\"data\":null");
    private static final byte[] GTID_FIELD = ascii(",\"gtid\":");
    private static final byte[] ID_FIELD = ascii(",\"id\":");
    private static final byte[] NULL_VALUE = ascii("null");
    private static final byte[][] TYPE_FIELDS = typeFields();
    private static final SerializedString DATA = new SerializedString("data");
    private static final SerializedString DATABASE = new SerializedString("database");
    private static final SerializedString ES = new SerializedString("es");
    private static final SerializedString GTID = new SerializedString("gtid");
    private static final SerializedString ID = new SerializedString("id");
    private static final SerializedString IS_DDL = new SerializedString("isDdl");
    private static final SerializedString MYSQL_TYPE = new SerializedString("mysqlType");
    private static final SerializedString OLD = new SerializedString("old");
    private static final SerializedString PK_NAMES = new SerializedString("pkNames");
    private static final SerializedString SQL = new SerializedString("sql");
    private static final SerializedString SQL_TYPE = new SerializedString("sqlType");
    private static final SerializedString TABLE = new SerializedString("table");
    private static final SerializedString TS = new SerializedString("ts");
    private static final SerializedString TYPE = new SerializedString("type");
    private static final SerializedString EMPTY = new SerializedString("");

    /** Canal's {@code type} text per {@link ChangeType#ordinal()}: the enum constant's name. */
    private static final SerializedString[] TYPE_NAMES = typeNames();

    private static final int INITIAL_BUFFER = 4 * 1024;
    private static final int RETAINED_BUFFER = 1024 * 1024;
    private static final int CACHED_TABLES = 8;

    private final CanalFlatSink sink = new CanalFlatSink(INITIAL_BUFFER, RETAINED_BUFFER);
    private final CanalFlatTableCache tables = new CanalFlatTableCache(JSON, CACHED_TABLES);
    private final FlatRowWriter rowWriter = new FlatRowWriter();

    /** Replaced after a failed message, whose half-written state it would otherwise keep. */
    private JsonGenerator generator = newGenerator(sink);

    @Override
    public byte[] encode(List<ChangeEvent> changes, long messageId, long buildTime) {
        ChangeEvent first = checkOneMessage(changes);
        try {
            if (!first.isRow()) {
                writeStatement(first, messageId, buildTime);
                return sink.drain(generator);
            }
            writeRows(changes, first, tables.get(first.schema()), messageId, buildTime);
            return rowWriter.toByteArray();
        } catch (IOException | RuntimeException e) {
            // Start the next message from a clean generator and an empty sink.
            generator = newGenerator(sink);
            sink.reset();
            if (e instanceof IOException) {
                throw new UncheckedIOException(
                        "Cannot write a flat message of " + describe(first), (IOException) e);
            }
            throw (RuntimeException) e;
        }
    }

    @Override
    public byte[] encode(
            List<ChangeEvent> changes, long messageId, long buildTime, String name, String json) {
        ChangeEncoder.checkPropertyName(name);
        byte[] message = encode(changes, messageId, buildTime);
        // Every message is one compact object: the field goes before its closing brace.
        byte[] field = (",\"" + name + "\":" + json + "}").getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(message, message.length - 1 + field.length);
        System.arraycopy(field, 0, out, message.length - 1, field.length);
        return out;
    }

    /**
     * A row message, assembled in {@link FlatRowWriter} from the table's pre-encoded runs (rendered
     * once per table by the generator) and the varying fields.
     */
    private void writeRows(
            List<ChangeEvent> changes,
            ChangeEvent first,
            CanalFlatTable table,
            long messageId,
            long buildTime) {
        FlatRowWriter message = rowWriter;
        message.reset();
        if (table.columnCount() == 0) {
            message.raw(DATA_NULL); // Canal skips rows without columns, leaving data null
        } else {
            message.raw(DATA_ARRAY);
            for (int i = 0, n = changes.size(); i < n; i++) {
                if (i > 0) {
                    message.raw(',');
                }
                writeAllColumns(message, table, changes.get(i).data());
            }
            message.raw(']');
        }
        message.raw(table.afterData());
        message.number(first.executeTime());
        message.raw(GTID_FIELD);
        message.quoted(first.gtid());
        message.raw(ID_FIELD);
        message.number(messageId);
        message.raw(table.isDdlToOld());
        if (first.type() == ChangeType.UPDATE) {
            message.raw('[');
            for (int i = 0, n = changes.size(); i < n; i++) {
                if (i > 0) {
                    message.raw(',');
                }
                writeChangedColumns(message, table, changes.get(i));
            }
            message.raw(']');
        } else {
            message.raw(NULL_VALUE);
        }
        message.raw(table.pkNamesToTs());
        message.number(buildTime);
        message.raw(TYPE_FIELDS[first.type().ordinal()]);
    }

    /**
     * A DDL or QUERY: no rows, no column maps, the statement in {@code sql}; {@code isDdl} false
     * only for the QUERY of a DML statement.
     */
    private void writeStatement(ChangeEvent change, long messageId, long buildTime)
            throws IOException {
        JsonGenerator out = generator;
        out.writeStartObject();
        out.writeFieldName(DATA);
        out.writeNull();
        out.writeFieldName(DATABASE);
        out.writeString(change.database());
        out.writeFieldName(ES);
        out.writeNumber(change.executeTime());
        out.writeFieldName(GTID);
        out.writeString(change.gtid());
        out.writeFieldName(ID);
        out.writeNumber(messageId);
        out.writeFieldName(IS_DDL);
        out.writeBoolean(change.isDdl());
        out.writeFieldName(MYSQL_TYPE);
        out.writeNull();
        out.writeFieldName(OLD);
        out.writeNull();
        out.writeFieldName(PK_NAMES);
        out.writeNull();
        out.writeFieldName(SQL);
        out.writeString(change.sql());
        out.writeFieldName(SQL_TYPE);
        out.writeNull();
        out.writeFieldName(TABLE);
        out.writeString(change.table());
        out.writeFieldName(TS);
        out.writeNumber(buildTime);
        out.writeFieldName(TYPE);
        out.writeString(TYPE_NAMES[change.type().ordinal()]);
        out.writeEndObject();
    }

    /** One {@code data} row: every column in column order. */
    private static void writeAllColumns(FlatRowWriter out, CanalFlatTable table, RowImage row) {
        out.beginObject();
        for (int c = 0, n = table.columnCount(); c < n; c++) {
            out.field(table.fieldPrefix(c), row, c);
        }
        out.endObject();
    }

    /** One {@code old} row: the before value of each column this row's UPDATE changed. */
    private static void writeChangedColumns(
            FlatRowWriter out, CanalFlatTable table, ChangeEvent change) {
        RowImage before = change.before();
        out.beginObject();
        for (int c = 0, n = table.columnCount(); c < n; c++) {
            if (change.isUpdated(c)) {
                out.field(table.fieldPrefix(c), before, c);
            }
        }
        out.endObject();
    }

    /**
     * Checks that {@code changes} can form one flat message, as Canal builds one from one binlog
     * event: one table schema, one type, and a statement alone. Returns the first change.
     */
    private static ChangeEvent checkOneMessage(List<ChangeEvent> changes) {
        Objects.requireNonNull(changes, "changes must not be null");
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("A flat message needs at least one change");
        }
        ChangeEvent first = Objects.requireNonNull(changes.get(0), "change 0 is null");
        int i = 0;
        for (ChangeEvent change : changes) {
            if (change == null) {
                throw new NullPointerException("change " + i + " is null");
            }
            if (i > 0 && (!first.isRow() || !change.isRow())) {
                throw new IllegalArgumentException(
                        String.format(
                                "A statement (DDL or QUERY) is encoded alone, but change 0 (%s) and change"
                                        + " %d (%s) were given together",
                                describe(first), i, describe(change)));
            }
            if (change.type() != first.type()) {
                throw new IllegalArgumentException(
                        String.format(
                                "One flat message holds changes of one type, but change 0 (%s)"
                                        + " and change %d (%s) differ",
                                describe(first), i, describe(change)));
            }
            if (!sameSchema(first.schema(), change.schema())) {
                throw new IllegalArgumentException(
                        String.format(
                                "One flat message holds changes of one table schema, but change 0"
                                        + " (%s) and change %d (%s) differ%s",
                                describe(first),
                                i,
                                describe(change),
                                sameName(first.schema(), change.schema())
                                        ? " in the table's columns: "
                                                + first.schema()
                                                + " vs "
                                                + change.schema()
                                        : ""));
            }
            i++;
        }
        return first;
    }

    private static boolean sameSchema(TableSchema a, TableSchema b) {
        return a == b || a.equals(b);
    }

    private static boolean sameName(TableSchema a, TableSchema b) {
        return a.database().equals(b.database()) && a.table().equals(b.table());
    }

    /** E.g. "INSERT of shop.orders". */
    private static String describe(ChangeEvent change) {
        return change.type() + " of " + change.database() + "." + change.table();
    }

    private static JsonGenerator newGenerator(CanalFlatSink sink) {
        try {
            return JSON.createGenerator(sink);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a JSON generator", e);
        }
    }

    private static SerializedString[] typeNames() {
        ChangeType[] types = ChangeType.values();
        SerializedString[] names = new SerializedString[types.length];
        for (ChangeType type : types) {
            names[type.ordinal()] = new SerializedString(type.name());
        }
        return names;
    }

    private static byte[] ascii(String json) {
        return json.getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code ,"type":"INSERT"}} and so on, closing a row message. */
    private static byte[][] typeFields() {
        ChangeType[] types = ChangeType.values();
        byte[][] fields = new byte[types.length][];
        for (ChangeType type : types) {
            fields[type.ordinal()] = ascii(",\"type\":\"" + type.name() + "\"}");
        }
        return fields;
    }
}

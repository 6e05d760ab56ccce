package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.io.IOException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Flink's serializer for {@link ChangeEvent}: no Kryo, no reflection.
 *
 * <p>Layout (format {@value #FORMAT_VERSION}): the table schema as a fingerprint, a length and its
 * bytes; the type; a flags byte; the before and after images as their UTF-8 bytes and end offsets;
 * the statement and the binlog coordinates; then, if flagged, the row's query. The writer caches
 * each schema's bytes, so a row costs one copy of them; the reader skips the bytes of a schema it
 * has seen and reuses that instance, so changes of one table share one {@link TableSchema}
 * downstream.
 *
 * <p>Format 2 added the flags {@code NOT_DDL} (a QUERY that is not DDL) and {@code HAS_QUERY} (a
 * row's query after the other fields). Format 1 bytes never set them, so they read unchanged.
 */
@Internal
public final class ChangeEventSerializer extends TypeSerializer<ChangeEvent> {

    private static final long serialVersionUID = 1L;

    /** Version of the record layout; bump and keep reading old versions when it changes. */
    static final int FORMAT_VERSION = 2;

    private static final int HAS_BEFORE = 1;
    private static final int HAS_AFTER = 2;
    private static final int NOT_DDL = 4;
    private static final int HAS_QUERY = 8;
    private static final int KNOWN_FLAGS = HAS_BEFORE | HAS_AFTER | NOT_DDL | HAS_QUERY;
    private static final int MAX_CACHED_SCHEMAS = 4096;

    private static final ChangeEvent EMPTY =
            ChangeEvent.builder(TableSchema.builder("", "").build(), ChangeType.QUERY).build();

    private transient Map<TableSchema, byte[]> written;
    private transient Map<Long, TableSchema> read;
    private transient DataOutputSerializer schemaOut;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<ChangeEvent> duplicate() {
        // Caches are per instance, so every user gets its own.
        return new ChangeEventSerializer();
    }

    @Override
    public ChangeEvent createInstance() {
        // Immutable type: the instance is never reused, only required to exist.
        return EMPTY;
    }

    @Override
    public ChangeEvent copy(ChangeEvent from) {
        return from;
    }

    @Override
    public ChangeEvent copy(ChangeEvent from, ChangeEvent reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(ChangeEvent change, DataOutputView out) throws IOException {
        byte[] schema = schemaBytes(change.schema());
        out.writeLong(change.schema().fingerprint());
        out.writeInt(schema.length);
        out.write(schema);
        out.writeByte(change.type().ordinal());
        RowImage before = change.before();
        RowImage after = change.after();
        boolean hasQuery = !change.query().isEmpty();
        out.writeByte(
                (before != null ? HAS_BEFORE : 0)
                        | (after != null ? HAS_AFTER : 0)
                        | (change.isRow() || change.isDdl() ? 0 : NOT_DDL)
                        | (hasQuery ? HAS_QUERY : 0));
        writeImage(before, out);
        writeImage(after, out);
        StringValue.writeString(change.sql(), out);
        out.writeLong(change.executeTime());
        StringValue.writeString(change.gtid(), out);
        StringValue.writeString(change.binlogFile(), out);
        out.writeLong(change.binlogPosition());
        out.writeInt(change.rowInEvent());
        out.writeLong(change.serverId());
        StringValue.writeString(change.transactionId(), out);
        if (hasQuery) {
            StringValue.writeString(change.query(), out);
        }
    }

    @Override
    public ChangeEvent deserialize(DataInputView in) throws IOException {
        TableSchema schema = readSchema(in);
        ChangeType type = ChangeType.ofOrdinal(in.readUnsignedByte());
        int flags = in.readUnsignedByte();
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw new IOException(
                    "Corrupt change record of " + schema + ": unknown flags " + flags);
        }
        RowImage before = (flags & HAS_BEFORE) != 0 ? readImage(in, schema) : null;
        RowImage after = (flags & HAS_AFTER) != 0 ? readImage(in, schema) : null;
        String sql = StringValue.readString(in);
        long executeTime = in.readLong();
        String gtid = StringValue.readString(in);
        String binlogFile = StringValue.readString(in);
        long binlogPosition = in.readLong();
        int rowInEvent = in.readInt();
        long serverId = in.readLong();
        String transactionId = StringValue.readString(in);
        String query = (flags & HAS_QUERY) != 0 ? StringValue.readString(in) : "";
        ChangeEvent.Builder change = ChangeEvent.builder(schema, type);
        if ((flags & NOT_DDL) != 0) {
            change.ddl(false);
        }
        return change.before(before)
                .after(after)
                .sql(sql)
                .query(query)
                .executeTime(executeTime)
                .gtid(gtid)
                .binlog(binlogFile, binlogPosition, rowInEvent)
                .serverId(serverId)
                .transactionId(transactionId)
                .build();
    }

    @Override
    public ChangeEvent deserialize(ChangeEvent reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ChangeEventSerializer;
    }

    @Override
    public int hashCode() {
        return ChangeEventSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<ChangeEvent> snapshotConfiguration() {
        return new ChangeEventSerializerSnapshot();
    }

    private byte[] schemaBytes(TableSchema schema) throws IOException {
        if (written == null) {
            written = new IdentityHashMap<>();
            schemaOut = new DataOutputSerializer(256);
        }
        byte[] bytes = written.get(schema);
        if (bytes == null) {
            schemaOut.clear();
            writeSchema(schema, schemaOut);
            bytes = schemaOut.getCopyOfBuffer();
            if (written.size() >= MAX_CACHED_SCHEMAS) {
                written.clear();
            }
            written.put(schema, bytes);
        }
        return bytes;
    }

    private TableSchema readSchema(DataInputView in) throws IOException {
        if (read == null) {
            read = new HashMap<>();
        }
        long fingerprint = in.readLong();
        int length = in.readInt();
        TableSchema known = read.get(fingerprint);
        if (known != null) {
            in.skipBytesToRead(length);
            return known;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        TableSchema schema = parseSchema(new DataInputDeserializer(bytes));
        if (schema.fingerprint() != fingerprint) {
            throw new IOException(
                    "Corrupt change record: schema " + schema + " does not match its fingerprint");
        }
        if (read.size() >= MAX_CACHED_SCHEMAS) {
            read.clear();
        }
        read.put(fingerprint, schema);
        return schema;
    }

    private static void writeSchema(TableSchema schema, DataOutputView out) throws IOException {
        StringValue.writeString(schema.database(), out);
        StringValue.writeString(schema.table(), out);
        out.writeInt(schema.columnCount());
        for (int i = 0; i < schema.columnCount(); i++) {
            StringValue.writeString(schema.name(i), out);
            StringValue.writeString(schema.mysqlType(i), out);
            out.writeInt(schema.sqlType(i));
            out.writeBoolean(schema.isKey(i));
        }
    }

    private static TableSchema parseSchema(DataInputView in) throws IOException {
        TableSchema.Builder builder =
                TableSchema.builder(StringValue.readString(in), StringValue.readString(in));
        int columns = in.readInt();
        for (int i = 0; i < columns; i++) {
            builder.column(
                    StringValue.readString(in),
                    StringValue.readString(in),
                    in.readInt(),
                    in.readBoolean());
        }
        return builder.build();
    }

    private static void writeImage(RowImage image, DataOutputView out) throws IOException {
        if (image == null) {
            return;
        }
        byte[] utf8 = image.utf8();
        out.writeInt(utf8.length);
        out.write(utf8);
        for (int end : image.ends()) {
            out.writeInt(end);
        }
    }

    private static RowImage readImage(DataInputView in, TableSchema schema) throws IOException {
        byte[] utf8 = new byte[in.readInt()];
        in.readFully(utf8);
        int[] ends = new int[schema.columnCount()];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = in.readInt();
        }
        try {
            return RowImage.of(utf8, ends);
        } catch (IllegalArgumentException e) {
            throw new IOException("Corrupt row image of " + schema, e);
        }
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import io.debezium.relational.Column;
import io.debezium.relational.ColumnEditor;
import io.debezium.relational.Table;
import io.debezium.relational.TableEditor;
import io.debezium.relational.TableId;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoint form of {@link TableSchemas.State}, so that a restore inside the binlog goes on
 * with the schemas of that point instead of today's {@code information_schema}.
 *
 * <p>Version 1: the server charset, each database's charset, then per table its database, name,
 * default charset, primary key and columns (name, position, type name and expression, JDBC and
 * native type, length, scale, charset, nullability, auto-increment, generated, default, ENUM/SET
 * values, comment). Strings are a length (-1 for null) and UTF-8 bytes.
 */
public final class TableSchemasSerializer implements SimpleVersionedSerializer<TableSchemas.State> {

    public static final TableSchemasSerializer INSTANCE = new TableSchemasSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(TableSchemas.State state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeString(out, state.serverCharset);
            out.writeInt(state.databaseCharsets.size());
            // Sorted, so one state has one form.
            for (Map.Entry<String, String> database :
                    new TreeMap<>(state.databaseCharsets).entrySet()) {
                writeString(out, database.getKey());
                writeString(out, database.getValue());
            }
            out.writeInt(state.tables.size());
            List<Table> tables = new ArrayList<>(state.tables);
            tables.sort(Comparator.comparing(Table::id));
            for (Table table : tables) {
                writeTable(out, table);
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public TableSchemas.State deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Cannot read table schemas of state version "
                            + version
                            + ": this Sluice reads version "
                            + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            String serverCharset = readString(in);
            int databases = in.readInt();
            Map<String, String> databaseCharsets = new HashMap<>();
            for (int i = 0; i < databases; i++) {
                databaseCharsets.put(readString(in), readString(in));
            }
            int count = in.readInt();
            List<Table> tables = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                tables.add(readTable(in));
            }
            if (in.available() > 0) {
                throw new IOException(
                        "Table schemas state has " + in.available() + " bytes after its end");
            }
            return new TableSchemas.State(serverCharset, databaseCharsets, tables);
        }
    }

    private static void writeTable(DataOutputStream out, Table table) throws IOException {
        writeString(out, table.id().catalog());
        writeString(out, table.id().table());
        writeString(out, table.defaultCharsetName());
        writeStrings(out, table.primaryKeyColumnNames());
        out.writeInt(table.columns().size());
        for (Column column : table.columns()) {
            writeString(out, column.name());
            out.writeInt(column.position());
            writeString(out, column.typeName());
            writeString(out, column.typeExpression());
            out.writeInt(column.jdbcType());
            out.writeInt(column.nativeType());
            out.writeInt(column.length());
            out.writeInt(column.scale().orElse(-1));
            writeString(out, column.charsetName());
            out.writeByte(
                    (column.isOptional() ? 1 : 0)
                            | (column.isAutoIncremented() ? 2 : 0)
                            | (column.isGenerated() ? 4 : 0)
                            | (column.hasDefaultValue() ? 8 : 0));
            writeString(out, column.defaultValueExpression().orElse(null));
            writeStrings(out, column.enumValues());
            writeString(out, column.comment());
        }
    }

    private static Table readTable(DataInputStream in) throws IOException {
        TableEditor table =
                Table.editor().tableId(new TableId(readString(in), null, readString(in)));
        table.setDefaultCharsetName(readString(in));
        List<String> keys = readStrings(in);
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            ColumnEditor column = Column.editor().name(readString(in)).position(in.readInt());
            column.type(readString(in), readString(in))
                    .jdbcType(in.readInt())
                    .nativeType(in.readInt())
                    .length(in.readInt());
            int scale = in.readInt();
            column.scale(scale < 0 ? null : scale).charsetName(readString(in));
            int flags = in.readByte();
            column.optional((flags & 1) != 0)
                    .autoIncremented((flags & 2) != 0)
                    .generated((flags & 4) != 0);
            String defaultValue = readString(in);
            if ((flags & 8) != 0) {
                column.defaultValueExpression(defaultValue);
            }
            column.enumValues(readStrings(in)).comment(readString(in));
            table.addColumn(column.create());
        }
        return table.setPrimaryKeyNames(keys).create();
    }

    private static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
        out.writeInt(values == null ? 0 : values.size());
        if (values != null) {
            for (String value : values) {
                writeString(out, value);
            }
        }
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        int count = in.readInt();
        List<String> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(readString(in));
        }
        return values;
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

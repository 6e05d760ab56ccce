package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;

import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Everything needed to convert the rows of one table version, derived once from the Debezium
 * envelope schema: the {@link TableSchema} (names, declared types, sqlTypes, key) and one {@link
 * ValueRenderer} per column, plus the envelope's fields resolved by index.
 */
@Internal
public final class TablePlan {

    /** Only its (absent) default matters: Struct.get(Field) reads the value by index. */
    private static final Schema WITHOUT_DEFAULT = SchemaBuilder.bytes().optional().build();

    private final TableSchema schema;
    private final Field op;
    private final Field before;
    private final Field after;
    private final Field source;
    private final Schema rowSchema;
    private final Field[] columns;

    /**
     * The columns to read with Struct.get(Field): a column with a DEFAULT is read through a field
     * of the same index whose schema has none, because Struct.get would put the default in place of
     * NULL (getWithoutDefault looks the name up in a map for every value).
     */
    private final Field[] reads;

    private final DeclaredType[] types;
    private final ValueRenderer[] renderers;

    private TablePlan(
            TableSchema schema,
            Schema envelope,
            Schema rowSchema,
            DeclaredType[] types,
            ValueRenderer[] renderers) {
        this.schema = schema;
        this.op = envelope.field("op");
        this.before = envelope.field("before");
        this.after = envelope.field("after");
        this.source = envelope.field("source");
        this.rowSchema = rowSchema;
        List<Field> fields = rowSchema.fields();
        this.columns = fields.toArray(new Field[0]);
        this.reads = new Field[columns.length];
        for (int i = 0; i < columns.length; i++) {
            Field column = columns[i];
            reads[i] =
                    column.schema().defaultValue() == null
                            ? column
                            : new Field(column.name(), column.index(), WITHOUT_DEFAULT);
        }
        this.types = types;
        this.renderers = renderers;
    }

    /** Whether {@code valueSchema} is a Debezium change envelope (op, source, before/after). */
    public static boolean isEnvelope(Schema valueSchema) {
        return valueSchema.type() == Schema.Type.STRUCT
                && valueSchema.field("op") != null
                && valueSchema.field("source") != null
                && (valueSchema.field("after") != null || valueSchema.field("before") != null);
    }

    /**
     * The plan for the rows of {@code database.table} described by an envelope schema.
     *
     * @param keySchema the record key schema: its fields are the primary key; null for none
     * @param intern returns a shared instance for an equal {@link TableSchema}
     * @param style how the server writes column types, which mysqlType follows
     * @throws ChangeEventConversionException if a column's declared type is missing or unsupported
     */
    public static TablePlan build(
            String database,
            String table,
            Schema envelope,
            Schema keySchema,
            ZoneId timestampZone,
            UnaryOperator<TableSchema> intern,
            ColumnTypeStyle style) {
        return build(
                database,
                table,
                envelope,
                keySchema,
                timestampZone,
                intern,
                style,
                (d, t) -> Map.of());
    }

    /**
     * As {@link #build(String, String, Schema, Schema, ZoneId, UnaryOperator, ColumnTypeStyle)};
     * the BINARY(16) and BINARY(4) columns of a MariaDB table are looked up in {@code
     * mariaDbTypes}: Debezium reads MariaDB's UUID, INET4 and INET6 as BINARY(n) ({@link
     * MariaDbBinaryTypes}).
     */
    public static TablePlan build(
            String database,
            String table,
            Schema envelope,
            Schema keySchema,
            ZoneId timestampZone,
            UnaryOperator<TableSchema> intern,
            ColumnTypeStyle style,
            MariaDbBinaryTypes.Lookup mariaDbTypes) {
        Field rowField =
                envelope.field("after") != null
                        ? envelope.field("after")
                        : envelope.field("before");
        Schema rowSchema = rowField.schema();
        Set<String> keys = new HashSet<>();
        if (keySchema != null && keySchema.type() == Schema.Type.STRUCT) {
            keySchema.fields().forEach(f -> keys.add(f.name()));
        }
        List<Field> fields = rowSchema.fields();
        Map<String, String> binaryTypes =
                style == ColumnTypeStyle.MARIADB && MariaDbBinaryTypes.mayHold(fields)
                        ? mariaDbTypes.columns(database, table)
                        : Map.of();
        DeclaredType[] types = new DeclaredType[fields.size()];
        ValueRenderer[] renderers = new ValueRenderer[fields.size()];
        TableSchema.Builder builder = TableSchema.builder(database, table);
        for (int i = 0; i < types.length; i++) {
            Field field = fields.get(i);
            Schema fieldSchema = field.schema();
            Map<String, String> parameters = fieldSchema.parameters();
            String typeName =
                    parameters == null ? null : parameters.get(DeclaredType.TYPE_PARAMETER);
            if (typeName == null) {
                throw new ChangeEventConversionException(
                        String.format(
                                "Column %s.%s.%s has no declared type: its Connect schema (%s) lacks"
                                        + " the '%s' parameter. Build the source with"
                                        + " MySqlSourceFactory.changeEventSource, which sets"
                                        + " column.propagate.source.type.",
                                database,
                                table,
                                field.name(),
                                fieldSchema.type(),
                                DeclaredType.TYPE_PARAMETER));
            }
            try {
                types[i] =
                        DeclaredType.of(
                                typeName,
                                parameters.get(DeclaredType.LENGTH_PARAMETER),
                                parameters.get(DeclaredType.SCALE_PARAMETER),
                                parameters.get(DeclaredType.ALLOWED_PARAMETER),
                                style);
                String binaryType = binaryTypes.get(field.name());
                if (binaryType != null && types[i].base().equals("binary")) {
                    types[i] = DeclaredType.ofColumnType(binaryType);
                }
                renderers[i] = ValueRenderers.forColumn(types[i], fieldSchema, timestampZone);
            } catch (IllegalArgumentException e) {
                if (types[i] != null && !ValueRenderers.renders(types[i])) {
                    // A restart would meet the same column: fail once.
                    throw new SourceSetupException(
                            String.format(
                                    "Cannot convert column %s.%s.%s (declared %s): %s. Leave the"
                                            + " table out of the captured tables, or change the"
                                            + " column's type.",
                                    database, table, field.name(), types[i], e.getMessage()));
                }
                throw new ChangeEventConversionException(
                        String.format(
                                "Cannot convert column %s.%s.%s (declared %s): %s",
                                database,
                                table,
                                field.name(),
                                types[i] != null ? types[i] : typeName,
                                e.getMessage()),
                        e);
            }
            builder.column(
                    field.name(),
                    types[i].mysqlType(),
                    types[i].sqlType(),
                    keys.contains(field.name()));
        }
        return new TablePlan(intern.apply(builder.build()), envelope, rowSchema, types, renderers);
    }

    public TableSchema schema() {
        return schema;
    }

    public String op(Struct envelope) {
        return (String) envelope.get(op);
    }

    public Struct source(Struct envelope) {
        return (Struct) envelope.get(source);
    }

    public Struct before(Struct envelope) {
        return before == null ? null : (Struct) envelope.get(before);
    }

    public Struct after(Struct envelope) {
        return after == null ? null : (Struct) envelope.get(after);
    }

    /**
     * Renders a row into {@code out} and returns the image.
     *
     * @param scratch a reused buffer for the renderers
     * @throws ChangeEventConversionException naming the column, its declared type and the value's
     *     Java class if a value cannot be rendered
     */
    public RowImage image(Struct row, RowImage.Builder out, StringBuilder scratch) {
        if (row.schema() != rowSchema) {
            throw new ChangeEventConversionException(
                    "A row of "
                            + schema.database()
                            + "."
                            + schema.table()
                            + " does not have the schema of its envelope");
        }
        for (int i = 0; i < columns.length; i++) {
            Object value = row.get(reads[i]);
            if (value == null) {
                out.appendNull();
                continue;
            }
            scratch.setLength(0);
            try {
                renderers[i].render(value, scratch, out);
            } catch (RuntimeException e) {
                out.build(); // drop the partial image so the builder starts clean
                throw new ChangeEventConversionException(
                        String.format(
                                "Cannot render column %s.%s.%s (declared %s) from a %s value: %s",
                                schema.database(),
                                schema.table(),
                                columns[i].name(),
                                types[i],
                                value.getClass().getName(),
                                e),
                        e);
            }
        }
        return out.build();
    }
}

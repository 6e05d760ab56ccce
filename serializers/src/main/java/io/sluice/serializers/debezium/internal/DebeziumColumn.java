package io.sluice.serializers.debezium.internal;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How one column of a table version is written in Debezium's MySQL envelope, decided once from its
 * declared type ({@code mysqlType}, e.g. {@code int(10) unsigned}): its Kafka Connect schema, as
 * Debezium 3's MySQL connector gives it with its default modes ({@code
 * decimal.handling.mode=precise}, {@code time.precision.mode=adaptive_time_microseconds}, {@code
 * bigint.unsigned.handling.mode=long}, {@code binary.handling.mode=bytes}), and how Sluice's text
 * of a value ({@code docs/value-rendering.md}) becomes Debezium's value ({@link DebeziumValues}).
 */
public final class DebeziumColumn {

    /** What a value is written as. */
    public enum Kind {
        INT16,
        INT32,
        INT64,
        /** BIGINT UNSIGNED: the 64 bits as a signed long, Debezium's {@code long} mode. */
        UINT64,
        DECIMAL,
        FLOAT,
        DOUBLE,
        /** BIT(1). */
        BOOLEAN,
        /** BIT(n > 1): {@code io.debezium.data.Bits}, little-endian bytes. */
        BITS,
        YEAR,
        DATE,
        TIME,
        DATETIME_MILLIS,
        DATETIME_MICROS,
        TIMESTAMP,
        STRING,
        BYTES,
        ENUM,
        SET,
        JSON
    }

    private final String name;
    private final Kind kind;
    private final int scale;
    private final int precision;
    private final int bits;
    private final String[] labels;
    private final boolean optional;

    private DebeziumColumn(
            String name,
            Kind kind,
            int precision,
            int scale,
            int bits,
            String[] labels,
            boolean optional) {
        this.name = name;
        this.kind = kind;
        this.precision = precision;
        this.scale = scale;
        this.bits = bits;
        this.labels = labels;
        this.optional = optional;
    }

    /**
     * @param mysqlType the declared type as {@code information_schema.COLUMNS.COLUMN_TYPE} shows it
     * @param optional whether the field may be null (Sluice marks key columns not null, others
     *     nullable)
     */
    public static DebeziumColumn of(String name, String mysqlType, boolean optional) {
        String type = mysqlType.toLowerCase(Locale.ROOT).trim();
        int paren = type.indexOf('(');
        int space = type.indexOf(' ');
        int baseEnd = paren >= 0 ? paren : space >= 0 ? space : type.length();
        String base = type.substring(0, baseEnd);
        boolean unsigned = type.contains(" unsigned") || type.contains(" zerofill");
        int[] args = paren >= 0 && !base.equals("enum") && !base.equals("set") ? args(type) : null;
        switch (base) {
            case "tinyint":
                return simple(name, Kind.INT16, optional);
            case "smallint":
                return simple(name, unsigned ? Kind.INT32 : Kind.INT16, optional);
            case "mediumint":
                return simple(name, Kind.INT32, optional);
            case "int":
            case "integer":
                return simple(name, unsigned ? Kind.INT64 : Kind.INT32, optional);
            case "bigint":
                return simple(name, unsigned ? Kind.UINT64 : Kind.INT64, optional);
            case "decimal":
            case "numeric":
            case "dec":
            case "fixed":
                {
                    int p = args != null && args.length > 0 ? args[0] : 10;
                    int s = args != null && args.length > 1 ? args[1] : 0;
                    return new DebeziumColumn(name, Kind.DECIMAL, p, s, 0, null, optional);
                }
            case "float":
                return simple(name, Kind.FLOAT, optional);
            case "double":
            case "real":
                return simple(name, Kind.DOUBLE, optional);
            case "bit":
                {
                    int n = args != null && args.length > 0 ? args[0] : 1;
                    return n == 1
                            ? simple(name, Kind.BOOLEAN, optional)
                            : new DebeziumColumn(name, Kind.BITS, 0, 0, n, null, optional);
                }
            case "year":
                return simple(name, Kind.YEAR, optional);
            case "date":
                return simple(name, Kind.DATE, optional);
            case "time":
                return simple(name, Kind.TIME, optional);
            case "datetime":
                {
                    int fsp = args != null && args.length > 0 ? args[0] : 0;
                    return simple(
                            name, fsp <= 3 ? Kind.DATETIME_MILLIS : Kind.DATETIME_MICROS, optional);
                }
            case "timestamp":
                return simple(name, Kind.TIMESTAMP, optional);
            case "binary":
            case "varbinary":
            case "tinyblob":
            case "blob":
            case "mediumblob":
            case "longblob":
                return simple(name, Kind.BYTES, optional);
            case "enum":
                return new DebeziumColumn(name, Kind.ENUM, 0, 0, 0, labels(mysqlType), optional);
            case "set":
                return new DebeziumColumn(name, Kind.SET, 0, 0, 0, labels(mysqlType), optional);
            case "json":
                return simple(name, Kind.JSON, optional);
            default:
                // char, varchar, the texts, MariaDB's uuid/inet4/inet6 (their text).
                return simple(name, Kind.STRING, optional);
        }
    }

    private static DebeziumColumn simple(String name, Kind kind, boolean optional) {
        return new DebeziumColumn(name, kind, 0, 0, 0, null, optional);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** DECIMAL's declared scale. */
    public int scale() {
        return scale;
    }

    /** BIT(n)'s n. */
    public int bits() {
        return bits;
    }

    /** ENUM and SET labels, in declared order. */
    public String label(int index) {
        return labels[index];
    }

    public int labelCount() {
        return labels == null ? 0 : labels.length;
    }

    /**
     * Writes the field's schema as Kafka Connect's JsonConverter does: {@code type, optional, name,
     * version, parameters, field}.
     */
    public void writeSchema(JsonGenerator out) throws IOException {
        out.writeStartObject();
        out.writeStringField("type", connectType());
        out.writeBooleanField("optional", optional);
        String logical = logicalName();
        if (logical != null) {
            out.writeStringField("name", logical);
            out.writeNumberField("version", 1);
        }
        switch (kind) {
            case DECIMAL:
                out.writeObjectFieldStart("parameters");
                out.writeStringField("scale", Integer.toString(scale));
                out.writeStringField("connect.decimal.precision", Integer.toString(precision));
                out.writeEndObject();
                break;
            case BITS:
                out.writeObjectFieldStart("parameters");
                out.writeStringField("length", Integer.toString(bits));
                out.writeEndObject();
                break;
            case ENUM:
            case SET:
                out.writeObjectFieldStart("parameters");
                out.writeStringField("allowed", String.join(",", labels));
                out.writeEndObject();
                break;
            default:
                break;
        }
        out.writeStringField("field", name);
        out.writeEndObject();
    }

    private String connectType() {
        switch (kind) {
            case INT16:
                return "int16";
            case INT32:
            case YEAR:
            case DATE:
                return "int32";
            case INT64:
            case UINT64:
            case TIME:
            case DATETIME_MILLIS:
            case DATETIME_MICROS:
                return "int64";
            case DECIMAL:
            case BITS:
            case BYTES:
                return "bytes";
            case FLOAT:
                return "float";
            case DOUBLE:
                return "double";
            case BOOLEAN:
                return "boolean";
            default:
                return "string";
        }
    }

    private String logicalName() {
        switch (kind) {
            case DECIMAL:
                return "org.apache.kafka.connect.data.Decimal";
            case BITS:
                return "io.debezium.data.Bits";
            case YEAR:
                return "io.debezium.time.Year";
            case DATE:
                return "io.debezium.time.Date";
            case TIME:
                return "io.debezium.time.MicroTime";
            case DATETIME_MILLIS:
                return "io.debezium.time.Timestamp";
            case DATETIME_MICROS:
                return "io.debezium.time.MicroTimestamp";
            case TIMESTAMP:
                return "io.debezium.time.ZonedTimestamp";
            case ENUM:
                return "io.debezium.data.Enum";
            case SET:
                return "io.debezium.data.EnumSet";
            case JSON:
                return "io.debezium.data.Json";
            default:
                return null;
        }
    }

    /** The numbers in the first parentheses: {@code decimal(10,2)} gives 10, 2. */
    private static int[] args(String type) {
        int open = type.indexOf('(');
        int close = type.indexOf(')', open);
        if (close < 0) {
            return null;
        }
        String[] parts = type.substring(open + 1, close).split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
    }

    /** The quoted labels of {@code enum('a','b')}, with SQL's doubled quotes undone. */
    static String[] labels(String type) {
        List<String> out = new ArrayList<>();
        int i = type.indexOf('(') + 1;
        int end = type.lastIndexOf(')');
        StringBuilder label = new StringBuilder();
        while (i < end) {
            char c = type.charAt(i);
            if (c != '\'') {
                i++;
                continue;
            }
            label.setLength(0);
            i++;
            while (i < end) {
                char d = type.charAt(i);
                if (d == '\'' && i + 1 < end && type.charAt(i + 1) == '\'') {
                    label.append('\'');
                    i += 2;
                } else if (d == '\'') {
                    i++;
                    break;
                } else {
                    label.append(d);
                    i++;
                }
            }
            out.add(label.toString());
        }
        return out.toArray(new String[0]);
    }
}

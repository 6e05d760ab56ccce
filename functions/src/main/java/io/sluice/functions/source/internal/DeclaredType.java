package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A column's declared MySQL type as the table definition states it, rebuilt from what Debezium's
 * {@code column.propagate.source.type} puts into each field schema: the type name ({@code BIGINT
 * UNSIGNED}), length and scale, and for ENUM/SET the labels. From it come Canal's {@code mysqlType}
 * text (as {@code information_schema.COLUMNS.COLUMN_TYPE} writes it, e.g. {@code bigint(20)
 * unsigned}) and the {@code java.sql.Types} code Canal gives a non-null value of the type.
 */
@Internal
public final class DeclaredType {

    /** Schema parameters Debezium's {@code column.propagate.source.type} adds to a field. */
    public static final String TYPE_PARAMETER = "__debezium.source.column.type";

    public static final String LENGTH_PARAMETER = "__debezium.source.column.length";
    public static final String SCALE_PARAMETER = "__debezium.source.column.scale";

    /** The labels of an ENUM/SET schema (Debezium's {@code io.debezium.data.Enum[Set]}). */
    public static final String ALLOWED_PARAMETER = "allowed";

    /** Type-name aliases a DDL statement may use, by the name COLUMN_TYPE shows instead. */
    private static final Map<String, String> ALIASES =
            Map.ofEntries(
                    Map.entry("integer", "int"),
                    Map.entry("int1", "tinyint"),
                    Map.entry("int2", "smallint"),
                    Map.entry("int3", "mediumint"),
                    Map.entry("middleint", "mediumint"),
                    Map.entry("int4", "int"),
                    Map.entry("int8", "bigint"),
                    Map.entry("dec", "decimal"),
                    Map.entry("numeric", "decimal"),
                    Map.entry("fixed", "decimal"),
                    Map.entry("real", "double"),
                    Map.entry("double precision", "double"),
                    Map.entry("float8", "double"),
                    Map.entry("float4", "float"),
                    Map.entry("character", "char"),
                    Map.entry("nchar", "char"),
                    Map.entry("national char", "char"),
                    Map.entry("national character", "char"),
                    Map.entry("nvarchar", "varchar"),
                    Map.entry("national varchar", "varchar"),
                    Map.entry("national character varying", "varchar"),
                    Map.entry("character varying", "varchar"),
                    Map.entry("char varying", "varchar"),
                    Map.entry("long varchar", "mediumtext"),
                    Map.entry("long", "mediumtext"),
                    Map.entry("long varbinary", "mediumblob"),
                    Map.entry("long byte", "mediumblob"));

    private final String base;
    private final boolean unsigned;
    private final boolean zerofill;
    private final int length;
    private final int scale;
    private final List<String> labels;
    private final String mysqlType;
    private final int sqlType;

    private DeclaredType(
            String base,
            boolean unsigned,
            boolean zerofill,
            int length,
            int scale,
            List<String> labels) {
        this.base = base;
        this.unsigned = unsigned;
        this.zerofill = zerofill;
        this.length = length;
        this.scale = scale;
        this.labels = labels;
        this.mysqlType = renderMysqlType();
        this.sqlType = sqlTypeOf(base);
    }

    /**
     * The type Debezium describes with these parameters.
     *
     * @param typeName {@code __debezium.source.column.type}, e.g. {@code INT UNSIGNED ZEROFILL}
     * @param length {@code __debezium.source.column.length}, or null if absent
     * @param scale {@code __debezium.source.column.scale}, or null if absent
     * @param allowed the ENUM/SET labels joined by commas, or null
     */
    public static DeclaredType of(String typeName, String length, String scale, String allowed) {
        return of(typeName, length, scale, allowed, ColumnTypeStyle.AS_DECLARED);
    }

    /**
     * The type Debezium describes with these parameters, in the form the server's COLUMN_TYPE gives
     * it: a type from a DDL statement's text (Debezium's parser after a DDL) lacks what the server
     * adds, such as the default display width ({@code INT} is {@code int(11)} on MariaDB), or has
     * what it drops ({@code INT(11)} is {@code int} on MySQL 8.0.19+); MariaDB's JSON is LONGTEXT.
     * A type read from {@code SHOW CREATE TABLE} already has that form and stays as it is.
     *
     * @param style the source server's way of writing COLUMN_TYPE
     */
    public static DeclaredType of(
            String typeName, String length, String scale, String allowed, ColumnTypeStyle style) {
        Objects.requireNonNull(typeName, "typeName");
        String name = typeName.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        boolean zerofill = false;
        boolean unsigned = false;
        boolean stripped = true;
        while (stripped) {
            stripped = false;
            if (name.endsWith(" zerofill")) {
                zerofill = true;
                name = name.substring(0, name.length() - " zerofill".length());
                stripped = true;
            }
            if (name.endsWith(" unsigned")) {
                unsigned = true;
                name = name.substring(0, name.length() - " unsigned".length());
                stripped = true;
            }
            if (name.endsWith(" signed")) {
                name = name.substring(0, name.length() - " signed".length());
                stripped = true;
            }
        }
        int parsedLength = parseOrUnset(length, "length", typeName);
        int parsedScale = parseOrUnset(scale, "scale", typeName);
        if (name.equals("bool") || name.equals("boolean")) {
            name = "tinyint";
            parsedLength = 1;
        }
        name = ALIASES.getOrDefault(name, name);
        if (name.equals("float") && parsedScale < 0 && parsedLength > 24) {
            name = "double"; // FLOAT(p) with p > 24 is stored as DOUBLE
        }
        if (style.jsonIsLongtext() && name.equals("json")) {
            name = "longtext";
        }
        // MySQL 8 names GEOMETRYCOLLECTION geomcollection; MariaDB knows only the long name.
        if (style == ColumnTypeStyle.MYSQL && name.equals("geometrycollection")) {
            name = "geomcollection";
        } else if (style == ColumnTypeStyle.MARIADB && name.equals("geomcollection")) {
            name = "geometrycollection";
        }
        if (style.normalizes()) {
            parsedLength = serverLength(name, parsedLength, unsigned || zerofill, zerofill, style);
        }
        List<String> labels =
                (name.equals("enum") || name.equals("set")) && allowed != null
                        ? Collections.unmodifiableList(Arrays.asList(splitLabels(allowed)))
                        : List.of();
        return new DeclaredType(
                name, unsigned || zerofill, zerofill, parsedLength, parsedScale, labels);
    }

    /**
     * The type {@code information_schema.COLUMNS.COLUMN_TYPE} states, e.g. {@code int(10) unsigned
     * zerofill}, {@code decimal(10,2)}, {@code enum('a','it''s')}: already the server's own form,
     * so {@link #mysqlType()} gives the text back.
     *
     * @throws IllegalArgumentException if the text is not in COLUMN_TYPE's form
     */
    public static DeclaredType ofColumnType(String columnType) {
        Objects.requireNonNull(columnType, "columnType");
        String text = columnType.trim().toLowerCase(Locale.ROOT);
        int open = text.indexOf('(');
        int baseEnd = open >= 0 ? open : text.indexOf(' ') >= 0 ? text.indexOf(' ') : text.length();
        String base = text.substring(0, baseEnd);
        int length = -1;
        int scale = -1;
        List<String> labels = List.of();
        int rest = baseEnd;
        if (open >= 0) {
            if (base.equals("enum") || base.equals("set")) {
                // Labels keep their case: read them from the original text.
                List<String> parsed = new ArrayList<>();
                rest = parseLabels(columnType.trim(), open + 1, parsed);
                labels = Collections.unmodifiableList(parsed);
            } else {
                int close = text.indexOf(')', open);
                if (close < 0) {
                    throw new IllegalArgumentException(
                            "COLUMN_TYPE '" + columnType + "' has no ')'");
                }
                String[] numbers = text.substring(open + 1, close).split(",");
                length = parseOrUnset(numbers[0], "length", columnType);
                scale = numbers.length > 1 ? parseOrUnset(numbers[1], "scale", columnType) : -1;
                rest = close + 1;
            }
        }
        String attributes = " " + text.substring(rest).trim() + " ";
        boolean zerofill = attributes.contains(" zerofill ");
        boolean unsigned = zerofill || attributes.contains(" unsigned ");
        return new DeclaredType(base, unsigned, zerofill, length, scale, labels);
    }

    /** Reads {@code 'a','it''s')} from {@code at}; returns the index after the ')'. */
    private static int parseLabels(String text, int at, List<String> labels) {
        StringBuilder label = new StringBuilder();
        while (at < text.length() && text.charAt(at) == '\'') {
            at++;
            while (true) {
                if (at >= text.length()) {
                    throw new IllegalArgumentException(
                            "COLUMN_TYPE '" + text + "' has an unterminated label");
                }
                char c = text.charAt(at++);
                if (c == '\'' && at < text.length() && text.charAt(at) == '\'') {
                    label.append('\'');
                    at++;
                } else if (c == '\'') {
                    break;
                } else {
                    label.append(c);
                }
            }
            labels.add(label.toString());
            label.setLength(0);
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
            }
        }
        if (at >= text.length() || text.charAt(at) != ')') {
            throw new IllegalArgumentException("COLUMN_TYPE '" + text + "' has bad labels");
        }
        return at + 1;
    }

    /** The length COLUMN_TYPE shows for a column of {@code base} declared with {@code length}. */
    private static int serverLength(
            String base, int length, boolean unsigned, boolean zerofill, ColumnTypeStyle style) {
        if (base.equals("bit")) {
            return length < 0 ? 1 : length;
        }
        int width = defaultWidth(base, unsigned);
        if (width < 0) {
            return length;
        }
        if (style.displayWidths() || zerofill) {
            return length < 0 ? width : length;
        }
        // MySQL 8.0.19+ keeps a width only on TINYINT(1) and ZEROFILL columns.
        return base.equals("tinyint") && length == 1 ? 1 : -1;
    }

    /** The display width a server that shows widths gives a column declared without one. */
    private static int defaultWidth(String base, boolean unsigned) {
        switch (base) {
            case "tinyint":
                return unsigned ? 3 : 4;
            case "smallint":
                return unsigned ? 5 : 6;
            case "mediumint":
                return unsigned ? 8 : 9;
            case "int":
                return unsigned ? 10 : 11;
            case "bigint":
                return 20;
            case "year":
                return 4;
            default:
                return -1;
        }
    }

    private static String[] splitLabels(String allowed) {
        // Debezium joins the labels with ',' and no escaping; an empty list is one empty label.
        return allowed.isEmpty() ? new String[0] : allowed.split(",", -1);
    }

    private static int parseOrUnset(String number, String what, String typeName) {
        if (number == null || number.isEmpty()) {
            return -1;
        }
        try {
            return Integer.parseInt(number.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Type " + typeName + " has a non-numeric " + what + " '" + number + "'", e);
        }
    }

    /** The lower-case base type name without attributes: {@code bigint}, {@code varchar}. */
    public String base() {
        return base;
    }

    /** Whether this is one of the spatial types: GEOMETRY, POINT, ..., GEOMETRYCOLLECTION. */
    public boolean isSpatial() {
        switch (base) {
            case "geometry":
            case "point":
            case "linestring":
            case "polygon":
            case "multipoint":
            case "multilinestring":
            case "multipolygon":
            case "geometrycollection":
            case "geomcollection":
                return true;
            default:
                return false;
        }
    }

    public boolean isUnsigned() {
        return unsigned;
    }

    /** Declared length: display width, precision or character length; -1 when not stated. */
    public int length() {
        return length;
    }

    /** Declared scale of DECIMAL/FLOAT/DOUBLE; -1 when not stated. */
    public int scale() {
        return scale;
    }

    /** Fractional-second digits of TIME/DATETIME/TIMESTAMP, 0..6. */
    public int fsp() {
        return Math.max(0, Math.min(6, length));
    }

    /** ENUM/SET labels in declaration order (ENUM index 1 and SET bit 0 are the first). */
    public List<String> labels() {
        return labels;
    }

    /** Canal's {@code mysqlType}: COLUMN_TYPE's form, e.g. {@code decimal(10,2) unsigned}. */
    public String mysqlType() {
        return mysqlType;
    }

    /**
     * This type for a column definition a DDL parser reads: an integer's display width is left out
     * when it is the server's default, because Debezium's parser keeps a stated width through a
     * later {@code MODIFY} to another integer type (MariaDB's {@code int(11)} modified to {@code
     * BIGINT} would stay {@code bigint(11)}, where the server says {@code bigint(20)}).
     */
    public String ddlType() {
        if (!zerofill
                && length >= 0
                && !base.equals("year")
                && length == defaultWidth(base, unsigned)) {
            return new DeclaredType(base, unsigned, false, -1, scale, labels).mysqlType;
        }
        return mysqlType;
    }

    /** The {@code java.sql.Types} code Canal reports for a non-null value of this type. */
    public int sqlType() {
        return sqlType;
    }

    private String renderMysqlType() {
        StringBuilder out = new StringBuilder(base);
        switch (base) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "bigint":
            case "year":
            case "bit":
            case "varchar":
            case "varbinary":
                if (length >= 0) {
                    out.append('(').append(length).append(')');
                }
                break;
            case "char":
            case "binary":
                out.append('(').append(Math.max(length, 1)).append(')');
                break;
            case "decimal":
                out.append('(')
                        .append(length >= 0 ? length : 10)
                        .append(',')
                        .append(Math.max(scale, 0))
                        .append(')');
                break;
            case "float":
            case "double":
                if (length >= 0 && scale >= 0) {
                    out.append('(').append(length).append(',').append(scale).append(')');
                }
                break;
            case "time":
            case "datetime":
            case "timestamp":
                if (length > 0) {
                    out.append('(').append(length).append(')');
                }
                break;
            case "enum":
            case "set":
                out.append('(');
                for (int i = 0; i < labels.size(); i++) {
                    out.append(i == 0 ? "'" : ",'")
                            .append(labels.get(i).replace("'", "''"))
                            .append('\'');
                }
                out.append(')');
                break;
            default:
                break;
        }
        if (unsigned) {
            out.append(" unsigned");
        }
        if (zerofill) {
            out.append(" zerofill");
        }
        return out.toString();
    }

    private static int sqlTypeOf(String base) {
        switch (base) {
            case "tinyint":
                return Types.TINYINT;
            case "smallint":
                return Types.SMALLINT;
            case "mediumint":
            case "int":
            case "enum":
                return Types.INTEGER;
            case "bigint":
                return Types.BIGINT;
            case "decimal":
                return Types.DECIMAL;
            case "float":
                return Types.REAL;
            case "double":
                return Types.DOUBLE;
            case "bit":
            case "set":
                return Types.BIT;
            case "year":
            case "varchar":
            case "json":
                return Types.VARCHAR;
            case "date":
                return Types.DATE;
            case "time":
                return Types.TIME;
            case "datetime":
            case "timestamp":
                return Types.TIMESTAMP;
            case "char":
                return Types.CHAR;
            case "uuid":
            case "inet4":
            case "inet6":
                // MariaDB's: the binlog's table map types them as CHAR (of the binary charset).
                return Types.CHAR;
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
                return Types.CLOB;
            default:
                // binary, varbinary, the blobs and the geometry types: raw bytes.
                return Types.BLOB;
        }
    }

    @Override
    public String toString() {
        return mysqlType;
    }
}

package io.sluice.functions.source.binlog;

import com.mysql.cj.CharsetMapping;
import io.sluice.functions.source.internal.DeclaredType;

import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One column of a table as the binlog reader needs it: its name, declared type (from {@code
 * COLUMN_TYPE}), the Java charset of its character data (null for other types) and whether it is
 * part of the primary key.
 */
public final class BinlogColumn {

    private final String name;
    private final DeclaredType type;
    private final String mysqlCharset;
    private final Charset charset;
    private final boolean key;

    private BinlogColumn(String name, DeclaredType type, String mysqlCharset, boolean key) {
        this.name = name;
        this.type = type;
        this.mysqlCharset = mysqlCharset;
        this.charset = charsetOf(name, mysqlCharset);
        this.key = key;
    }

    /**
     * A column of a declared type.
     *
     * @param mysqlCharset the MySQL charset name of its character data, e.g. {@code utf8mb4}; null
     *     for non-text
     * @throws IllegalArgumentException if the charset is not understood (the message names the
     *     column)
     */
    public static BinlogColumn of(
            String name, DeclaredType type, String mysqlCharset, boolean key) {
        return new BinlogColumn(
                Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(type, "type"),
                mysqlCharset,
                key);
    }

    /**
     * A column as {@code information_schema.COLUMNS} describes it.
     *
     * @param columnType {@code COLUMN_TYPE}, e.g. {@code int(10) unsigned}
     * @param mysqlCharset {@code CHARACTER_SET_NAME}, e.g. {@code utf8mb4}; null for non-text
     * @throws IllegalArgumentException if the type or the charset is not understood (the message
     *     names the column)
     */
    public static BinlogColumn of(
            String name, String columnType, String mysqlCharset, boolean key) {
        Objects.requireNonNull(name, "name");
        DeclaredType type;
        try {
            type = DeclaredType.ofColumnType(columnType);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Column '" + name + "': " + e.getMessage(), e);
        }
        return new BinlogColumn(name, type, mysqlCharset, key);
    }

    /** The columns of {@code database.table} in table order, from {@code information_schema}. */
    public static List<BinlogColumn> read(Connection connection, String database, String table)
            throws SQLException {
        List<BinlogColumn> columns = new ArrayList<>();
        try (PreparedStatement query =
                connection.prepareStatement(
                        "SELECT COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLUMN_KEY"
                                + " FROM information_schema.COLUMNS"
                                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                + " ORDER BY ORDINAL_POSITION")) {
            query.setString(1, database);
            query.setString(2, table);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(
                            of(
                                    rows.getString(1),
                                    rows.getString(2),
                                    rows.getString(3),
                                    "PRI".equals(rows.getString(4))));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException(
                    "Table " + database + "." + table + " has no columns in information_schema");
        }
        return columns;
    }

    /** The Java charset of a MySQL charset name, the mapping the JDBC driver and Debezium use. */
    private static Charset charsetOf(String column, String mysqlCharset) {
        if (mysqlCharset == null || mysqlCharset.equals("binary")) {
            return null;
        }
        String java = JdbcCharsets.javaEncoding(mysqlCharset);
        if (java == null || !Charset.isSupported(java)) {
            throw new IllegalArgumentException(
                    "Column '"
                            + column
                            + "' has charset '"
                            + mysqlCharset
                            + "', which this JVM cannot decode");
        }
        return Charset.forName(java);
    }

    public String name() {
        return name;
    }

    public DeclaredType type() {
        return type;
    }

    /** The MySQL charset name of the column's data as declared, e.g. {@code utf8mb4}; or null. */
    public String mysqlCharset() {
        return mysqlCharset;
    }

    /** The charset of the column's character data; null for numbers, dates and bytes. */
    public Charset charset() {
        return charset;
    }

    public boolean isKey() {
        return key;
    }

    @Override
    public String toString() {
        return name + " " + type + (charset == null ? "" : " " + charset) + (key ? " key" : "");
    }

    /** The JDBC driver's MySQL-to-Java charset table, which it keeps behind protected methods. */
    private static final class JdbcCharsets extends CharsetMapping {
        static String javaEncoding(String mysqlCharset) {
            return getStaticJavaEncodingForMysqlCharset(mysqlCharset);
        }
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the source server writes a column's type in {@code information_schema.COLUMNS.COLUMN_TYPE},
 * which Canal writes as {@code mysqlType}. Debezium knows a table's types from {@code SHOW CREATE
 * TABLE} when the reader starts, which already has the server's form, but from the statement's own
 * text after a DDL ({@code INT} where the server shows {@code int(11)}, {@code JSON} where MariaDB
 * shows {@code longtext}); {@link DeclaredType} applies the server's form to both, so one table's
 * {@code mysqlType} does not depend on when the job started.
 */
@Internal
public enum ColumnTypeStyle {

    /** MariaDB: integer display widths; JSON is an alias of LONGTEXT. */
    MARIADB(true, true),
    /** MySQL before 8.0.19: integer display widths; JSON is its own type. */
    MYSQL_DISPLAY_WIDTHS(true, false),
    /** MySQL 8.0.19 and later: no integer display widths but for TINYINT(1) and ZEROFILL. */
    MYSQL(false, false),
    /** The types as Debezium states them, unchanged: for tests without a server. */
    AS_DECLARED(false, false);

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private final boolean displayWidths;
    private final boolean jsonIsLongtext;

    ColumnTypeStyle(boolean displayWidths, boolean jsonIsLongtext) {
        this.displayWidths = displayWidths;
        this.jsonIsLongtext = jsonIsLongtext;
    }

    /**
     * The style of the server {@code jdbc} reaches; one query.
     *
     * @throws IllegalStateException if the server cannot be asked
     */
    public static ColumnTypeStyle of(SourceJdbc jdbc) {
        try (Connection connection = jdbc.connect();
                Statement statement = connection.createStatement();
                ResultSet version = statement.executeQuery("SELECT VERSION()")) {
            version.next();
            return ofVersion(version.getString(1));
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot read the version of the source server at "
                            + jdbc.address()
                            + ", which decides the form of mysqlType: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The style of a server by its {@code SELECT VERSION()}, e.g. {@code 11.4.5-MariaDB-log} or
     * {@code 8.0.36}.
     *
     * @throws IllegalArgumentException if the text starts with no version number
     */
    public static ColumnTypeStyle ofVersion(String version) {
        if (version.toLowerCase(Locale.ROOT).contains("mariadb")) {
            return MARIADB;
        }
        Matcher number = VERSION.matcher(version.trim());
        if (!number.find()) {
            throw new IllegalArgumentException(
                    "The source server's VERSION() '" + version + "' has no version number");
        }
        int major = Integer.parseInt(number.group(1));
        int minor = Integer.parseInt(number.group(2));
        int patch = Integer.parseInt(number.group(3));
        boolean before8019 = major < 8 || (major == 8 && minor == 0 && patch < 19);
        return before8019 ? MYSQL_DISPLAY_WIDTHS : MYSQL;
    }

    /** Whether the style is a server's rather than {@link #AS_DECLARED}. */
    boolean normalizes() {
        return this != AS_DECLARED;
    }

    /** Whether COLUMN_TYPE shows integer and YEAR display widths, defaults included. */
    boolean displayWidths() {
        return displayWidths;
    }

    /** Whether a column declared JSON is LONGTEXT (MariaDB). */
    boolean jsonIsLongtext() {
        return jsonIsLongtext;
    }
}

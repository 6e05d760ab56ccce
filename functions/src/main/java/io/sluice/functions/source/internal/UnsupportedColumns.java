package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The column types Sluice cannot read, and the captured columns of those types: a type that
 * Debezium 1.9's DDL parser, through which both readers learn every captured table's definition,
 * does not know and that Sluice does not declare in another form for it (as it does MariaDB's UUID,
 * INET4 and INET6, {@link MariaDbBinaryTypes}). No row of such a table can be read, and a restart
 * would meet the same definition, so the job fails once, before it reads, naming each column.
 * MariaDB 11.4 and MySQL 8.0 have no such type: {@link #TYPES} is empty.
 */
@Internal
public final class UnsupportedColumns {

    /** {@code information_schema.COLUMNS.DATA_TYPE} of the types Sluice cannot read. */
    public static final Set<String> TYPES = Set.of();

    /** Words a column's name follows in ALTER TABLE. */
    private static final Set<String> KEYWORDS =
            Set.of("add", "column", "modify", "change", "exists", "table", "default");

    private UnsupportedColumns() {}

    /**
     * One line per captured column of an unsupported type, for {@link SourceServerCheck}.
     *
     * @param tables the captured tables' patterns over {@code database.table}
     * @param tablesOption the name of the option that selects the captured tables
     */
    public static List<String> problems(
            Statement statement, List<Pattern> tables, String tablesOption) throws SQLException {
        return problems(statement, tables, tablesOption, TYPES);
    }

    /** {@link #problems(Statement, List, String)} for the types {@code types}. */
    static List<String> problems(
            Statement statement, List<Pattern> tables, String tablesOption, Set<String> types)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        if (types.isEmpty()) {
            return problems;
        }
        StringBuilder in = new StringBuilder();
        for (String type : types) {
            in.append(in.length() == 0 ? "'" : ",'").append(type).append('\'');
        }
        try (ResultSet result =
                statement.executeQuery(
                        "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE"
                                + " FROM information_schema.COLUMNS WHERE DATA_TYPE IN ("
                                + in
                                + ") ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
            while (result.next()) {
                String table = result.getString(1) + "." + result.getString(2);
                if (tables.stream().anyMatch(p -> p.matcher(table).matches())) {
                    problems.add(message(table, result.getString(3), result.getString(4)) + ".");
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.add(
                    "Leave these tables out of '"
                            + tablesOption
                            + "' (the table's definition cannot be read at all, so"
                            + " 'filter.columns.exclude' cannot help), or change the columns'"
                            + " type.");
        }
        return problems;
    }

    /** Why column {@code table.column}, declared {@code type}, cannot be read. */
    public static String message(String table, String column, String type) {
        return String.format(
                "Column %s.%s (declared %s) has a type Sluice cannot read: the DDL parser of"
                        + " Debezium 1.9, which reads every captured table's definition, does not"
                        + " know it, so no row of %s can be read",
                table, column, type.toLowerCase(Locale.ROOT), table);
    }

    /**
     * The first column a DDL statement declares with an unsupported type, as {@code [name, type]};
     * null if it declares none.
     */
    public static String[] declaredIn(String sql) {
        return declaredIn(sql, TYPES);
    }

    /** {@link #declaredIn(String)} for the types {@code types}. */
    static String[] declaredIn(String sql, Set<String> types) {
        if (types.isEmpty()) {
            return null;
        }
        Matcher definition =
                Pattern.compile(
                                "(`(?:[^`]|``)+`|\\w+)\\s+(" + String.join("|", types) + ")\\b",
                                Pattern.CASE_INSENSITIVE)
                        .matcher(sql);
        int from = 0;
        while (definition.find(from)) {
            String name = definition.group(1);
            if (KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                // ADD [COLUMN] name ...: the column's name, not its type.
                from = definition.start(2);
                continue;
            }
            if (name.startsWith("`")) {
                name = name.substring(1, name.length() - 1).replace("``", "`");
            }
            return new String[] {name, definition.group(2)};
        }
        return null;
    }
}

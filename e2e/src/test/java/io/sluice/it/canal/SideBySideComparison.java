package io.sluice.it.canal;

import io.sluice.job.canal.DeliberateDifference;
import io.sluice.job.canal.ValueDifferences;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pairs Canal's rows with Sluice's (by database, table, type, execute time and primary key, as
 * canal-diff does; statements by database, table, type and time) and compares every field. Each
 * difference is explained by one row of the deliberate-differences table ({@link
 * DeliberateDifference}, which canal-diff uses too) or by none.
 */
final class SideBySideComparison {

    /** One field that differs. */
    static final class Difference {
        final String field;
        final String canal;
        final String sluice;
        final DeliberateDifference why;
        final String row;
        final String statement;

        Difference(
                String field,
                String canal,
                String sluice,
                DeliberateDifference why,
                String row,
                String statement) {
            this.field = field;
            this.canal = canal;
            this.sluice = sluice;
            this.why = why;
            this.row = row;
            this.statement = statement;
        }

        @Override
        public String toString() {
            return field
                    + ": Canal "
                    + quoted(canal)
                    + ", Sluice "
                    + quoted(sluice)
                    + "; row "
                    + row
                    + "; statement: "
                    + statement;
        }
    }

    /** Canal's entries for the end of an XA transaction, which Sluice does not write. */
    private static final Set<String> XA_END = Set.of("XACOMMIT", "XAROLLBACK");

    /** A statement Canal does not write (its DDL parser gives it no type). */
    private static final Pattern ALTER_DATABASE =
            Pattern.compile("^\\s*ALTER\\s+(DATABASE|SCHEMA)\\b", Pattern.CASE_INSENSITIVE);

    private final List<Difference> differences = new ArrayList<>();

    /** The pair keys of statements Canal and Sluice both wrote. */
    private final Set<String> pairedStatements = new HashSet<>();

    private final Map<String, Deque<SideBySideRow>> sluice = new LinkedHashMap<>();

    /** Canal's statement texts by table and time, to name the statement of a row. */
    private final Map<String, Set<String>> statements = new LinkedHashMap<>();

    int pairs;

    static SideBySideComparison compare(List<SideBySideRow> canal, List<SideBySideRow> sluice) {
        SideBySideComparison c = new SideBySideComparison();
        for (SideBySideRow row : canal) {
            if (row.statement && !row.ddl && "QUERY".equals(row.type) && row.sql != null) {
                c.statements
                        .computeIfAbsent(row.table + "|" + row.es, k -> new LinkedHashSet<>())
                        .add(row.sql);
            }
        }
        // A statement's copies: the one in Canal's partition pairs first.
        sluice.stream()
                .sorted((a, b) -> Integer.compare(a.partition, b.partition))
                .forEach(
                        r -> c.sluice.computeIfAbsent(r.pairKey(), k -> new ArrayDeque<>()).add(r));
        List<SideBySideRow> unpaired = new ArrayList<>();
        for (SideBySideRow row : canal) {
            Deque<SideBySideRow> candidates = c.sluice.get(row.pairKey());
            SideBySideRow match = candidates == null ? null : candidates.poll();
            if (match == null) {
                unpaired.add(row);
            } else {
                c.pairs++;
                if (row.statement) {
                    c.pairedStatements.add(row.pairKey());
                }
                c.fields(row, match, false);
            }
        }
        for (SideBySideRow row : unpaired) {
            c.unpaired(row);
        }
        for (Deque<SideBySideRow> rest : c.sluice.values()) {
            for (SideBySideRow row : rest) {
                // A statement Sluice wrote to more partitions than Canal's one.
                boolean copy =
                        row.statement && row.ddl && c.pairedStatements.contains(row.pairKey());
                boolean alterDatabase =
                        row.statement
                                && row.ddl
                                && row.sql != null
                                && ALTER_DATABASE.matcher(row.sql).find();
                c.add(
                        "only in Sluice",
                        null,
                        row.type + (row.statement ? " " + row.sql : ""),
                        copy
                                ? DeliberateDifference.DDL_PLACEMENT
                                : alterDatabase ? DeliberateDifference.ALTER_DATABASE : null,
                        row);
            }
        }
        return c;
    }

    List<Difference> differences() {
        return differences;
    }

    private void unpaired(SideBySideRow canal) {
        if (canal.statement && "QUERY".equals(canal.type) && !canal.ddl) {
            add("only in Canal", canal.sql, null, DeliberateDifference.STATEMENT_TEXTS, canal);
            return;
        }
        if (canal.statement && XA_END.contains(canal.type)) {
            add("only in Canal", canal.sql, null, DeliberateDifference.XA_ENTRIES, canal);
            return;
        }
        if (canal.statement && canal.ddl && canal.database.startsWith("`")) {
            String bare = canal.database.substring(1, canal.database.length() - 1);
            String key =
                    bare + "|" + canal.table + "|" + canal.type + "|" + canal.es + "|statement";
            SideBySideRow match = poll(key);
            if (match != null) {
                pairs++;
                pairedStatements.add(key);
                fields(canal, match, false);
                return;
            }
        }
        if ("UPDATE".equals(canal.type) && !canal.keyText.equals(canal.oldKeyText)) {
            String prefix = canal.database + "|" + canal.table + "|";
            SideBySideRow delete = poll(prefix + "DELETE|" + canal.es + "|" + canal.oldKeyText);
            SideBySideRow insert = poll(prefix + "INSERT|" + canal.es + "|" + canal.keyText);
            if (delete != null && insert != null) {
                pairs++;
                add(
                        "type",
                        "UPDATE " + canal.oldKeyText + " -> " + canal.keyText,
                        "DELETE + INSERT",
                        DeliberateDifference.PRIMARY_KEY_CHANGE,
                        canal);
                fields(canal, insert, true);
                return;
            }
        }
        add(
                "only in Canal",
                canal.type + (canal.statement ? " " + canal.sql : ""),
                null,
                null,
                canal);
    }

    private SideBySideRow poll(String key) {
        Deque<SideBySideRow> rows = sluice.get(key);
        return rows == null ? null : rows.poll();
    }

    /** Every field of a pair; for a key change (Canal's UPDATE, Sluice's INSERT) the values. */
    private void fields(SideBySideRow canal, SideBySideRow sluice, boolean keyChange) {
        Set<String> names = new LinkedHashSet<>(canal.fields.keySet());
        names.addAll(sluice.fields.keySet());
        for (String field : names) {
            String c = canal.fields.get(field);
            String s = sluice.fields.get(field);
            boolean cHas = canal.fields.containsKey(field);
            boolean sHas = sluice.fields.containsKey(field);
            if (cHas == sHas && Objects.equals(c, s)) {
                continue;
            }
            DeliberateDifference why = explain(field, c, s, cHas, sHas, canal, sluice, keyChange);
            if (keyChange && why == null && (!isValueField(field) || field.startsWith("before."))) {
                why =
                        DeliberateDifference
                                .PRIMARY_KEY_CHANGE; // Types, flags and images of another event.
            }
            add(field, cHas ? c : "(absent)", sHas ? s : "(absent)", why, canal);
        }
    }

    private static boolean isValueField(String field) {
        return field.startsWith("data.")
                || (field.startsWith("after.")
                        && (field.endsWith(".value") || field.endsWith(".isNull")))
                || field.startsWith("mysqlType.")
                || field.startsWith("sqlType.")
                || field.endsWith(".mysqlType")
                || field.endsWith(".sqlType");
    }

    private static DeliberateDifference explain(
            String field,
            String c,
            String s,
            boolean cHas,
            boolean sHas,
            SideBySideRow canal,
            SideBySideRow sluice,
            boolean keyChange) {
        if (field.equals("id")) {
            return DeliberateDifference.MESSAGE_ID;
        }
        if (field.equals("key") && "false".equals(c) && "true".equals(s)) {
            return DeliberateDifference.MESSAGE_KEY;
        }
        if (field.equals("partition") && canal.statement && canal.ddl) {
            return DeliberateDifference.DDL_PLACEMENT;
        }
        if ((field.equals("database") || field.equals("header.schemaName"))
                && "QUERY".equals(canal.type)
                && "".equals(c)) {
            return DeliberateDifference.QUERY_DATABASE;
        }
        if ((field.equals("database")
                        || field.equals("header.schemaName")
                        || field.equals("rowChange.ddlSchemaName"))
                && canal.statement
                && c != null
                && ("`" + s + "`").equals(c)) {
            return DeliberateDifference.QUOTED_DATABASE;
        }
        if (field.startsWith("old.")) {
            String column = field.substring(4);
            String data = canal.fields.get("data." + column);
            if (cHas && !sHas && Objects.equals(c, data)) {
                return DeliberateDifference.FLAT_OLD;
            }
        }
        String typed = typedColumn(field);
        String mysqlType = typed == null ? "" : canal.mysqlTypes.getOrDefault(typed, "");
        if ((field.startsWith("sqlType.") || field.endsWith(".sqlType"))
                && ValueDifferences.valueDependentSqlType(mysqlType, c, s)) {
            return DeliberateDifference.SQL_TYPE;
        }
        if ((field.startsWith("sqlType.") || field.endsWith(".sqlType"))
                && mysqlType.equals("JSON")
                && "2004|2005".equals(c + "|" + s)) {
            return DeliberateDifference.SCHEMA_SOURCE;
        }
        if ((field.startsWith("mysqlType.") || field.endsWith(".mysqlType"))
                && c != null
                && s != null
                && ValueDifferences.sameServerForm(c, s)) {
            return DeliberateDifference.SCHEMA_SOURCE;
        }
        if ((field.equals("sql") || field.equals("rowChange.sql"))
                && "ERASE".equals(canal.type)
                && c != null
                && c.endsWith("/* generated by server */")
                && ("DROP TABLE `" + canal.database + "`.`" + canal.table + "`").equals(s)) {
            return DeliberateDifference.DROP_TABLE_TEXT;
        }
        if ((field.equals("gtid") || field.equals("header.gtid"))
                && ValueDifferences.mariaDbGtid(c, s)) {
            return DeliberateDifference.MARIADB_GTID;
        }
        if ((field.equals("gtid") || field.equals("header.gtid"))
                && ValueDifferences.mySqlGtid(c, s)) {
            return DeliberateDifference.MYSQL_GTID;
        }
        if (field.equals("header.eventLength") && "0".equals(s)
                || field.equals("rowChange.tableId") && "0".equals(s)) {
            return DeliberateDifference.EVENT_LENGTH_TABLE_ID;
        }
        if (field.equals("header.props")
                && !canal.statement
                && c != null
                && c.matches("\\[rowsCount=\\d+\\]")
                && "[rowsCount=1]".equals(s)) {
            return DeliberateDifference.ROWS_COUNT;
        }
        if (field.equals("header.logfileOffset")
                && !canal.statement
                && ValueDifferences.rowOffset(c, s)) {
            return DeliberateDifference.ROW_OFFSET;
        }
        String column = column(field);
        if (column != null && cHas && sHas) {
            return ValueDifferences.valueDifference(
                    canal.mysqlTypes.getOrDefault(column, ""), c, s);
        }
        return null;
    }

    /** The column of a value or type field, or null. */
    private static String typedColumn(String field) {
        if (field.startsWith("sqlType.") || field.startsWith("mysqlType.")) {
            return field.substring(field.indexOf('.') + 1);
        }
        if ((field.startsWith("after.") || field.startsWith("before."))
                && (field.endsWith(".sqlType") || field.endsWith(".mysqlType"))) {
            return field.substring(field.indexOf('.') + 1, field.lastIndexOf('.'));
        }
        return column(field);
    }

    /** The column of a value field ({@code data.c}, {@code old.c}, {@code after.c.value}). */
    private static String column(String field) {
        if (field.startsWith("data.") || field.startsWith("old.")) {
            return field.substring(field.indexOf('.') + 1);
        }
        if ((field.startsWith("after.") || field.startsWith("before."))
                && field.endsWith(".value")) {
            return field.substring(field.indexOf('.') + 1, field.length() - ".value".length());
        }
        return null;
    }

    private void add(
            String field, String c, String s, DeliberateDifference why, SideBySideRow row) {
        String statement;
        if (row.statement) {
            statement = row.sql;
        } else {
            Set<String> texts = statements.get(row.table + "|" + row.es);
            statement =
                    texts == null
                            ? "(a statement on " + row.table + " at es=" + row.es + ")"
                            : String.join(" | ", texts);
        }
        differences.add(new Difference(field, c, s, why, row.describe(), statement));
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}

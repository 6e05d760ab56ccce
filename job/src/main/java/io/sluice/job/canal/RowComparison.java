package io.sluice.job.canal;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compares a paired Canal row and Sluice row field by field, classifying each difference: in
 * FlatMessage terms, or field by protobuf field when both are binary ({@link BinaryComparison}).
 */
final class RowComparison {

    private RowComparison() {}

    static void compare(FlatRow canal, FlatRow sluice, DiffReport report) {
        same(report, "id", DeliberateDifference.MESSAGE_ID, canal, sluice);
        if (!canal.keyed && sluice.keyed) {
            report.add("key", DeliberateDifference.MESSAGE_KEY, canal, sluice, null, "(key)");
        } else if (canal.keyed != sluice.keyed) {
            report.add("key", null, canal, sluice, "(key)", null);
        }
        if (!canal.isStatement() && canal.partition != sluice.partition) {
            report.add(
                    "partition",
                    canal.partition == 0 ? DeliberateDifference.UNMATCHED_PARTITION : null,
                    canal,
                    sluice,
                    String.valueOf(canal.partition),
                    String.valueOf(sluice.partition));
        }
        if (canal.binary != null && sluice.binary != null) {
            BinaryComparison.compare(canal, sluice, report);
            return;
        }
        boolean queryDatabase = "QUERY".equals(canal.type()) && canal.database().isEmpty();
        same(
                report,
                "database",
                queryDatabase ? DeliberateDifference.QUERY_DATABASE : null,
                canal,
                sluice);
        for (String field : new String[] {"type", "isDdl", "sql", "es"}) {
            same(report, field, null, canal, sluice);
        }
        same(
                report,
                "gtid",
                gtidDifference(canal.text("gtid"), sluice.text("gtid")),
                canal,
                sluice);
        if (!canal.pkNames().equals(sluice.pkNames())) {
            report.add(
                    "pkNames",
                    null,
                    canal,
                    sluice,
                    canal.pkNames().toString(),
                    sluice.pkNames().toString());
        }
        if (!canal.isStatement()) {
            compareValues(canal, sluice, report);
        }
    }

    /** The row's values, old values and column types. */
    static void compareValues(FlatRow canal, FlatRow sluice, DiffReport report) {
        Map<String, String> mysqlTypes = canal.typeMap("mysqlType");
        values(report, "data.", canal, sluice, canal.data(), sluice.data(), mysqlTypes);
        Map<String, String> canalOld = canal.old();
        Map<String, String> sluiceOld = sluice.old();
        boolean keyChange = "UPDATE".equals(canal.type()) && "INSERT".equals(sluice.type());
        if (!keyChange && (canalOld != null || sluiceOld != null)) {
            old(report, canal, sluice, canalOld, sluiceOld, mysqlTypes);
        }
        types(report, "sqlType.", canal, sluice);
        types(report, "mysqlType.", canal, sluice);
    }

    private static DeliberateDifference gtidDifference(String canal, String sluice) {
        if (ValueDifferences.mariaDbGtid(canal, sluice)) {
            return DeliberateDifference.MARIADB_GTID;
        }
        return ValueDifferences.mySqlGtid(canal, sluice) ? DeliberateDifference.MYSQL_GTID : null;
    }

    private static void same(
            DiffReport report,
            String field,
            DeliberateDifference why,
            FlatRow canal,
            FlatRow sluice) {
        String c = canal.text(field);
        String s = sluice.text(field);
        if (!Objects.equals(c, s)) {
            report.add(field, why, canal, sluice, c, s);
        }
    }

    private static void values(
            DiffReport report,
            String prefix,
            FlatRow canal,
            FlatRow sluice,
            Map<String, String> c,
            Map<String, String> s,
            Map<String, String> mysqlTypes) {
        Set<String> columns = new LinkedHashSet<>(c.keySet());
        columns.addAll(s.keySet());
        for (String column : columns) {
            if (!c.containsKey(column) || !s.containsKey(column)) {
                report.add(
                        prefix + column,
                        null,
                        canal,
                        sluice,
                        c.containsKey(column) ? c.get(column) : null,
                        s.containsKey(column) ? s.get(column) : null);
            } else if (!Objects.equals(c.get(column), s.get(column))) {
                report.add(
                        prefix + column,
                        ValueDifferences.valueDifference(
                                mysqlTypes.getOrDefault(column, ""), c.get(column), s.get(column)),
                        canal,
                        sluice,
                        c.get(column),
                        s.get(column));
            }
        }
    }

    private static void old(
            DiffReport report,
            FlatRow canal,
            FlatRow sluice,
            Map<String, String> canalOld,
            Map<String, String> sluiceOld,
            Map<String, String> mysqlTypes) {
        Map<String, String> c = canalOld == null ? Map.of() : canalOld;
        Map<String, String> s = sluiceOld == null ? Map.of() : sluiceOld;
        Map<String, String> canalData = canal.data();
        for (String column : c.keySet()) {
            // Canal's updated-column set spans the message's rows: for this row such a column's
            // "old" value is its unchanged current one.
            if (!s.containsKey(column) && Objects.equals(c.get(column), canalData.get(column))) {
                report.add(
                        "old." + column,
                        DeliberateDifference.FLAT_OLD,
                        canal,
                        sluice,
                        c.get(column),
                        null);
            }
        }
        Map<String, String> canalChanged = new java.util.LinkedHashMap<>();
        c.forEach(
                (k, v) -> {
                    if (s.containsKey(k) || !Objects.equals(v, canalData.get(k))) {
                        canalChanged.put(k, v);
                    }
                });
        values(report, "old.", canal, sluice, canalChanged, s, mysqlTypes);
    }

    private static void types(DiffReport report, String prefix, FlatRow canal, FlatRow sluice) {
        String field = prefix.substring(0, prefix.length() - 1);
        Map<String, String> c = canal.typeMap(field);
        Map<String, String> s = sluice.typeMap(field);
        Set<String> columns = new LinkedHashSet<>(c.keySet());
        columns.addAll(s.keySet());
        for (String column : columns) {
            String cv = c.get(column);
            String sv = s.get(column);
            if (!Objects.equals(cv, sv)) {
                boolean valueDependent =
                        prefix.equals("sqlType.")
                                && ValueDifferences.valueDependentSqlType(
                                        canal.typeMap("mysqlType").getOrDefault(column, ""),
                                        cv,
                                        sv);
                report.add(
                        prefix + column,
                        valueDependent ? DeliberateDifference.SQL_TYPE : null,
                        canal,
                        sluice,
                        cv,
                        sv);
            }
        }
    }
}

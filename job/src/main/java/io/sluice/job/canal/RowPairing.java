package io.sluice.job.canal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pairs Canal's rows with Sluice's. What both carry for the same binlog change is the table, the
 * change type, the event's execute time ({@code es}) and the primary key's values; rows with the
 * same of all those (the same row changed twice in one second) pair in the order read, which both
 * keep since they hash a key to one partition. Statements pair by table, type and {@code es}. Where
 * Sluice writes a statement to several partitions, or splits a primary-key change, the extra
 * messages are reported as the documented difference they are.
 */
final class RowPairing {

    /** A statement Canal does not write (its DDL parser gives it no type). */
    private static final Pattern ALTER_DATABASE =
            Pattern.compile("^\\s*ALTER\\s+(DATABASE|SCHEMA)\\b", Pattern.CASE_INSENSITIVE);

    private final DiffReport report;
    private final Map<String, Deque<FlatRow>> sluice = new LinkedHashMap<>();
    private final List<FlatRow> canalUnpaired = new ArrayList<>();
    private final Set<String> pairedStatements = new HashSet<>();

    private RowPairing(DiffReport report) {
        this.report = report;
    }

    static void pair(List<FlatRow> canalRows, List<FlatRow> sluiceRows, DiffReport report) {
        RowPairing pairing = new RowPairing(report);
        sluiceRows.forEach(
                row -> pairing.sluice.computeIfAbsent(key(row), k -> new ArrayDeque<>()).add(row));
        for (FlatRow canal : canalRows) {
            FlatRow match = pairing.poll(key(canal));
            if (match == null) {
                pairing.canalUnpaired.add(canal);
            } else {
                report.pairs++;
                if (canal.isStatement()) {
                    pairing.pairedStatements.add(key(canal));
                }
                RowComparison.compare(canal, match, report);
            }
        }
        pairing.unpaired();
    }

    private FlatRow poll(String key) {
        Deque<FlatRow> rows = sluice.get(key);
        return rows == null ? null : rows.poll();
    }

    private void unpaired() {
        for (FlatRow canal : canalUnpaired) {
            if (canal.isStatement() && "QUERY".equals(canal.type()) && !canal.isDdl()) {
                report.add(
                        "only in Canal",
                        DeliberateDifference.STATEMENT_TEXTS,
                        canal,
                        null,
                        canal.text("sql"),
                        null);
            } else if (isKeyChange(canal)) {
                keyChange(canal);
            } else {
                report.add("only in Canal", null, canal, null, canal.type(), null);
            }
        }
        for (Deque<FlatRow> rows : sluice.values()) {
            for (FlatRow row : rows) {
                // A statement Sluice wrote to more partitions than Canal's one.
                boolean extraCopy =
                        row.isStatement() && row.isDdl() && pairedStatements.contains(key(row));
                boolean alterDatabase =
                        row.isStatement()
                                && row.isDdl()
                                && row.text("sql") != null
                                && ALTER_DATABASE.matcher(row.text("sql")).find();
                report.add(
                        "only in Sluice",
                        extraCopy
                                ? DeliberateDifference.DDL_PLACEMENT
                                : alterDatabase ? DeliberateDifference.ALTER_DATABASE : null,
                        null,
                        row,
                        null,
                        row.type() + (extraCopy ? " copy in partition " + row.partition : ""));
            }
        }
    }

    /** Canal's UPDATE that changed the primary key: Sluice writes DELETE old + INSERT new. */
    private static boolean isKeyChange(FlatRow canal) {
        Map<String, String> old = canal.old();
        return "UPDATE".equals(canal.type())
                && old != null
                && canal.pkNames().stream().anyMatch(old::containsKey);
    }

    private void keyChange(FlatRow canal) {
        Map<String, String> before = new LinkedHashMap<>(canal.data());
        before.putAll(canal.old());
        String prefix = canal.database() + "|" + canal.table() + "|";
        FlatRow delete = poll(prefix + "DELETE|" + canal.es() + "|" + canal.keyText(before));
        FlatRow insert = poll(prefix + "INSERT|" + canal.es() + "|" + canal.keyText());
        if (delete == null || insert == null) {
            report.add(
                    "only in Canal",
                    null,
                    canal,
                    delete != null ? delete : insert,
                    canal.type(),
                    null);
            return;
        }
        report.pairs++;
        report.add(
                "type",
                DeliberateDifference.PRIMARY_KEY_CHANGE,
                canal,
                insert,
                "UPDATE " + canal.keyText(before) + " -> " + canal.keyText(),
                "DELETE + INSERT");
        RowComparison.compareValues(canal, insert, report);
    }

    private static String key(FlatRow row) {
        if (row.isStatement()) {
            // Canal's QUERY has an empty database: table, type and time identify it.
            String database = row.isDdl() ? row.database() : "";
            return database + "|" + row.table() + "|" + row.type() + "|" + row.es() + "|statement";
        }
        return row.database()
                + "|"
                + row.table()
                + "|"
                + row.type()
                + "|"
                + row.es()
                + "|"
                + row.keyText();
    }
}

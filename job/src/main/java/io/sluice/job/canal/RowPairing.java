package io.sluice.job.canal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pairs Canal's rows with Sluice's as they are read. What both carry for the same binlog change is
 * the table, the change type, the event's execute time ({@code es}) and the primary key's values;
 * rows with the same of all those (the same row changed twice in one second) pair in the order
 * read, which both keep since they hash a key to one partition. Statements pair by table, type and
 * {@code es}. A pair is compared and released at once; a row still without a pair once both sides
 * have read past its {@code es} by the window ({@link #evictBefore}) is reported as only on its
 * side. Where Sluice writes a statement to several partitions, or splits a primary-key change, the
 * extra messages are reported as the documented difference they are.
 */
final class RowPairing {

    /** A statement Canal does not write (its DDL parser gives it no type). */
    /** Canal's entries for the end of an XA transaction, which Sluice does not write. */
    private static final Set<String> XA_END = Set.of("XACOMMIT", "XAROLLBACK");

    private static final Pattern ALTER_DATABASE =
            Pattern.compile("^\\s*ALTER\\s+(DATABASE|SCHEMA)\\b", Pattern.CASE_INSENSITIVE);

    private final DiffReport report;
    private final Map<String, Deque<FlatRow>> canal = new LinkedHashMap<>();
    private final Map<String, Deque<FlatRow>> sluice = new LinkedHashMap<>();

    /** The keys of statements both wrote, by {@code es}: a later Sluice copy is documented. */
    private final Map<String, Long> pairedStatements = new HashMap<>();

    private long held;

    RowPairing(DiffReport report) {
        this.report = report;
    }

    /** A row read from Canal's side ({@code fromCanal}) or Sluice's. */
    void add(boolean fromCanal, FlatRow row) {
        String key = key(row);
        FlatRow match = poll(fromCanal ? sluice : canal, key);
        if (match == null) {
            (fromCanal ? canal : sluice).computeIfAbsent(key, k -> new ArrayDeque<>()).add(row);
            held++;
            report.held(held);
            return;
        }
        FlatRow c = fromCanal ? row : match;
        FlatRow s = fromCanal ? match : row;
        report.pairs++;
        if (c.isStatement()) {
            pairedStatements.put(key, c.es());
        }
        RowComparison.compare(c, s, report);
    }

    /** Reports every row still without a pair whose {@code es} is before {@code es}. */
    void evictBefore(long es) {
        for (FlatRow row : take(canal, es)) {
            canalOnly(row);
        }
        for (FlatRow row : take(sluice, es)) {
            sluiceOnly(row);
        }
        pairedStatements.values().removeIf(statementEs -> statementEs < es);
    }

    /** Reports every row still without a pair. */
    void finish() {
        evictBefore(Long.MAX_VALUE);
    }

    private List<FlatRow> take(Map<String, Deque<FlatRow>> side, long es) {
        List<FlatRow> rows = new ArrayList<>();
        Iterator<Deque<FlatRow>> keys = side.values().iterator();
        while (keys.hasNext()) {
            Deque<FlatRow> waiting = keys.next();
            waiting.removeIf(
                    row -> {
                        boolean old = row.es() < es;
                        if (old) {
                            rows.add(row);
                        }
                        return old;
                    });
            if (waiting.isEmpty()) {
                keys.remove();
            }
        }
        held -= rows.size();
        return rows;
    }

    private FlatRow poll(Map<String, Deque<FlatRow>> side, String key) {
        Deque<FlatRow> rows = side.get(key);
        if (rows == null) {
            return null;
        }
        FlatRow row = rows.poll();
        if (rows.isEmpty()) {
            side.remove(key);
        }
        held--;
        return row;
    }

    private void canalOnly(FlatRow canal) {
        if (canal.isStatement() && "QUERY".equals(canal.type()) && !canal.isDdl()) {
            report.add(
                    "only in Canal",
                    DeliberateDifference.STATEMENT_TEXTS,
                    canal,
                    null,
                    canal.text("sql"),
                    null);
        } else if (canal.isStatement() && XA_END.contains(canal.type())) {
            report.add(
                    "only in Canal",
                    DeliberateDifference.XA_ENTRIES,
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

    private void sluiceOnly(FlatRow row) {
        // A statement Sluice wrote to more partitions than Canal's one.
        boolean extraCopy =
                row.isStatement() && row.isDdl() && pairedStatements.containsKey(key(row));
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
        FlatRow delete =
                poll(sluice, prefix + "DELETE|" + canal.es() + "|" + canal.keyText(before));
        FlatRow insert = poll(sluice, prefix + "INSERT|" + canal.es() + "|" + canal.keyText());
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

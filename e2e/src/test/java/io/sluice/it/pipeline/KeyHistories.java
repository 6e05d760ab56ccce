package io.sluice.it.pipeline;

import io.sluice.it.pipeline.VersionedWriter.Fate;
import io.sluice.it.pipeline.VersionedWriter.Key;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a topic holds for each row of a {@link VersionedWriter} load, judged against the row's life.
 * Whatever the moment each snapshot chunk was read, a row's history, in its partition, must be
 * exactly: one INSERT at some version v0 (a snapshot row at the version it had when its chunk was
 * read, or the binlog's INSERT at the version it was born with), then UPDATEs at v0 + 1, v0 + 2, …
 * up to its last version, then, if it died, a DELETE at that version and nothing after. A lost
 * change leaves a gap or an early end, a change written twice repeats a version or a second INSERT,
 * a change out of order breaks the count. Only a row born and deleted before its chunk was read may
 * have no history at all.
 */
final class KeyHistories {

    /** One delivered change of a row. */
    record Change(String type, int version, String note) {
        @Override
        public String toString() {
            return type + "@" + version;
        }
    }

    private static final int EXAMPLES = 5;

    private final Map<Key, List<Change>> byKey;
    private final List<String> strays;
    private final int rows;

    private KeyHistories(Map<Key, List<Change>> byKey, List<String> strays, int rows) {
        this.byKey = byKey;
        this.strays = strays;
        this.rows = rows;
    }

    /** Groups {@code delivered} by row, each row's changes in the order given. */
    static KeyHistories of(List<Delivered> delivered) {
        return of(delivered, KeyKind.INT);
    }

    /** {@link #of(List)} of a load whose keys are of {@code keys}. */
    static KeyHistories of(List<Delivered> delivered, KeyKind keys) {
        Map<Key, List<Change>> byKey = new LinkedHashMap<>();
        List<String> strays = new ArrayList<>();
        for (Delivered row : delivered) {
            if (row.row.ddl || row.get("id") == null) {
                strays.add(row.toString());
                continue;
            }
            Key key = new Key(row.row.table, keys.id(row.get("id")));
            byKey.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(
                            new Change(
                                    row.row.type,
                                    Integer.parseInt(row.get("version")),
                                    row.get("note")));
        }
        return new KeyHistories(byKey, strays, delivered.size());
    }

    /** How a row's history compares with its life. */
    enum Verdict {
        EXACT,
        /** Right so far, later changes missing (still on their way, or lost). */
        INCOMPLETE,
        /** Wrong whatever may still come. */
        WRONG
    }

    /** A judgement of all rows: the counts and a few examples of each failure. */
    static final class Report {
        final Map<Verdict, Integer> counts = new TreeMap<>();
        final Map<Verdict, List<String>> examples = new TreeMap<>();
        int neverSeen;
        int rows;
        int keys;

        int count(Verdict verdict) {
            return counts.getOrDefault(verdict, 0);
        }

        boolean exact() {
            return count(Verdict.INCOMPLETE) == 0 && count(Verdict.WRONG) == 0;
        }

        @Override
        public String toString() {
            return String.format(
                    "%d rows delivered for %d keys; %d keys exact, %d incomplete %s, %d wrong %s;"
                            + " %d deleted keys never delivered",
                    rows,
                    keys,
                    count(Verdict.EXACT),
                    count(Verdict.INCOMPLETE),
                    examples.getOrDefault(Verdict.INCOMPLETE, List.of()),
                    count(Verdict.WRONG),
                    examples.getOrDefault(Verdict.WRONG, List.of()),
                    neverSeen);
        }
    }

    /** Judges every row that ever lived ({@code fates}) and every row delivered. */
    Report judge(Map<Key, Fate> fates) {
        Report report = new Report();
        report.rows = rows;
        report.keys = byKey.size();
        for (String stray : strays) {
            add(report, Verdict.WRONG, "not a row of the load: " + stray);
        }
        for (Key key : byKey.keySet()) {
            if (!fates.containsKey(key)) {
                add(report, Verdict.WRONG, key + " never written by the load: " + byKey.get(key));
            }
        }
        for (Map.Entry<Key, Fate> entry : fates.entrySet()) {
            Key key = entry.getKey();
            Fate fate = entry.getValue();
            List<Change> changes = byKey.getOrDefault(key, List.of());
            if (changes.isEmpty() && fate.deleted) {
                report.neverSeen++;
                continue;
            }
            String problem = wrong(changes, fate);
            if (problem != null) {
                add(report, Verdict.WRONG, describe(key, changes, fate) + ": " + problem);
            } else if (!complete(changes, fate)) {
                add(report, Verdict.INCOMPLETE, describe(key, changes, fate));
            } else {
                add(report, Verdict.EXACT, null);
            }
        }
        return report;
    }

    /** The rows as the delivered changes leave them: key to "version/note", deleted rows gone. */
    Map<Key, String> finalRows() {
        Map<Key, String> rows = new TreeMap<>(KeyHistories::compare);
        byKey.forEach(
                (key, changes) -> {
                    Change last = changes.get(changes.size() - 1);
                    if (!last.type.equals("DELETE")) {
                        rows.put(key, last.version + "/" + last.note);
                    }
                });
        return rows;
    }

    static int compare(Key a, Key b) {
        int byTable = a.table().compareTo(b.table());
        return byTable != 0 ? byTable : Integer.compare(a.id(), b.id());
    }

    /** Why {@code changes} cannot be the start of {@code fate}'s history; null if they can. */
    private static String wrong(List<Change> changes, Fate fate) {
        Change previous = null;
        for (Change change : changes) {
            if (change.version > fate.version) {
                return change + " is beyond the row's last version";
            }
            if (previous == null) {
                if (!change.type.equals("INSERT")) {
                    return "starts with " + change + ", not an INSERT";
                }
                if (change.version < fate.born) {
                    return "INSERT@" + change.version + " before the row was born";
                }
            } else if (previous.type.equals("DELETE")) {
                return change + " after the DELETE";
            } else if (change.type.equals("INSERT")) {
                return "a second INSERT";
            } else if (change.type.equals("UPDATE") && change.version != previous.version + 1) {
                return change + " follows " + previous;
            } else if (change.type.equals("DELETE") && change.version != previous.version) {
                return change + " follows " + previous;
            }
            previous = change;
        }
        Change last = previous;
        if (last != null && !fate.deleted && last.type.equals("DELETE")) {
            return "deleted, but the row is alive";
        }
        return null;
    }

    private static boolean complete(List<Change> changes, Fate fate) {
        if (changes.isEmpty()) {
            return false;
        }
        Change last = changes.get(changes.size() - 1);
        return last.version == fate.version && last.type.equals("DELETE") == fate.deleted;
    }

    private static String describe(Key key, List<Change> changes, Fate fate) {
        return key
                + " "
                + changes
                + " (born at "
                + fate.born
                + ", "
                + (fate.deleted ? "deleted at " : "in the database at ")
                + fate.version
                + ")";
    }

    private static void add(Report report, Verdict verdict, String example) {
        report.counts.merge(verdict, 1, Integer::sum);
        if (example != null) {
            List<String> examples =
                    report.examples.computeIfAbsent(verdict, v -> new ArrayList<>());
            if (examples.size() < EXAMPLES) {
                examples.add(example);
            }
        }
    }
}

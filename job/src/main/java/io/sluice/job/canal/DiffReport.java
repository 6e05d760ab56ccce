package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What canal-diff found: counts, and the differences grouped by field, with a few examples. */
final class DiffReport {

    static final int EXAMPLES = 3;

    long canalMessages;
    long canalRows;
    long sluiceMessages;
    long sluiceRows;
    long pairs;

    /** The most rows read and still waiting for a pair at any one time. */
    long heldAtMost;

    private final Map<String, Group> groups = new LinkedHashMap<>();

    /** One difference; {@code why} is null when no documented difference explains it. */
    void add(
            String field,
            DeliberateDifference why,
            FlatRow canal,
            FlatRow sluice,
            String canalValue,
            String sluiceValue) {
        Group group = groups.computeIfAbsent(field + "|" + why, k -> new Group(field, why));
        group.count++;
        if (group.examples.size() < EXAMPLES) {
            FlatRow any = canal != null ? canal : sluice;
            group.examples.add(
                    new Example(
                            any.database()
                                    + "."
                                    + any.table()
                                    + " "
                                    + any.type()
                                    + " "
                                    + (any.isStatement() ? "es=" + any.es() : any.keyText()),
                            canal == null ? null : canal.where(),
                            sluice == null ? null : sluice.where(),
                            canalValue,
                            sluiceValue));
        }
    }

    void held(long rows) {
        heldAtMost = Math.max(heldAtMost, rows);
    }

    long undocumented() {
        return groups.values().stream().filter(g -> g.why == null).mapToLong(g -> g.count).sum();
    }

    void printText(PrintStream out) {
        out.printf(
                "Canal:  %d messages, %d rows/statements%nSluice: %d messages, %d rows/statements%n"
                        + "pairs matched: %d%nrows held at most: %d%n",
                canalMessages, canalRows, sluiceMessages, sluiceRows, pairs, heldAtMost);
        if (groups.isEmpty()) {
            out.println("no differences");
        }
        for (Group group : groups.values()) {
            out.printf(
                    "%n%-28s %6d  %s%n",
                    group.field,
                    group.count,
                    group.why == null ? "NOT DOCUMENTED" : "documented: " + group.why.docRow());
            for (Example e : group.examples) {
                out.printf(
                        "    %s: Canal %s%s, Sluice %s%s%n",
                        e.row,
                        quoted(e.canalValue),
                        e.canalAt == null ? "" : " (" + e.canalAt + ")",
                        quoted(e.sluiceValue),
                        e.sluiceAt == null ? "" : " (" + e.sluiceAt + ")");
            }
        }
        long undocumented = undocumented();
        out.println();
        out.println(
                undocumented == 0
                        ? "result: every difference is a documented one (docs/canal-compatibility.md)"
                        : "result: " + undocumented + " undocumented difference(s)");
    }

    void printJson(PrintStream out) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.putObject("canal").put("messages", canalMessages).put("rows", canalRows);
        root.putObject("sluice").put("messages", sluiceMessages).put("rows", sluiceRows);
        root.put("pairs", pairs);
        root.put("heldAtMost", heldAtMost);
        root.put("undocumented", undocumented());
        ArrayNode differences = root.putArray("differences");
        for (Group group : groups.values()) {
            ObjectNode node = differences.addObject();
            node.put("field", group.field).put("count", group.count);
            node.put("documented", group.why != null);
            node.put("deliberate", group.why == null ? null : group.why.docRow());
            ArrayNode examples = node.putArray("examples");
            for (Example e : group.examples) {
                examples.addObject()
                        .put("row", e.row)
                        .put("canal", e.canalValue)
                        .put("canalAt", e.canalAt)
                        .put("sluice", e.sluiceValue)
                        .put("sluiceAt", e.sluiceAt);
            }
        }
        out.println(root.toPrettyString());
    }

    private static String quoted(String value) {
        return value == null ? "(none)" : "\"" + value + "\"";
    }

    private static final class Group {
        final String field;
        final DeliberateDifference why;
        final List<Example> examples = new ArrayList<>();
        long count;

        Group(String field, DeliberateDifference why) {
            this.field = field;
            this.why = why;
        }
    }

    private static final class Example {
        final String row;
        final String canalAt;
        final String sluiceAt;
        final String canalValue;
        final String sluiceValue;

        Example(
                String row,
                String canalAt,
                String sluiceAt,
                String canalValue,
                String sluiceValue) {
            this.row = row;
            this.canalAt = canalAt;
            this.sluiceAt = sluiceAt;
            this.canalValue = canalValue;
            this.sluiceValue = sluiceValue;
        }
    }
}

package io.sluice.it.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Changes of {@code ddl/counters.sql} rows as text ({@code "UPDATE 3@2"}: type, id, version), each
 * distinguishable since (id, version) is unique per change.
 */
final class CounterChanges {

    private CounterChanges() {}

    static String change(String type, Object id, Object version) {
        return type + " " + id + "@" + version;
    }

    static List<String> texts(List<Delivered> rows) {
        List<String> texts = new ArrayList<>();
        rows.forEach(row -> texts.add(change(row.row.type, row.get("id"), row.get("version"))));
        return texts;
    }

    /**
     * Per key, in its partition (Canal's {@code $pk$} hash over {@code partitions}): the order of
     * {@code expected}, which lists the changes in the order they were made.
     */
    static void assertPerKeyOrder(
            List<Delivered> all, List<String> expected, String database, int partitions) {
        Map<String, List<String>> expectedByKey = new HashMap<>();
        for (String change : expected) {
            String id = change.substring(change.indexOf(' ') + 1, change.indexOf('@'));
            expectedByKey.computeIfAbsent(id, k -> new ArrayList<>()).add(change);
        }
        Map<String, List<String>> actualByKey = new HashMap<>();
        for (Delivered row : all) {
            String id = row.get("id");
            assertThat(row.partition)
                    .as("Canal's $pk$ partition of %s", row)
                    .isEqualTo(Delivered.canalPartition(database, partitions, id));
            actualByKey
                    .computeIfAbsent(id, k -> new ArrayList<>())
                    .add(change(row.row.type, id, row.get("version")));
        }
        assertThat(actualByKey).isEqualTo(expectedByKey);
    }
}

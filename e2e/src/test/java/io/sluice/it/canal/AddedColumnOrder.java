package io.sluice.it.canal;

import io.sluice.it.canal.CanalMessages.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks one partition of the DDL-order workload: ALTERs that each add a column {@code c<n>} to
 * {@code items (id, name, v)}, between rounds that set every key's {@code v} to the round's version
 * (0 for the snapshot). A row of version v follows the first v - 1 statements in the database, so
 * its column count tells which statements must precede it in the partition.
 */
public final class AddedColumnOrder {

    private AddedColumnOrder() {}

    /**
     * The statements of round {@code version} (from 1): after the first round an ALTER adding
     * column {@code c<version - 1>} to {@code items}, then every key's {@code v} set to {@code
     * version}, and at every tenth key a row into each of {@code everyTenth} (id {@code version *
     * 100 + key}).
     */
    public static String[] round(int version, int keys, String... everyTenth) {
        List<String> changes = new ArrayList<>();
        if (version > 1) {
            changes.add("ALTER TABLE items ADD COLUMN c" + (version - 1) + " INT");
        }
        for (int id = 1; id <= keys; id++) {
            changes.add("UPDATE items SET v = " + version + " WHERE id = " + id);
            if (id % 10 == 0) {
                for (String table : everyTenth) {
                    changes.add(
                            "INSERT INTO " + table + " VALUES (" + (version * 100 + id) + ", 'n')");
                }
            }
        }
        return changes.toArray(String[]::new);
    }

    /**
     * In {@code partition}: exactly {@code statements} statements, once each and in order, each row
     * of {@code items} after exactly the statements before it (when the partition gets statements),
     * every row's columns matching its version, and each key's versions consecutive from 0 (the
     * snapshot).
     */
    public static void assertPartition(int partition, List<Row> rows, int statements) {
        assertPartition(partition, rows, statements, 0);
    }

    /**
     * As {@link #assertPartition(int, List, int)} for a run that starts at round {@code
     * firstVersion} (1 when the source starts in the binlog, without a snapshot).
     */
    public static void assertPartition(
            int partition, List<Row> rows, int statements, int firstVersion) {
        int statementsSeen = 0;
        Map<String, Integer> lastVersion = new HashMap<>();
        for (Row row : rows) {
            if (row.ddl) {
                statementsSeen++;
                assertThat(row.sql)
                        .as("statement %d in partition %d", statementsSeen, partition)
                        .contains("c" + statementsSeen);
                continue;
            }
            if (!row.table.equals("items")) {
                continue;
            }
            int version = Integer.parseInt(row.data.get("v"));
            int before = Math.max(0, version - 1);
            assertThat(row.data)
                    .as("row %s (version %d) in partition %d", row.data, version, partition)
                    .hasSize(3 + before);
            if (statements > 0) {
                assertThat(statementsSeen)
                        .as("statements before row %s in partition %d", row.data, partition)
                        .isEqualTo(before);
            }
            Integer previous = lastVersion.put(row.data.get("id"), version);
            assertThat(version)
                    .as("versions of key %s in partition %d", row.data.get("id"), partition)
                    .isEqualTo(previous == null ? firstVersion : previous + 1);
        }
        assertThat(statementsSeen)
                .as("statements in partition %d", partition)
                .isEqualTo(statements);
    }
}

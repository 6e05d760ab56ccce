package io.sluice.functions.source.binlog;

import javax.annotation.Nullable;

import java.util.Objects;

/**
 * One table to snapshot on demand: the signal's id, the table, and the condition its rows must meet
 * (ANDed to each chunk's query; null for every row).
 */
public final class SnapshotRequest {

    private final String id;
    private final String database;
    private final String table;
    @Nullable private final String condition;

    public SnapshotRequest(String id, String database, String table, @Nullable String condition) {
        this.id = Objects.requireNonNull(id, "id");
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
        this.condition = condition == null || condition.isBlank() ? null : condition.trim();
    }

    public String id() {
        return id;
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
    }

    /** The rows' condition, null for every row. */
    @Nullable
    public String condition() {
        return condition;
    }

    /** {@code database.table}. */
    public String name() {
        return database + "." + table;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SnapshotRequest)) {
            return false;
        }
        SnapshotRequest that = (SnapshotRequest) o;
        return id.equals(that.id)
                && database.equals(that.database)
                && table.equals(that.table)
                && Objects.equals(condition, that.condition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, database, table, condition);
    }

    @Override
    public String toString() {
        return name() + (condition == null ? "" : " WHERE " + condition) + " (signal " + id + ")";
    }
}

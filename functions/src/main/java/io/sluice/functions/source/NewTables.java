package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What the running job does with a table that matches {@code source.tables} and appears while it
 * runs: created, or renamed into a captured name ({@link MySqlSourceOptions#NEW_TABLES}).
 */
@PublicEvolving
public enum NewTables {
    /** Capture its changes from the DDL on and queue an on-demand snapshot of its rows. */
    SNAPSHOT("snapshot"),
    /** Capture its changes from the DDL on, as Debezium does; rows it had before are not read. */
    STREAM_ONLY("stream-only"),
    /** Leave it out: only the tables that existed when the job started are captured. */
    IGNORE("ignore");

    private final String value;

    NewTables(String value) {
        this.value = value;
    }

    @Override
    public String toString() {
        return value;
    }
}

package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/** Where the source starts reading. */
@PublicEvolving
public enum StartupMode {
    /** Snapshot the tables, then follow the binlog from the snapshot's position. */
    INITIAL("initial"),
    /** No snapshot: follow the binlog from its current end. */
    LATEST("latest"),
    /** No snapshot: follow the binlog from the first event at or after a time. */
    TIMESTAMP("timestamp"),
    /** No snapshot: follow the binlog from a file and position. */
    BINLOG_POSITION("binlog-position"),
    /** No snapshot: follow the binlog from after a GTID set. */
    GTID("gtid");

    private final String value;

    StartupMode(String value) {
        this.value = value;
    }

    @Override
    public String toString() {
        return value;
    }
}

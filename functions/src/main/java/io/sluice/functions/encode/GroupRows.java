package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;

/** Which rows share a message ({@link EncodeOptions#GROUP_ROWS}). */
@PublicEvolving
public enum GroupRows {
    /** One row per message. */
    NONE("none"),
    /**
     * The rows of one binlog rows event that go to the same partition share a message, as Canal
     * writes them.
     */
    EVENT("event");

    private final String value;

    GroupRows(String value) {
        this.value = value;
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}

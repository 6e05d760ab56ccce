package io.sluice.functions.route;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Which partitions of its topic a statement (DDL) is written to, in both doors. Either way it is
 * written once per partition it reaches, after every earlier row of its table there and before
 * every later one.
 */
@PublicEvolving
public enum DdlPartitions {
    /** Every partition of the topic (Sluice's default): every consumer sees the table change. */
    EVERY("every"),
    /** Partition 0 only, as Canal does. */
    ZERO("zero");

    private final String value;

    DdlPartitions(String value) {
        this.value = value;
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }

    /** How many partitions, from 0, get the statement, of a topic with {@code partitions}. */
    public int of(int partitions) {
        return this == EVERY ? partitions : Math.min(1, partitions);
    }
}

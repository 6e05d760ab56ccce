package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What happens to a row whose message is larger than its sink takes ({@link LargeMessageOptions}).
 */
@PublicEvolving
public enum LargeMessagePolicy {
    /** The job stops with an error naming the table, key, size and limit; it does not restart. */
    FAIL("fail"),
    /** The message keeps only the primary-key columns, and a {@code sluiceOversize} marker. */
    KEY_ONLY("key-only"),
    /** The full message is stored as a file; a key-only message names it. */
    CLAIM_CHECK("claim-check"),
    /** The full message goes to the dead-letter topic instead. */
    DEAD_LETTER("dead-letter");

    private final String value;

    LargeMessagePolicy(String value) {
        this.value = value;
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}

package io.sluice.functions.progress;

import org.apache.flink.annotation.PublicEvolving;

/** Whether progress markers are written ({@code encode.progress-markers}). */
@PublicEvolving
public enum ProgressMarkers {
    /** No markers: Canal's consumers see only Canal's messages. */
    OFF("off"),
    /** One marker in every partition at every checkpoint, in that checkpoint's transaction. */
    CHECKPOINT("checkpoint");

    private final String value;

    ProgressMarkers(String value) {
        this.value = value;
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}

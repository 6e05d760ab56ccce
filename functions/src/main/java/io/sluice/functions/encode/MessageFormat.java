package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;

import io.sluice.serializers.canal.CanalBinaryEncoder;
import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.canal.ChangeEncoder;

/** The wire format of the messages Sluice writes. */
@PublicEvolving
public enum MessageFormat {
    /** Canal's FlatMessage JSON ({@code canal.mq.flatMessage=true}). */
    CANAL_FLAT("canal-flat"),
    /** Canal's protobuf Packet/Messages/Entry ({@code canal.mq.flatMessage=false}). */
    CANAL_BINARY("canal-binary");

    private final String value;

    MessageFormat(String value) {
        this.value = value;
    }

    /** A new encoder for this format; encoders reuse buffers, so one per thread. */
    public ChangeEncoder newEncoder() {
        return this == CANAL_FLAT ? new CanalFlatEncoder() : new CanalBinaryEncoder();
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}

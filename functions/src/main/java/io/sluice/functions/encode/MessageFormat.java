package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;

import io.sluice.serializers.canal.CanalBinaryEncoder;
import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.debezium.DebeziumJsonEncoder;
import io.sluice.serializers.debezium.DebeziumJsonSettings;

import javax.annotation.Nullable;

/** The wire format of the messages Sluice writes. */
@PublicEvolving
public enum MessageFormat {
    /** Canal's FlatMessage JSON ({@code canal.mq.flatMessage=true}). */
    CANAL_FLAT("canal-flat"),
    /** Canal's protobuf Packet/Messages/Entry ({@code canal.mq.flatMessage=false}). */
    CANAL_BINARY("canal-binary"),
    /**
     * Debezium 3's MySQL envelope as Kafka Connect's JsonConverter writes it, with Debezium's key
     * and tombstones ({@link DebeziumJsonEncoder}).
     */
    DEBEZIUM_JSON("debezium-json");

    private final String value;

    MessageFormat(String value) {
        this.value = value;
    }

    /**
     * A new encoder for this format; encoders reuse buffers, so one per thread.
     *
     * @param debezium how debezium-json writes; ignored by the other formats, may then be null
     */
    public ChangeEncoder newEncoder(@Nullable DebeziumJsonSettings debezium) {
        switch (this) {
            case CANAL_FLAT:
                return new CanalFlatEncoder();
            case CANAL_BINARY:
                return new CanalBinaryEncoder();
            default:
                if (debezium == null) {
                    throw new IllegalArgumentException("debezium-json needs its settings");
                }
                return new DebeziumJsonEncoder(debezium);
        }
    }

    /** Whether one change may become several messages, and a statement none (debezium-json). */
    public boolean isDebezium() {
        return this == DEBEZIUM_JSON;
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}

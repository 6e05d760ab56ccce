package io.sluice.serializers.canal;

import io.sluice.serializers.event.ChangeEvent;

import java.util.List;

/**
 * Writes changes as one broker message. Implementations reuse their buffers between calls, so an
 * instance serves one thread.
 */
public interface ChangeEncoder {

    /**
     * Encodes {@code changes} as one message, as Canal writes one binlog rows event: every change
     * has the same table schema and type, and rows keep their order. A statement (DDL) is encoded
     * alone.
     *
     * @param changes at least one change
     * @param messageId Canal's message id ({@code id} in flat JSON, {@code batch_id} in protobuf)
     * @param buildTime Canal's {@code ts}: when the message is built, in epoch milliseconds
     * @return a new array that the caller owns
     */
    byte[] encode(List<ChangeEvent> changes, long messageId, long buildTime);

    /**
     * As {@link #encode(List, long, long)}, with one property beside Canal's own fields, which
     * Canal's consumers skip: in flat JSON a top-level field {@code name} whose value is the JSON
     * {@code json}; in protobuf a {@code name}={@code json} pair among the entry header's {@code
     * props}.
     *
     * @param name letters, digits and '_' only
     * @param json a JSON value
     */
    byte[] encode(
            List<ChangeEvent> changes, long messageId, long buildTime, String name, String json);

    /** Checks a property name for {@link #encode(List, long, long, String, String)}. */
    static String checkPropertyName(String name) {
        if (name.isEmpty()
                || !name.chars()
                        .allMatch(c -> c == '_' || Character.isLetterOrDigit(c) && c < 128)) {
            throw new IllegalArgumentException(
                    "A message property name is letters, digits and '_', but is '" + name + "'");
        }
        return name;
    }
}

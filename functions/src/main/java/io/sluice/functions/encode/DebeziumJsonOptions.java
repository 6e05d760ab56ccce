package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.serializers.debezium.DebeziumJsonSettings;

/** Reads debezium-json's settings from the encode options and the source's TIMESTAMP zone. */
@Internal
public final class DebeziumJsonOptions {

    private DebeziumJsonOptions() {}

    /**
     * The settings for {@code format}, or null when it is not debezium-json.
     *
     * @param encode the encode options ({@code encode.} in YAML, the sink table's in SQL)
     * @param source the source options, whose {@code timestamp-time-zone} Sluice's TIMESTAMP text
     *     is in; null for its default
     */
    public static DebeziumJsonSettings settings(
            MessageFormat format, OptionSection encode, OptionSection source) {
        if (!format.isDebezium()) {
            return null;
        }
        String zone =
                source == null
                        ? MySqlSourceOptions.TIMESTAMP_TIME_ZONE.defaultValue()
                        : source.get(MySqlSourceOptions.TIMESTAMP_TIME_ZONE);
        String prefix = encode.get(EncodeOptions.DEBEZIUM_TOPIC_PREFIX);
        if (prefix.isBlank()) {
            throw new IllegalArgumentException(
                    "Option '"
                            + encode.key(EncodeOptions.DEBEZIUM_TOPIC_PREFIX)
                            + "' names Debezium's logical server and must not be blank, but is '"
                            + prefix
                            + "'");
        }
        return new DebeziumJsonSettings(
                prefix,
                encode.get(EncodeOptions.DEBEZIUM_SCHEMAS),
                encode.get(EncodeOptions.DEBEZIUM_TOMBSTONES),
                zone);
    }

    /**
     * Checks what debezium-json cannot do, naming the option: rows grouped into one message, and
     * tombstones into RocketMQ, whose messages need a body.
     *
     * @param debezium null when the format is another
     * @param grouping null for one row per message
     */
    public static void checkSink(
            DebeziumJsonSettings debezium, GroupSettings grouping, PipelineSections sections) {
        if (debezium == null) {
            return;
        }
        if (grouping != null) {
            throw new IllegalArgumentException(
                    "Option '"
                            + sections.encode().key(EncodeOptions.GROUP_ROWS)
                            + "' is 'event', but format 'debezium-json' writes one row per"
                            + " message, as Debezium: set it to 'none'");
        }
        if (debezium.tombstones() && sections.sink().get(SinkOptions.TYPE) == SinkType.ROCKETMQ) {
            throw new IllegalArgumentException(
                    "Option '"
                            + sections.encode().key(EncodeOptions.DEBEZIUM_TOMBSTONES)
                            + "' is true, but RocketMQ has no tombstones (a message needs a body):"
                            + " set it to false for sink type 'rocketmq'");
        }
    }
}

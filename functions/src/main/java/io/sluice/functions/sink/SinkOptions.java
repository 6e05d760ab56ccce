package io.sluice.functions.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Options shared by every sink (YAML section {@code sink.}); each broker's own are in its options
 * class, in its own section.
 */
@PublicEvolving
public final class SinkOptions {

    public static final ConfigOption<SinkType> TYPE =
            ConfigOptions.key("type")
                    .enumType(SinkType.class)
                    .defaultValue(SinkType.KAFKA)
                    .withDescription(
                            "The broker: 'kafka' (sink.kafka.* options) or 'rocketmq'"
                                    + " (sink.rocketmq.* options).");

    private SinkOptions() {}
}

package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** Options of the encode operator. */
@PublicEvolving
public final class EncodeOptions {

    public static final ConfigOption<MessageFormat> FORMAT =
            ConfigOptions.key("format")
                    .enumType(MessageFormat.class)
                    .defaultValue(MessageFormat.CANAL_FLAT)
                    .withDescription(
                            "Message format: canal-flat (Canal's FlatMessage JSON) or canal-binary"
                                    + " (Canal's protobuf).");

    private EncodeOptions() {}
}

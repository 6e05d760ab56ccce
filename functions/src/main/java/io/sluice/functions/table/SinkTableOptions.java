package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import io.sluice.functions.route.RouteOptions;

/**
 * The options only the SQL sink tables ({@code sluice-kafka}, {@code sluice-rocketmq}) have. Every
 * other option of theirs is the pipeline's own, under the same key: the encode, route, partition,
 * filter and large-message options, and the broker's ({@code KafkaSinkOptions}, {@code
 * RocketMqSinkOptions}). A row's {@code topic} and {@code key} metadata, when not NULL, take the
 * place of the routed topic and the primary-key message key.
 */
@PublicEvolving
public final class SinkTableOptions {

    /** The table's {@link RouteOptions#DEFAULT_TOPIC}. */
    public static final ConfigOption<String> TOPIC =
            ConfigOptions.key("topic")
                    .stringType()
                    .defaultValue(RouteOptions.DEFAULT_TOPIC.defaultValue())
                    .withDescription(
                            "Topic of rows whose 'topic' metadata is NULL (or not declared) and"
                                    + " that neither 'dynamic-topic' nor 'topic-template' places.");

    private SinkTableOptions() {}
}

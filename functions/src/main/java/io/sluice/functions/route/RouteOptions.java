package io.sluice.functions.route;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import io.sluice.functions.config.OptionSection;

/**
 * Options that pick each change's topic: YAML section {@code route.}; the sink tables' keys in SQL.
 */
@PublicEvolving
public final class RouteOptions {

    public static final ConfigOption<String> DYNAMIC_TOPIC =
            ConfigOptions.key("dynamic-topic")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Canal's canal.mq.dynamicTopic syntax: items 'pattern' or"
                                    + " 'topic:pattern' separated by ',' or ';', tried on"
                                    + " 'schema.table', then on 'schema'. Empty for none.");

    public static final ConfigOption<String> TOPIC_TEMPLATE =
            ConfigOptions.key("topic-template")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Topic of tables no dynamic-topic rule matches, with {database} and"
                                    + " {table} placeholders, e.g. '{database}_{table}'. Empty"
                                    + " for none.");

    public static final ConfigOption<String> DEFAULT_TOPIC =
            ConfigOptions.key("default-topic")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription("Topic of changes that neither rules nor template place.");

    private RouteOptions() {}

    /** The router the route section {@code config} describes; fails on a bad rule, naming it. */
    public static TopicRouter router(OptionSection config) {
        return TopicRouter.create(
                config.get(DYNAMIC_TOPIC),
                config.get(TOPIC_TEMPLATE),
                config.get(DEFAULT_TOPIC),
                config.key(DYNAMIC_TOPIC));
    }
}

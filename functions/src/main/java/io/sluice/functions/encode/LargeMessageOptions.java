package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * What to do with a row whose message is larger than the sink takes. Checked right after encoding,
 * for both sinks, where the message's size and the row's key are known. YAML section {@code sink.};
 * the sink tables' keys in SQL.
 */
@PublicEvolving
public final class LargeMessageOptions {

    public static final ConfigOption<LargeMessagePolicy> POLICY =
            ConfigOptions.key("large-message.policy")
                    .enumType(LargeMessagePolicy.class)
                    .defaultValue(LargeMessagePolicy.FAIL)
                    .withDescription(
                            "What happens to a row whose message is larger than the sink takes"
                                    + " (large-message.max-bytes): 'fail' stops the job with"
                                    + " an error naming table, key, size and limit, without"
                                    + " restarting; 'key-only' writes the message with only the"
                                    + " primary-key columns and a 'sluiceOversize' marker;"
                                    + " 'claim-check' stores the full message under"
                                    + " large-message.claim-check.path and writes the"
                                    + " key-only message naming the file; 'dead-letter' writes"
                                    + " the full message to large-message.dead-letter.topic"
                                    + " instead.");

    public static final ConfigOption<MemorySize> MAX_BYTES =
            ConfigOptions.key("large-message.max-bytes")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "Largest message the sink writes as it is, counted as the broker"
                                    + " counts it (Kafka: value, key and record overhead;"
                                    + " RocketMQ: body). The sink's own limit always applies:"
                                    + " Kafka's producer max.request.size and the topic's"
                                    + " max.message.bytes when the brokers tell it; RocketMQ's"
                                    + " 4 MiB body limit. Set it to keep messages smaller.");

    public static final ConfigOption<String> CLAIM_CHECK_PATH =
            ConfigOptions.key("large-message.claim-check.path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Where policy 'claim-check' stores full messages: a Flink file system"
                                    + " URI such as 's3://bucket/sluice' (with Flink's S3 plugin)"
                                    + " or 'file:///shared/sluice'. Each message is stored under"
                                    + " <path>/<database>/<table>/ with a name fixed by the row's"
                                    + " binlog position and key, so a replay overwrites it.");

    public static final ConfigOption<String> DEAD_LETTER_TOPIC =
            ConfigOptions.key("large-message.dead-letter.topic")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Where policy 'dead-letter' writes full messages: a topic of the same"
                                    + " sink whose limits take them (Kafka: raise the producer's"
                                    + " max.request.size and keep the other topics'"
                                    + " max.message.bytes low). Written in the same transaction as"
                                    + " the other messages.");

    private LargeMessageOptions() {}
}

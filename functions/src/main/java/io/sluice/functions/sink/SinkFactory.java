package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;
import io.sluice.functions.sink.rocketmq.internal.RocketMqMessageLimits;

/**
 * The configured broker's sink ({@link SinkOptions#TYPE}), its partition (queue) counts and its
 * message size limits.
 */
@Internal
public final class SinkFactory {

    private SinkFactory() {}

    public static Sink<SinkMessage> sink(ReadableConfig config) {
        return config.get(SinkOptions.TYPE) == SinkType.ROCKETMQ
                ? RocketMqSinkFactory.sink(config)
                : KafkaSinkFactory.sink(config);
    }

    /** The largest message each topic of the configured broker takes. */
    public static MessageLimits.Factory messageLimits(ReadableConfig config) {
        return config.get(SinkOptions.TYPE) == SinkType.ROCKETMQ
                ? RocketMqMessageLimits.factory()
                : KafkaMessageLimits.factory(
                        KafkaClientProperties.producer(config),
                        KafkaClientProperties.common(config));
    }

    public static PartitionCounts.Factory partitionCounts(ReadableConfig config) {
        return config.get(SinkOptions.TYPE) == SinkType.ROCKETMQ
                ? RocketMqSinkFactory.partitionCounts(config)
                : KafkaSinkFactory.partitionCounts(config);
    }
}

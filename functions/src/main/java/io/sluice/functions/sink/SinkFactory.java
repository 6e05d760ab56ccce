package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;
import io.sluice.functions.sink.rocketmq.internal.RocketMqMessageLimits;

/**
 * The configured broker's sink ({@link SinkOptions#TYPE}), its partition (queue) counts and its
 * message size limits, from a job's configuration or from the sections of a SQL table.
 */
@Internal
public final class SinkFactory {

    private SinkFactory() {}

    public static Sink<SinkMessage> sink(ReadableConfig job) {
        return sink(PipelineSections.of(job));
    }

    public static Sink<SinkMessage> sink(PipelineSections config) {
        return isRocketMq(config)
                ? RocketMqSinkFactory.sink(config.rocketMq())
                : KafkaSinkFactory.sink(config.kafka());
    }

    /** The largest message each topic of the configured broker takes. */
    public static MessageLimits.Factory messageLimits(PipelineSections config) {
        return isRocketMq(config)
                ? RocketMqMessageLimits.factory()
                : KafkaMessageLimits.factory(
                        KafkaClientProperties.producer(config.kafka()),
                        KafkaClientProperties.common(config.kafka()));
    }

    public static PartitionCounts.Factory partitionCounts(ReadableConfig job) {
        return partitionCounts(PipelineSections.of(job));
    }

    public static PartitionCounts.Factory partitionCounts(PipelineSections config) {
        return isRocketMq(config)
                ? RocketMqSinkFactory.partitionCounts(config)
                : KafkaSinkFactory.partitionCounts(config);
    }

    private static boolean isRocketMq(PipelineSections config) {
        return config.sink().get(SinkOptions.TYPE) == SinkType.ROCKETMQ;
    }
}

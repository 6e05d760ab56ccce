package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;

/** The configured broker's sink ({@link SinkOptions#TYPE}) and its partition (queue) counts. */
@Internal
public final class SinkFactory {

    private SinkFactory() {}

    public static Sink<SinkMessage> sink(ReadableConfig config) {
        return config.get(SinkOptions.TYPE) == SinkType.ROCKETMQ
                ? RocketMqSinkFactory.sink(config)
                : KafkaSinkFactory.sink(config);
    }

    public static PartitionCounts.Factory partitionCounts(ReadableConfig config) {
        return config.get(SinkOptions.TYPE) == SinkType.ROCKETMQ
                ? RocketMqSinkFactory.partitionCounts(config)
                : KafkaSinkFactory.partitionCounts(config);
    }
}

package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.sink.rocketmq.internal.RocketMqPartitionCounts;

/** Builds the RocketMQ sink from {@link RocketMqSinkOptions}. */
@Internal
public final class RocketMqSinkFactory {

    private RocketMqSinkFactory() {}

    /** Queue counts of the sink's topics in a job's configuration. */
    public static PartitionCounts.Factory partitionCounts(ReadableConfig job) {
        return partitionCounts(PipelineSections.of(job));
    }

    /** Queue counts of the sink's topics: configured, else read from the name server. */
    public static PartitionCounts.Factory partitionCounts(PipelineSections config) {
        RocketMqSink sink = sink(config.rocketMq());
        return RocketMqPartitionCounts.factory(
                PartitionOptions.counts(config.route()), sink.settings());
    }

    /** A sink of encoded messages, each to its own topic and queue. */
    public static RocketMqSink sink(OptionSection config) {
        RocketMqSinkBuilder builder =
                RocketMqSink.builder()
                        .setOptionPrefix(config.prefix())
                        .setProducerGroup(config.get(RocketMqSinkOptions.PRODUCER_GROUP))
                        .setDeliveryGuarantee(config.get(RocketMqSinkOptions.DELIVERY_GUARANTEE))
                        .setSendTimeout(config.get(RocketMqSinkOptions.SEND_TIMEOUT))
                        .setBatchMaxMessages(config.get(RocketMqSinkOptions.BATCH_MAX_MESSAGES))
                        .setBatchMaxBytes(config.get(RocketMqSinkOptions.BATCH_MAX_BYTES));
        config.getOptional(RocketMqSinkOptions.NAME_SERVER).ifPresent(builder::setNameServer);
        return builder.build();
    }
}

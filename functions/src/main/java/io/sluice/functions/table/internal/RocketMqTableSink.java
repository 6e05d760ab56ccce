package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.ProviderContext;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;
import io.sluice.functions.table.RocketMqDynamicTableFactory;
import io.sluice.functions.table.SinkClaim;

import java.util.Optional;

/**
 * The {@code sluice-rocketmq} sink: Sluice's RocketMQ sink chained to the partition owners. Its
 * write-ahead log needs ONE writer per queue (a replay reads the queue's tail as its own), which
 * the owner exchange of {@link MessageTableSink} gives it.
 */
@Internal
public final class RocketMqTableSink extends MessageTableSink {

    public RocketMqTableSink(
            Configuration config,
            Integer parallelism,
            ObjectIdentifier table,
            OptionTranslation options,
            Optional<SinkClaim> claim) {
        super(config, parallelism, table, options, claim);
    }

    @Override
    protected String connector() {
        return RocketMqDynamicTableFactory.IDENTIFIER;
    }

    @Override
    protected Sink<SinkMessage> sink() {
        return RocketMqSinkFactory.sink(config);
    }

    @Override
    protected PartitionCounts.Factory partitionCounts() {
        return RocketMqSinkFactory.partitionCounts(config);
    }

    @Override
    protected DataStreamSink<SinkMessage> write(
            SingleOutputStreamOperator<SinkMessage> messages,
            Sink<SinkMessage> sink,
            ProviderContext provider) {
        DataStreamSink<SinkMessage> out =
                messages.sinkTo(sink).name("RocketMQ sink " + table.asSummaryString());
        provider.generateUid("rocketmq-sink").ifPresent(out::uid);
        out.setParallelism(messages.getParallelism());
        return out;
    }

    @Override
    protected MessageTableSink copyWithoutMetadata() {
        return new RocketMqTableSink(config, parallelism, table, options, claim());
    }
}

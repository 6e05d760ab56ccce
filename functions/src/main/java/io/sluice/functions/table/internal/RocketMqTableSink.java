package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.ProviderContext;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOwnerPartitioner;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;
import io.sluice.functions.table.RocketMqDynamicTableFactory;
import io.sluice.functions.table.SinkClaim;

import java.util.Optional;

/**
 * The {@code sluice-rocketmq} sink: Sluice's RocketMQ sink behind the encoder. Its write-ahead log
 * needs ONE writer per queue (a replay reads the queue's tail as its own), so the encoded messages
 * go to their queue's owner subtask ({@link PartitionOwnerPartitioner}, as in the YAML pipeline).
 * Each row's changes come from one encoder subtask and go to one queue, so they keep their order
 * across that exchange. Statements are written once, to queue 0, so there is nothing to merge.
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
                messages.partitionCustom(new PartitionOwnerPartitioner(), new Itself<>())
                        .sinkTo(sink)
                        .name("RocketMQ sink " + table.asSummaryString());
        provider.generateUid("rocketmq-sink").ifPresent(out::uid);
        out.setParallelism(messages.getParallelism());
        return out;
    }

    @Override
    protected MessageTableSink copyWithoutMetadata() {
        return new RocketMqTableSink(config, parallelism, table, options, claim());
    }

    /**
     * The message is its own key: the partitioner reads its topic and queue. Generic, so the key's
     * type is the input's (no Kryo).
     */
    private static final class Itself<T> implements KeySelector<T, T> {
        private static final long serialVersionUID = 1L;

        @Override
        public T getKey(T message) {
            return message;
        }
    }
}

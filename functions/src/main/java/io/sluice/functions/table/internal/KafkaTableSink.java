package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.ProviderContext;

import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.table.KafkaDynamicTableFactory;
import io.sluice.functions.table.SinkClaim;

import java.util.Optional;

/**
 * The {@code sluice-kafka} sink: Sluice's Kafka sink chained to the partition owners, so each
 * partition is written by one producer and a statement keeps its place among the rows there.
 */
@Internal
public final class KafkaTableSink extends MessageTableSink {

    public KafkaTableSink(
            Configuration config,
            Integer parallelism,
            ObjectIdentifier table,
            OptionTranslation options,
            Optional<SinkClaim> claim) {
        super(config, parallelism, table, options, claim);
    }

    @Override
    protected String connector() {
        return KafkaDynamicTableFactory.IDENTIFIER;
    }

    @Override
    protected Sink<SinkMessage> sink() {
        return KafkaSinkFactory.sink(config);
    }

    @Override
    protected PartitionCounts.Factory partitionCounts() {
        return KafkaSinkFactory.partitionCounts(config);
    }

    @Override
    protected DataStreamSink<SinkMessage> write(
            SingleOutputStreamOperator<SinkMessage> messages,
            Sink<SinkMessage> sink,
            ProviderContext provider) {
        DataStreamSink<SinkMessage> out =
                messages.sinkTo(sink).name("Kafka sink " + table.asSummaryString());
        provider.generateUid("kafka-sink").ifPresent(out::uid);
        out.setParallelism(messages.getParallelism());
        return out;
    }

    @Override
    protected MessageTableSink copyWithoutMetadata() {
        return new KafkaTableSink(config, parallelism, table, options, claim());
    }
}

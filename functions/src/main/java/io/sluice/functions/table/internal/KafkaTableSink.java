package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.table.KafkaDynamicTableFactory;
import io.sluice.functions.types.SinkMessageTypeInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code sluice-kafka} sink: encode each row's change (Canal format, routed topic, Canal
 * partition, primary-key message key, unless the row's metadata names a topic or key), then
 * Sluice's Kafka sink, exactly once by default.
 *
 * <p>Order: rows reach this sink keyed by table and primary key (see {@link MySqlTableSource}).
 * When {@code sink.parallelism} differs from its input's, it keys them again by the same key, so
 * each row's changes still travel one path; otherwise they stay on their subtask (forward, chained,
 * no shuffle).
 */
@Internal
public final class KafkaTableSink implements DynamicTableSink, SupportsWritingMetadata {

    public static final String TOPIC = "topic";
    public static final String KEY = "key";

    private final Configuration config;
    private final Integer parallelism;
    private final ObjectIdentifier table;
    private final OptionTranslation options;
    private List<String> metadata = new ArrayList<>();

    public KafkaTableSink(
            Configuration config,
            Integer parallelism,
            ObjectIdentifier table,
            OptionTranslation options) {
        this.config = config;
        this.parallelism = parallelism;
        this.table = table;
        this.options = options;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        KafkaSink<SinkMessage> sink;
        PartitionCounts.Factory counts;
        try {
            // Builds (and checks against the brokers) while the statement is planned.
            sink = KafkaSinkFactory.sink(config);
            counts = KafkaSinkFactory.partitionCounts(config);
        } catch (IllegalArgumentException e) {
            throw options.failure(table, KafkaDynamicTableFactory.IDENTIFIER, e);
        }
        MessageFormat format = config.get(EncodeOptions.FORMAT);
        RowMessageEncodeFunction encode =
                new RowMessageEncodeFunction(
                        format,
                        RouteOptions.router(config),
                        PartitionOptions.rules(config),
                        counts,
                        fieldOf(TOPIC),
                        fieldOf(KEY));
        String name = table.asSummaryString();
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(
                    ProviderContext provider, DataStream<RowData> rows) {
                DataStream<RowData> in = rows;
                if (parallelism != null && parallelism != rows.getParallelism()) {
                    in = rows.keyBy(new ChangeRowKeySelector(0), Types.INT);
                }
                SingleOutputStreamOperator<SinkMessage> messages =
                        in.map(encode)
                                .returns(new SinkMessageTypeInfo())
                                .name("Encode " + format + " for " + name);
                provider.generateUid("encode").ifPresent(messages::uid);
                if (parallelism != null) {
                    messages.setParallelism(parallelism);
                }
                DataStreamSink<SinkMessage> out = messages.sinkTo(sink).name("Kafka sink " + name);
                provider.generateUid("kafka-sink").ifPresent(out::uid);
                out.setParallelism(messages.getParallelism());
                return out;
            }
        };
    }

    /** The row position of a metadata column (after the one physical column), or -1. */
    private int fieldOf(String key) {
        int index = metadata.indexOf(key);
        return index < 0 ? -1 : 1 + index;
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        Map<String, DataType> keys = new LinkedHashMap<>();
        keys.put(TOPIC, DataTypes.STRING());
        keys.put(KEY, DataTypes.BYTES());
        return keys;
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {
        this.metadata = new ArrayList<>(metadataKeys);
    }

    @Override
    public DynamicTableSink copy() {
        KafkaTableSink copy = new KafkaTableSink(config, parallelism, table, options);
        copy.metadata = new ArrayList<>(metadata);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return KafkaDynamicTableFactory.IDENTIFIER;
    }
}

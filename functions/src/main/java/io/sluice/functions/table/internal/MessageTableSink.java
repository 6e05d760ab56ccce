package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
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

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.DebeziumJsonOptions;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.GroupingEncodeOperator;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.order.PartitionOwnerPartitioner;
import io.sluice.functions.order.StatementOrderOperator;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.route.Routing;
import io.sluice.functions.route.SelfKeySelector;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.table.SinkClaim;
import io.sluice.functions.types.OrderedMessageTypeInfo;
import io.sluice.functions.types.SinkMessageTypeInfo;
import io.sluice.serializers.debezium.DebeziumJsonSettings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Sluice sink table: encode each row's change (Canal format, routed topic, Canal partition,
 * primary-key message key, unless the row's metadata names a topic or key), send each message to
 * the one owner of its partition, which orders statements with the rows ({@link
 * StatementOrderOperator}), then the broker's sink ({@link SinkFactory}: Kafka, or the RocketMQ
 * write-ahead sink, which needs one writer per queue anyway) chained to the owner, exactly once by
 * default. Into Kafka, when the rows come forward from their source subtasks and the writers run at
 * the encoders' parallelism, each encoder's writer writes its messages itself, chained, as the YAML
 * pipeline's chained shape does ({@link #writesInPlace}).
 *
 * <p>Order: each row's changes reach this sink on one path (see {@link MySqlTableSource}) and are
 * encoded on their subtask (forward, chained), so each encoder sees one path and its statement
 * count. {@code sink.parallelism} sets the owners and writers. Each row's changes travel one path
 * to one writer, and one writer per partition keeps a statement in place among the rows of its
 * table that other encoders sent to the same partition.
 */
@Internal
public final class MessageTableSink implements DynamicTableSink, SupportsWritingMetadata {

    public static final String TOPIC = "topic";
    public static final String KEY = "key";

    private final String connector;
    private final PipelineSections config;
    private final Integer parallelism;
    private final ObjectIdentifier table;
    private final SinkClaim claim;
    private List<String> metadata = new ArrayList<>();

    /**
     * @param connector the table's connector identifier, for errors
     * @param config the table's options, {@link SinkOptions#TYPE} naming the broker
     */
    public MessageTableSink(
            String connector,
            PipelineSections config,
            Integer parallelism,
            ObjectIdentifier table,
            Optional<SinkClaim> claim) {
        this.connector = connector;
        this.config = config;
        this.parallelism = parallelism;
        this.table = table;
        this.claim = claim.orElse(null);
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        Sink<SinkMessage> sink;
        PartitionCounts.Factory counts;
        LargeMessageSettings largeMessages;
        FilterSettings filters;
        GroupSettings grouping;
        DebeziumJsonSettings debezium;
        MessageFormat format = config.encode().get(EncodeOptions.FORMAT);
        try {
            // Built and checked while the statement is planned, without reaching a broker.
            sink = SinkFactory.sink(config);
            counts = SinkFactory.partitionCounts(config);
            largeMessages =
                    LargeMessageSettings.from(
                            config.sink(), format, SinkFactory.messageLimits(config));
            filters = FilterSettings.from(config.filter());
            grouping = GroupSettings.from(config.encode());
            debezium = DebeziumJsonOptions.settings(format, config.encode(), config.source());
            DebeziumJsonOptions.checkSink(debezium, grouping, config);
        } catch (IllegalArgumentException e) {
            throw InvalidTableOptions.of(table, connector, e);
        }
        Encoders encoders =
                new Encoders(
                        format,
                        new Routing(
                                RouteOptions.router(config.route()),
                                PartitionOptions.rules(config.route()),
                                config.route().get(PartitionOptions.DDL_PARTITIONS),
                                counts),
                        largeMessages,
                        filters,
                        fieldOf(TOPIC),
                        fieldOf(KEY),
                        grouping,
                        debezium,
                        table.asSummaryString());
        SinkType type = config.sink().get(SinkOptions.TYPE);
        String name = table.asSummaryString();
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(
                    ProviderContext provider, DataStream<RowData> rows) {
                Translation translation = Translation.of(rows.getExecutionEnvironment());
                if (claim != null) {
                    translation.claims().claim(claim);
                }
                translation.sinkSources().check(rows, table, connector);
                int writers = parallelism != null ? parallelism : rows.getParallelism();
                DataStream<SinkMessage> toSink =
                        writesInPlace(type, rows, writers)
                                ? encoders.encode(
                                        provider,
                                        rows,
                                        MessageOut.IN_PLACE,
                                        new SinkMessageTypeInfo())
                                : owned(
                                        provider,
                                        encoders.encode(
                                                provider,
                                                rows,
                                                MessageOut.TO_OWNERS,
                                                new OrderedMessageTypeInfo()),
                                        writers,
                                        name);
                DataStreamSink<SinkMessage> out =
                        toSink.sinkTo(sink).name(type.operatorName() + " " + name);
                provider.generateUid(type.uid()).ifPresent(out::uid);
                out.setParallelism(writers);
                return out;
            }
        };
    }

    /**
     * Whether each encoder's own writer can write its messages, with no partition owners: the YAML
     * pipeline's chained shape. When every row comes forward from its source subtask and the
     * writers chain to the encoders, every binlog change (statements included) is written by the
     * one producer of the binlog's subtask in binlog order, and every snapshot row was flushed by
     * the checkpoint Flink CDC waits for before it reads the binlog. Kafka takes a producer per
     * subtask for any partition; the RocketMQ sink needs one writer per queue.
     */
    private static boolean writesInPlace(SinkType type, DataStream<RowData> rows, int writers) {
        return type == SinkType.KAFKA
                && writers == rows.getParallelism()
                && SinkSources.forwardFromSources(rows);
    }

    /** Each message to the one owner of its partition, which orders statements with the rows. */
    private static DataStream<SinkMessage> owned(
            ProviderContext provider,
            SingleOutputStreamOperator<OrderedMessage> messages,
            int writers,
            String name) {
        DataStream<OrderedMessage> toOwners =
                messages.getParallelism() == 1 && writers == 1
                        ? messages
                        : messages.partitionCustom(
                                new PartitionOwnerPartitioner(), new SelfKeySelector<>());
        SingleOutputStreamOperator<SinkMessage> owned =
                toOwners.transform(
                                "Order statements per partition of " + name,
                                new SinkMessageTypeInfo(),
                                new StatementOrderOperator())
                        .setParallelism(writers);
        provider.generateUid("partition-owner").ifPresent(owned::uid);
        return owned;
    }

    /** The table's encoder settings, for an encoder of either output. */
    private record Encoders(
            MessageFormat format,
            Routing routing,
            LargeMessageSettings largeMessages,
            FilterSettings filters,
            int topicField,
            int keyField,
            GroupSettings grouping,
            DebeziumJsonSettings debezium,
            String name) {

        /** Encoders chained onto the query: each sees one path's statement count. */
        <OUT> SingleOutputStreamOperator<OUT> encode(
                ProviderContext provider,
                DataStream<RowData> rows,
                MessageOut<OUT> out,
                TypeInformation<OUT> type) {
            RowMessageEncodeFunction<OUT> encode =
                    new RowMessageEncodeFunction<>(
                            format,
                            out,
                            routing,
                            largeMessages,
                            filters,
                            topicField,
                            keyField,
                            grouping,
                            debezium);
            String encodeName = "Encode " + format + " for " + name;
            SingleOutputStreamOperator<OUT> messages =
                    (grouping == null
                                    ? rows.process(encode).returns(type)
                                    : rows.transform(
                                            encodeName,
                                            type,
                                            new GroupingEncodeOperator<>(encode, false)))
                            .name(encodeName)
                            .setParallelism(rows.getParallelism());
            provider.generateUid("encode").ifPresent(messages::uid);
            return messages;
        }

        // Written out: the generated ones would keep the job's class loader alive in a
        // session cluster on Java 17 (JDK-8078641).
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Encoders)) {
                return false;
            }
            Encoders other = (Encoders) o;
            return Objects.equals(format, other.format)
                    && Objects.equals(routing, other.routing)
                    && Objects.equals(largeMessages, other.largeMessages)
                    && Objects.equals(filters, other.filters)
                    && topicField == other.topicField
                    && keyField == other.keyField
                    && Objects.equals(grouping, other.grouping)
                    && Objects.equals(name, other.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(
                    format, routing, largeMessages, filters, topicField, keyField, grouping, name);
        }

        @Override
        public String toString() {
            return "Encoders[format="
                    + format
                    + ", routing="
                    + routing
                    + ", largeMessages="
                    + largeMessages
                    + ", filters="
                    + filters
                    + ", topicField="
                    + topicField
                    + ", keyField="
                    + keyField
                    + ", grouping="
                    + grouping
                    + ", name="
                    + name
                    + "]";
        }
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
        MessageTableSink copy =
                new MessageTableSink(
                        connector, config, parallelism, table, Optional.ofNullable(claim));
        copy.metadata = new ArrayList<>(metadata);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return connector;
    }
}

package io.sluice.job;

import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.ChangeEventEncodeFunction;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.GroupingEncodeFunction;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.ChangeNormalizer;
import io.sluice.functions.normalize.NormalizeOperator;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.functions.order.PartitionOwnerPartitioner;
import io.sluice.functions.order.ProgressMarkingOwner;
import io.sluice.functions.order.StatementOrderOperator;
import io.sluice.functions.order.StatementWatermarks;
import io.sluice.functions.progress.ProgressMarkers;
import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.progress.ProgressNotes;
import io.sluice.functions.route.ChangePartitioner;
import io.sluice.functions.route.ChangeRouteFunction;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.route.Routing;
import io.sluice.functions.route.SelfKeySelector;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.source.HeartbeatTable;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.SnapshotEstimate;
import io.sluice.functions.types.OrderedMessageTypeInfo;
import io.sluice.functions.types.RoutedChangeTypeInfo;
import io.sluice.functions.types.SinkMessageTypeInfo;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.config.JobOptions;
import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The Sluice job: every selected table's snapshot and binlog changes, kept in order per table and
 * primary key, routed, encoded in parallel as Canal messages, and written exactly once, statements
 * in order with the rows around them in every partition: by the single owner of each partition,
 * which orders messages by the statement count of the source's watermarks ({@link
 * StatementOrderOperator}), or, when the whole pipeline runs at the source's parallelism into
 * Kafka, by each source subtask's own writer (see docs/pipeline.md).
 *
 * <p>Source and sink come through the constructor so tests and the demo can plug in their own;
 * {@link #main} only wires the production ones.
 */
public final class SluiceJob {

    public static final String SOURCE_UID = "mysql-cdc-source";
    public static final String NORMALIZE_UID = "normalize";
    public static final String ROUTE_UID = "route";
    public static final String ENCODE_UID = "encode";
    public static final String PARTITION_OWNER_UID = "partition-owner";

    private final Source<ChangeEvent, ?, ?> source;
    private final Sink<SinkMessage> sink;
    private final PartitionCounts.Factory partitionCounts;
    private final MessageLimits.Factory messageLimits;
    private final PipelineSections sections;
    private final OptionSection parallelismOptions;

    /**
     * @param partitionCounts tells the encoders how many partitions each topic of {@code sink} has
     */
    public SluiceJob(
            Source<ChangeEvent, ?, ?> source,
            Sink<SinkMessage> sink,
            PartitionCounts.Factory partitionCounts,
            ReadableConfig config) {
        this(
                source,
                sink,
                partitionCounts,
                SinkFactory.messageLimits(PipelineSections.of(config)),
                config);
    }

    /**
     * @param messageLimits tells the encoders the largest message each topic of {@code sink} takes
     */
    public SluiceJob(
            Source<ChangeEvent, ?, ?> source,
            Sink<SinkMessage> sink,
            PartitionCounts.Factory partitionCounts,
            MessageLimits.Factory messageLimits,
            ReadableConfig config) {
        this.source = source;
        this.sink = sink;
        this.partitionCounts = partitionCounts;
        this.messageLimits = messageLimits;
        this.sections = PipelineSections.of(config);
        this.parallelismOptions = JobOptions.parallelism(config);
    }

    /** Adds the pipeline to {@code env}. */
    public DataStreamSink<SinkMessage> build(StreamExecutionEnvironment env) {
        Parallelism parallelism = parallelism(env);
        SinkType type = sections.sink().get(SinkOptions.TYPE);
        boolean marks = marksProgress(env, type);
        List<DataStream<ProgressNote>> notes = new ArrayList<>();
        SingleOutputStreamOperator<RoutedChange> routed =
                route(env, parallelism, marks ? notes : null);
        DataStream<SinkMessage> toSink =
                parallelism.writesInPlace(type) && !marks
                        ? encode(
                                routed, parallelism, MessageOut.IN_PLACE, new SinkMessageTypeInfo())
                        : owned(
                                encode(
                                        routed,
                                        parallelism,
                                        MessageOut.TO_OWNERS,
                                        new OrderedMessageTypeInfo()),
                                parallelism,
                                marks ? notes : null);
        return toSink.sinkTo(sink)
                .uid(type.uid())
                .name(type.operatorName())
                .setParallelism(parallelism.sink);
    }

    /**
     * Whether progress markers are on; they need the Kafka sink and aligned checkpoints, whose
     * barriers come after every record before them on every channel.
     */
    private boolean marksProgress(StreamExecutionEnvironment env, SinkType type) {
        ProgressMarkers markers = sections.encode().get(EncodeOptions.PROGRESS_MARKERS);
        if (markers == ProgressMarkers.OFF) {
            return false;
        }
        String key = sections.encode().key(EncodeOptions.PROGRESS_MARKERS);
        if (type != SinkType.KAFKA) {
            throw new IllegalArgumentException(
                    "Option '"
                            + key
                            + "' is '"
                            + markers
                            + "', but progress markers are written by the Kafka sink only, and"
                            + " the sink is '"
                            + type
                            + "': set it to 'off'");
        }
        if (env.getCheckpointConfig().isUnalignedCheckpointsEnabled()) {
            throw new IllegalArgumentException(
                    "Option '"
                            + key
                            + "' is '"
                            + markers
                            + "', which needs aligned checkpoints, but '"
                            + CheckpointingOptions.ENABLE_UNALIGNED.key()
                            + "' is true: a marker would not follow every message it covers");
        }
        return true;
    }

    /**
     * One owner per partition, chained to the writer of that partition; with {@code notes}, the
     * owners also write progress markers, told positions and topics by a broadcast of them.
     */
    private SingleOutputStreamOperator<SinkMessage> owned(
            SingleOutputStreamOperator<OrderedMessage> encoded,
            Parallelism parallelism,
            @Nullable List<DataStream<ProgressNote>> notes) {
        long interval = encoded.getExecutionEnvironment().getConfig().getAutoWatermarkInterval();
        if (interval <= 0) {
            // Idle splits say so only when asked periodically; without that, the snapshot readers
            // would hold every statement back until the next checkpoint, out of its place.
            throw new IllegalArgumentException(
                    "Option '"
                            + PipelineOptions.AUTO_WATERMARK_INTERVAL.key()
                            + "' is "
                            + interval
                            + " ms, but partition owners order statements by the source's"
                            + " watermarks and need a positive interval: remove the setting"
                            + " (default 200 ms) or set it above 0");
        }
        DataStream<OrderedMessage> toOwners =
                exchange(encoded, new PartitionOwnerPartitioner(), parallelism.sink);
        SingleOutputStreamOperator<SinkMessage> owners;
        if (notes == null) {
            owners =
                    toOwners.transform(
                            "Order statements per partition",
                            new SinkMessageTypeInfo(),
                            new StatementOrderOperator());
        } else {
            DataStream<ProgressNote> allNotes = notes.get(0);
            for (DataStream<ProgressNote> more : notes.subList(1, notes.size())) {
                allNotes = allNotes.union(more);
            }
            owners =
                    toOwners.connect(allNotes.broadcast())
                            .transform(
                                    "Order statements per partition",
                                    new SinkMessageTypeInfo(),
                                    new ProgressMarkingOwner(
                                            sections.encode().get(EncodeOptions.FORMAT),
                                            partitionCounts,
                                            sections.encode()
                                                    .getOptional(
                                                            EncodeOptions.PROGRESS_MARKERS_TOPICS)
                                                    .orElse(null)));
        }
        return owners.uid(PARTITION_OWNER_UID)
                .name("Order statements per partition")
                .setParallelism(parallelism.sink);
    }

    /** The pipeline up to the routed changes (source, normalize, route), for measuring stages. */
    public SingleOutputStreamOperator<RoutedChange> routed(StreamExecutionEnvironment env) {
        return route(env, parallelism(env), null);
    }

    /** The pipeline up to the encoded messages, before the partition owners and the sink. */
    public SingleOutputStreamOperator<SinkMessage> encoded(StreamExecutionEnvironment env) {
        Parallelism parallelism = parallelism(env);
        return encode(
                route(env, parallelism, null),
                parallelism,
                MessageOut.IN_PLACE,
                new SinkMessageTypeInfo());
    }

    /**
     * @param notes where to add the streams of progress notes (positions, topics) for the owners,
     *     or null when progress markers are off
     */
    private SingleOutputStreamOperator<RoutedChange> route(
            StreamExecutionEnvironment env,
            Parallelism parallelism,
            @Nullable List<DataStream<ProgressNote>> notes) {
        SingleOutputStreamOperator<ChangeEvent> changes =
                env.fromSource(source, StatementWatermarks.strategy(), "MySQL CDC source")
                        .uid(SOURCE_UID)
                        .name("MySQL CDC source");
        parallelismOptions
                .getOptional(JobOptions.SOURCE_PARALLELISM)
                .ifPresent(changes::setParallelism);

        // A route at the source's parallelism is chained to it: one subtask reads the binlog, so
        // every binlog change already takes one path, and Flink CDC assigns the binlog only after
        // a checkpoint completed behind every snapshot row. Keying would only add an exchange.
        boolean routeChained = parallelism.routeChained();

        // Chained to the source: key changes split before keying, so each half keeps its key's
        // path, and each change is ranked by its own source subtask's statement count.
        SingleOutputStreamOperator<RoutedChange> normalized =
                changes.transform(
                                "Normalize changes",
                                new RoutedChangeTypeInfo(),
                                new NormalizeOperator(
                                        new ChangeNormalizer(
                                                !routeChained || parallelism.encodeFannedIn(),
                                                HeartbeatTable.from(sections.source()).orElse(null),
                                                SnapshotEstimate.rows(sections.source())),
                                        notes != null))
                        .uid(NORMALIZE_UID)
                        .name("Normalize changes")
                        .setParallelism(changes.getParallelism());

        // Otherwise keyed by table + primary key, hashed once by Normalize (a custom partitioner).
        DataStream<RoutedChange> toRoute =
                routeChained
                        ? normalized
                        : exchange(normalized, new ChangePartitioner(), parallelism.route);
        // Topics are learned as the routes meet them unless the markers' topics are configured.
        boolean reportsTopics =
                notes != null
                        && sections.encode()
                                .getOptional(EncodeOptions.PROGRESS_MARKERS_TOPICS)
                                .isEmpty();
        // Behind the exchange, the route stays active for the statement count's sake.
        SingleOutputStreamOperator<RoutedChange> route =
                toRoute.transform(
                                "Route",
                                new RoutedChangeTypeInfo(),
                                new ChangeRouteFunction(
                                                new Routing(
                                                        RouteOptions.router(sections.route()),
                                                        PartitionOptions.rules(sections.route()),
                                                        sections.route()
                                                                .get(
                                                                        PartitionOptions
                                                                                .DDL_PARTITIONS),
                                                        partitionCounts),
                                                FilterSettings.from(sections.filter()),
                                                reportsTopics)
                                        .operator(!routeChained))
                        .uid(ROUTE_UID)
                        .name("Route")
                        .setParallelism(parallelism.route);
        if (notes != null) {
            notes.add(normalized.getSideOutput(ProgressNotes.TAG));
            if (reportsTopics) {
                notes.add(route.getSideOutput(ProgressNotes.TAG));
            }
        }
        return route;
    }

    /**
     * @param out the messages alone (written in place) or with their ranks (to owners)
     */
    private <OUT> SingleOutputStreamOperator<OUT> encode(
            SingleOutputStreamOperator<RoutedChange> routed,
            Parallelism parallelism,
            MessageOut<OUT> out,
            TypeInformation<OUT> type) {
        MessageFormat format = sections.encode().get(EncodeOptions.FORMAT);
        DataStream<RoutedChange> toEncode =
                parallelism.encodeFannedIn()
                        ? routed.partitionCustom(new ChangePartitioner(), new SelfKeySelector<>())
                        : routed;
        LargeMessageSettings largeMessages =
                LargeMessageSettings.from(sections.sink(), format, messageLimits);
        FilterSettings filters = FilterSettings.from(sections.filter());
        GroupSettings grouping = GroupSettings.from(sections.encode());
        // The first step behind a shuffle out of the source stays active (StatementPathOperator):
        // the encoders when the route is chained to the source and they are not to the route.
        boolean behindShuffle = parallelism.routeChained() && parallelism.encodeFannedIn();
        StatementPathOperator<RoutedChange, OUT> encoder =
                grouping == null
                        ? new ChangeEventEncodeFunction<>(format, out, largeMessages, filters)
                                .operator(behindShuffle)
                        : new GroupingEncodeFunction<>(
                                        format, out, largeMessages, filters, grouping)
                                .operator(behindShuffle);
        SingleOutputStreamOperator<OUT> encoded =
                toEncode.transform("Encode " + format, type, encoder);
        return encoded.uid(ENCODE_UID).name("Encode " + format).setParallelism(parallelism.encode);
    }

    private Parallelism parallelism(StreamExecutionEnvironment env) {
        int defaultParallelism = env.getParallelism();
        int route =
                parallelismOptions
                        .getOptional(JobOptions.ROUTE_PARALLELISM)
                        .or(() -> parallelismOptions.getOptional(JobOptions.ENCODE_PARALLELISM))
                        .orElse(defaultParallelism);
        return new Parallelism(
                parallelismOptions
                        .getOptional(JobOptions.SOURCE_PARALLELISM)
                        .orElse(defaultParallelism),
                route,
                parallelismOptions.getOptional(JobOptions.ENCODE_PARALLELISM).orElse(route),
                parallelismOptions
                        .getOptional(JobOptions.SINK_PARALLELISM)
                        .orElse(defaultParallelism));
    }

    /**
     * An exchange by {@code partitioner}, or none when both sides run one subtask: every record
     * meets in that subtask anyway, and a chained hand-over costs no serialization.
     */
    private static <T> DataStream<T> exchange(
            DataStream<T> in, Partitioner<T> partitioner, int downstreamParallelism) {
        if (in.getParallelism() == 1 && downstreamParallelism == 1) {
            return in;
        }
        return in.partitionCustom(partitioner, new SelfKeySelector<>());
    }

    /** The configured parallelism of source, route, encode and sink, defaults applied. */
    private record Parallelism(int source, int route, int encode, int sink) {
        /** Route chained to the source: each source subtask's changes stay on its path. */
        boolean routeChained() {
            return source == route;
        }

        /** Encoders behind an exchange from the route rather than chained to it. */
        boolean encodeFannedIn() {
            return encode != route;
        }

        /**
         * Whether each source subtask can write its own messages, with no partition owners: when
         * the whole pipeline is chained, every binlog change (statements included) is written by
         * the one producer of the binlog's subtask in binlog order, and every snapshot row was
         * flushed by the checkpoint Flink CDC waits for before it reads the binlog. A producer per
         * subtask may write any partition into Kafka; the RocketMQ sink needs one writer per queue.
         */
        boolean writesInPlace(SinkType type) {
            return type == SinkType.KAFKA && routeChained() && !encodeFannedIn() && sink == route;
        }

        // Written out: the generated ones would keep the job's class loader alive in a
        // session cluster on Java 17 (JDK-8078641).
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Parallelism)) {
                return false;
            }
            Parallelism other = (Parallelism) o;
            return source == other.source
                    && route == other.route
                    && encode == other.encode
                    && sink == other.sink;
        }

        @Override
        public int hashCode() {
            return Objects.hash(source, route, encode, sink);
        }

        @Override
        public String toString() {
            return "Parallelism[source="
                    + source
                    + ", route="
                    + route
                    + ", encode="
                    + encode
                    + ", sink="
                    + sink
                    + "]";
        }
    }

    /** Applies the job-level options that any environment running Sluice needs. */
    public static void configure(StreamExecutionEnvironment env, ReadableConfig config) {
        Configuration pipeline = new Configuration();
        // No Kryo: every type on the way must have a Flink serializer.
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        // Changes, routed changes and messages are immutable and their serializers copy by
        // reference: a copying chain would only wrap each record anew at every chained operator.
        pipeline.set(PipelineOptions.OBJECT_REUSE, true);
        // Aligned: every path's statement count (watermark) before a barrier reaches the partition
        // owners before it, so nothing waits in them at a checkpoint (StatementOrderOperator).
        pipeline.set(CheckpointingOptions.ENABLE_UNALIGNED, false);
        OptionSection job = JobOptions.job(config);
        job.getOptional(JobOptions.CHECKPOINT_STORAGE)
                .ifPresent(
                        dir -> {
                            pipeline.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
                            pipeline.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir);
                            pipeline.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, dir);
                        });
        env.configure(pipeline);
        env.enableCheckpointing(
                job.get(JobOptions.CHECKPOINT_INTERVAL).toMillis(), CheckpointingMode.EXACTLY_ONCE);
    }

    public static void main(String[] args) throws Exception {
        Configuration config = JobConfigLoader.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        configure(env, config);
        try {
            new SluiceJob(
                            MySqlSourceFactory.changeEventSource(config),
                            SinkFactory.sink(config),
                            SinkFactory.partitionCounts(config),
                            config)
                    .build(env);
            env.execute(JobOptions.job(config).get(JobOptions.NAME));
        } finally {
            MySqlSourceFactory.releaseDrivers();
        }
    }
}

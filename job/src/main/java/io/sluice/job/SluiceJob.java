package io.sluice.job;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.encode.ChangeEventEncodeFunction;
import io.sluice.functions.encode.ChangeEventKeySelector;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.normalize.PrimaryKeyChangeSplitter;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.types.ChangeEventTypeInfo;
import io.sluice.functions.types.SinkMessageTypeInfo;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.config.JobOptions;
import io.sluice.serializers.event.ChangeEvent;

import java.util.Arrays;

/**
 * The Sluice job: every selected table's snapshot and binlog changes, keyed by table and primary
 * key, encoded in parallel as Canal messages, written to Kafka exactly once.
 *
 * <p>Source and sink come through the constructor so tests and the demo can plug in their own;
 * {@link #main} only wires the production ones.
 */
public final class SluiceJob {

    public static final String SOURCE_UID = "mysql-cdc-source";
    public static final String SPLIT_KEY_CHANGES_UID = "split-key-changes";
    public static final String ENCODE_UID = "encode";
    public static final String SINK_UID = "kafka-sink";

    private final Source<ChangeEvent, ?, ?> source;
    private final Sink<SinkMessage> sink;
    private final PartitionCounts.Factory partitionCounts;
    private final ReadableConfig config;

    /**
     * @param partitionCounts tells the encoders how many partitions each topic of {@code sink} has
     */
    public SluiceJob(
            Source<ChangeEvent, ?, ?> source,
            Sink<SinkMessage> sink,
            PartitionCounts.Factory partitionCounts,
            ReadableConfig config) {
        this.source = source;
        this.sink = sink;
        this.partitionCounts = partitionCounts;
        this.config = config;
    }

    /** Adds the pipeline to {@code env}. */
    public DataStreamSink<SinkMessage> build(StreamExecutionEnvironment env) {
        MessageFormat format = config.get(EncodeOptions.FORMAT);
        SingleOutputStreamOperator<ChangeEvent> changes =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "MySQL CDC source")
                        .uid(SOURCE_UID)
                        .name("MySQL CDC source");
        config.getOptional(JobOptions.SOURCE_PARALLELISM).ifPresent(changes::setParallelism);

        // Before keying, so each half of a key change travels with its own key (chained, cheap).
        SingleOutputStreamOperator<ChangeEvent> normalized =
                changes.flatMap(new PrimaryKeyChangeSplitter())
                        .returns(new ChangeEventTypeInfo())
                        .uid(SPLIT_KEY_CHANGES_UID)
                        .name("Split primary-key changes")
                        .setParallelism(changes.getParallelism());

        SingleOutputStreamOperator<SinkMessage> messages =
                normalized
                        .keyBy(new ChangeEventKeySelector(), Types.INT)
                        .map(
                                new ChangeEventEncodeFunction(
                                        format,
                                        RouteOptions.router(config),
                                        PartitionOptions.rules(config),
                                        partitionCounts))
                        .returns(new SinkMessageTypeInfo())
                        .uid(ENCODE_UID)
                        .name("Encode " + format);
        config.getOptional(JobOptions.ENCODE_PARALLELISM).ifPresent(messages::setParallelism);

        DataStream<SinkMessage> toSink = messages;
        Integer sinkParallelism = config.getOptional(JobOptions.SINK_PARALLELISM).orElse(null);
        if (sinkParallelism != null && sinkParallelism != messages.getParallelism()) {
            // A rebalance would reorder a row's changes; keying by the message key does not.
            toSink = messages.keyBy(SluiceJob::messageKeyHash, Types.INT);
        }
        DataStreamSink<SinkMessage> out = toSink.sinkTo(sink).uid(SINK_UID).name("Kafka sink");
        if (sinkParallelism != null) {
            out.setParallelism(sinkParallelism);
        }
        return out;
    }

    private static int messageKeyHash(SinkMessage message) {
        return message.key() == null ? message.topic().hashCode() : Arrays.hashCode(message.key());
    }

    /** Applies the job-level options that any environment running Sluice needs. */
    public static void configure(StreamExecutionEnvironment env, ReadableConfig config) {
        Configuration pipeline = new Configuration();
        // No Kryo: every type on the way must have a Flink serializer.
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(pipeline);
        env.enableCheckpointing(
                config.get(JobOptions.CHECKPOINT_INTERVAL).toMillis(),
                CheckpointingMode.EXACTLY_ONCE);
    }

    public static void main(String[] args) throws Exception {
        Configuration config = JobConfigLoader.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        KafkaSinkFactory.sink(config),
                        KafkaSinkFactory.partitionCounts(config),
                        config)
                .build(env);
        env.execute(config.get(JobOptions.NAME));
    }
}

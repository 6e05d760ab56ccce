package io.sluice.job;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.config.JobOptions;

/**
 * The walking skeleton: every selected table's snapshot and binlog changes, as Debezium JSON, into
 * Kafka with exactly-once delivery.
 *
 * <p>Source and sink come through the constructor so tests and the demo can plug in their own;
 * {@link #main} only wires the production ones.
 */
public final class SluiceJob {

    public static final String SOURCE_UID = "mysql-cdc-source";
    public static final String SINK_UID = "kafka-sink";

    private final Source<String, ?, ?> source;
    private final Sink<String> sink;

    public SluiceJob(Source<String, ?, ?> source, Sink<String> sink) {
        this.source = source;
        this.sink = sink;
    }

    /** Adds the pipeline to {@code env}. */
    public void build(StreamExecutionEnvironment env) {
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "MySQL CDC source")
                .uid(SOURCE_UID)
                .name("MySQL CDC source")
                .sinkTo(sink)
                .uid(SINK_UID)
                .name("Kafka sink")
                // Its own task, so the source's records-out counts captured rows in the web UI.
                .disableChaining();
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
        new SluiceJob(MySqlSourceFactory.jsonSource(config), KafkaSinkFactory.jsonSink(config))
                .build(env);
        env.execute(config.get(JobOptions.NAME));
    }
}

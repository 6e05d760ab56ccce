package io.sluice.job.config;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;

/** Options of the job as a whole. */
@PublicEvolving
public final class JobOptions {

    public static final ConfigOption<String> NAME =
            ConfigOptions.key("job.name")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription("Name of the Flink job.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            ConfigOptions.key("job.checkpoint-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Checkpoint interval. Exactly-once output becomes visible to"
                                    + " read_committed consumers once per interval.");

    public static final ConfigOption<String> CHECKPOINT_STORAGE =
            ConfigOptions.key("job.checkpoint-storage")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Directory URI for checkpoints and the default savepoint directory,"
                                    + " e.g. 'file:///var/sluice/checkpoints' or"
                                    + " 's3://bucket/sluice'. Default: the cluster's setting"
                                    + " (state.checkpoints.dir), else the JobManager's memory.");

    public static final ConfigOption<Integer> SOURCE_PARALLELISM =
            ConfigOptions.key("parallelism.source")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the CDC source: snapshot chunks are read in parallel;"
                                    + " the binlog is read by one subtask. Default: the job's.");

    public static final ConfigOption<Integer> ROUTE_PARALLELISM =
            ConfigOptions.key("parallelism.route")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the route operator (topic, partition and key of each"
                                    + " change, keyed by table and primary key). Default:"
                                    + " parallelism.encode if set, else the job's. Equal to"
                                    + " parallelism.encode, the two are chained.");

    public static final ConfigOption<Integer> ENCODE_PARALLELISM =
            ConfigOptions.key("parallelism.encode")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the encode operator. Default: parallelism.route if"
                                    + " set, else the job's.");

    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOptions.key("parallelism.sink")
                    .intType()
                    .noDefaultValue()
                    .withDescription("Parallelism of the sink. Default: the job's.");

    private JobOptions() {}
}

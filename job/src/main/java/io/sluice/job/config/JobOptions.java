package io.sluice.job.config;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.config.OptionSection;

import java.time.Duration;

/**
 * Options of the job as a whole: YAML section {@link #JOB} (name, checkpoints) and section {@link
 * #PARALLELISM} (each operator's parallelism).
 */
@PublicEvolving
public final class JobOptions {

    public static final String JOB = "job.";
    public static final String PARALLELISM = "parallelism.";

    public static final ConfigOption<String> NAME =
            ConfigOptions.key("name")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription("Name of the Flink job.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            ConfigOptions.key("checkpoint-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Checkpoint interval. Exactly-once output becomes visible to"
                                    + " read_committed consumers once per interval.");

    public static final ConfigOption<String> CHECKPOINT_STORAGE =
            ConfigOptions.key("checkpoint-storage")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Directory URI for checkpoints and the default savepoint directory,"
                                    + " e.g. 'file:///var/sluice/checkpoints' or"
                                    + " 's3://bucket/sluice'. Default: the cluster's setting"
                                    + " (state.checkpoints.dir), else the JobManager's memory.");

    public static final ConfigOption<Integer> SOURCE_PARALLELISM =
            ConfigOptions.key("source")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the CDC source: snapshot chunks are read in parallel;"
                                    + " the binlog is read by one subtask. Default: the job's.");

    public static final ConfigOption<Integer> ROUTE_PARALLELISM =
            ConfigOptions.key("route")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the route operator (topic, partition and key of each"
                                    + " change, keyed by table and primary key). Default:"
                                    + " the encode parallelism if set, else the job's. Equal to"
                                    + " the encode parallelism, the two are chained.");

    public static final ConfigOption<Integer> ENCODE_PARALLELISM =
            ConfigOptions.key("encode")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the encode operator. Default: the route parallelism if"
                                    + " set, else the job's.");

    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOptions.key("sink")
                    .intType()
                    .noDefaultValue()
                    .withDescription("Parallelism of the sink. Default: the job's.");

    private JobOptions() {}

    /** The {@code job.} section of a job's configuration. */
    public static OptionSection job(ReadableConfig config) {
        return OptionSection.of(config, JOB);
    }

    /** The {@code parallelism.} section of a job's configuration. */
    public static OptionSection parallelism(ReadableConfig config) {
        return OptionSection.of(config, PARALLELISM);
    }
}

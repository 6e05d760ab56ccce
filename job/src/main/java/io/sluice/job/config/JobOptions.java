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

    public static final ConfigOption<Integer> SOURCE_PARALLELISM =
            ConfigOptions.key("parallelism.source")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Parallelism of the CDC source: snapshot chunks are read in parallel;"
                                    + " the binlog is read by one subtask. Default: the job's.");

    public static final ConfigOption<Integer> ENCODE_PARALLELISM =
            ConfigOptions.key("parallelism.encode")
                    .intType()
                    .noDefaultValue()
                    .withDescription("Parallelism of the encode operator. Default: the job's.");

    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOptions.key("parallelism.sink")
                    .intType()
                    .noDefaultValue()
                    .withDescription("Parallelism of the sink. Default: the job's.");

    private JobOptions() {}
}

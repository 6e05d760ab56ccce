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

    private JobOptions() {}
}

package io.sluice.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.execution.SuppressRestartsException;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.job.config.JobConfigLoader;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./sluice validate --config conf/sluice.yaml [--set key=value ...]}: loads the job's
 * configuration and checks, before anything is submitted, what the job checks when it starts: the
 * source database (reachable, the binlog on and ROW and FULL, the privileges, the server time zone,
 * the start position, the tables) and Kafka's brokers (reachable with the job's client settings,
 * the transaction timeout within their limit). Prints one line per problem and exits non-zero when
 * there is any; and a note whether the job could follow a failover of the primary by GTID.
 */
public final class SluiceValidate {

    /** How long validate waits for Kafka's brokers: a few seconds say they cannot be reached. */
    private static final Duration BROKER_WAIT = Duration.ofSeconds(10);

    private SluiceValidate() {}

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** The sink's problem, or null: Kafka's brokers are asked what the writers ask them. */
    private static String checkSink(Configuration job) {
        PipelineSections config = PipelineSections.of(job);
        try {
            // The large-message options the job checks as it is built.
            LargeMessageSettings.from(
                    config.sink(),
                    config.encode().get(EncodeOptions.FORMAT),
                    SinkFactory.messageLimits(config));
            // The filter options, parsed as the job parses them.
            FilterSettings.from(config.filter());
            GroupSettings.from(config.encode());
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (config.sink().get(SinkOptions.TYPE) != SinkType.KAFKA) {
            return null;
        }
        try {
            KafkaSinkFactory.checkBrokers(config.kafka(), BROKER_WAIT);
            return KafkaSinkFactory.checkTopicSize(config, BROKER_WAIT).orElse(null);
        } catch (RuntimeException e) {
            Throwable shown = e instanceof SuppressRestartsException ? e.getCause() : e;
            return shown.getMessage();
        }
    }

    /** Validates, reporting to {@code out} and {@code err}; returns the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        Configuration config;
        try {
            config = JobConfigLoader.fromArgs(args);
        } catch (IllegalArgumentException e) {
            err.println("configuration: " + e.getMessage());
            return 2;
        }
        List<String> problems = new ArrayList<>();
        try {
            problems.addAll(
                    MySqlSourceFactory.serverCheck(PipelineSections.of(config).source())
                            .problemsAtFirstStart());
        } catch (RuntimeException e) {
            problems.add(e.getMessage());
        }
        for (String problem : problems) {
            err.println("source: " + problem);
        }
        String sink = checkSink(config);
        if (sink != null) {
            err.println("sink: " + sink);
        }
        if (problems.isEmpty() && sink == null) {
            out.println("ok: the source database and the sink can serve the job as configured");
        }
        if (problems.isEmpty()) {
            for (String note :
                    MySqlSourceFactory.serverCheck(PipelineSections.of(config).source())
                            .failoverNotes()) {
                out.println("note: source: " + note);
            }
        }
        return problems.isEmpty() && sink == null ? 0 : 1;
    }
}

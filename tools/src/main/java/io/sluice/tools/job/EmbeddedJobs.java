package io.sluice.tools.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.Waits;
import io.sluice.job.SluiceJob;
import io.sluice.job.config.JobConfigLoader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real Sluice job against embedded servers, for the ITCases, the demo and benchmarks. */
public final class EmbeddedJobs {

    private EmbeddedJobs() {}

    /**
     * The job's configuration for {@code tables} ({@code db.table;...}) of {@code source} (MariaDB
     * or MySQL) into {@code topic} on {@code kafka}, through the same loader as production, then
     * {@code overrides} ({@code key=value}).
     */
    public static Configuration config(
            DatabaseServer source,
            KafkaServer kafka,
            String tables,
            String topic,
            String... overrides) {
        return JobConfigLoader.fromArgs(args(source, kafka, tables, topic, overrides));
    }

    /** The arguments {@link #config} loads, for what takes the job's arguments itself. */
    public static String[] args(
            DatabaseServer source,
            KafkaServer kafka,
            String tables,
            String topic,
            String... overrides) {
        List<String> args = new ArrayList<>();
        set(args, "source.hostname=" + source.host());
        set(args, "source.port=" + source.port());
        set(args, "source.username=" + source.cdcUser());
        set(args, "source.password=" + source.cdcPassword());
        set(args, "source.tables=" + tables);
        set(args, "route.default-topic=" + topic);
        set(args, "sink.kafka.bootstrap-servers=" + kafka.bootstrapServers());
        set(args, "sink.kafka.transactional-id-prefix=" + topic);
        for (String override : overrides) {
            set(args, override);
        }
        return args.toArray(new String[0]);
    }

    /** Builds the job on {@code env} with the production source and sink, and starts it. */
    public static JobClient start(StreamExecutionEnvironment env, Configuration config, String name)
            throws Exception {
        SluiceJob.configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config)
                .build(env);
        return env.executeAsync(name);
    }

    /**
     * Cancels {@code job} unless it ended, and waits until it has: the next job then has the slots
     * back, and its binlog connection is not pushed off the server by this one's reconnects under
     * the same server id ({@code cancel()} completes before the tasks have stopped).
     */
    public static void cancel(JobClient job) throws Exception {
        if (!job.getJobStatus().get(1, TimeUnit.MINUTES).isGloballyTerminalState()) {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
        Waits.until(
                "job " + job.getJobID() + " to end",
                Duration.ofMinutes(2),
                () -> job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState());
    }

    private static void set(List<String> args, String assignment) {
        args.add("--set");
        args.add(assignment);
    }
}

package io.sluice.it.config;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;

import io.sluice.functions.source.SourceSetupException;
import io.sluice.it.flink.JobExceptions;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.tools.job.EmbeddedJobs;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A job that its source refuses at start: it fails once, never restarting, naming the problem. */
final class RefusedStart {

    private static final Duration WAIT = Duration.ofMinutes(2);

    private RefusedStart() {}

    /**
     * Runs the job of {@code args} on the MiniCluster at {@code rest}: it fails with a {@link
     * SourceSetupException} whose message {@code message} accepts, once, and its root exception
     * names {@code first}.
     *
     * @return the root exception, for checks of what no message may hold
     */
    static String assertFailsOnce(
            URI rest, String[] args, String name, String first, Consumer<String> message)
            throws Exception {
        JobClient job =
                EmbeddedJobs.start(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        JobConfigLoader.fromArgs(args),
                        "refused-" + name);
        assertThatThrownBy(
                        () ->
                                job.getJobExecutionResult()
                                        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class)
                .satisfies(
                        e -> {
                            Optional<SourceSetupException> cause =
                                    ExceptionUtils.findThrowable(e, SourceSetupException.class);
                            assertThat(cause).as("the source's setup error").isPresent();
                            message.accept(cause.get().getMessage());
                        });
        JobExceptions exceptions = JobExceptions.of(rest, job.getJobID());
        assertThat(exceptions.failures()).as("failed once, never restarted").isEqualTo(1);
        assertThat(exceptions.rootException()).contains(first);
        return exceptions.rootException();
    }
}

package io.sluice.job;

import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.sql.SqlScriptRunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs a Sluice SQL script as one Flink job:
 *
 * <pre>{@code
 * flink run -c io.sluice.job.SluiceSqlRunner sluice-job-*-job.jar sql/one-topic-per-table.sql \
 *     --define SOURCE_HOST=db.example --define KAFKA=kafka:9092
 * }</pre>
 *
 * See {@link SqlScriptRunner} for what a script may hold.
 */
public final class SluiceSqlRunner {

    private SluiceSqlRunner() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "Usage: SluiceSqlRunner <script.sql> [--define NAME=value ...]");
        }
        // Beside the jar too: application mode runs with the jar, conf/ and sql/ in usrlib/.
        Path script = JobConfigLoader.besideJar(args[0]);
        Map<String, String> defines = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!"--define".equals(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        "Arguments after the script take the form '--define NAME=value', but got '"
                                + args[i]
                                + "'");
            }
            String define = args[++i];
            int eq = define.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "'--define' takes NAME=value, but got '" + define + "'");
            }
            defines.put(define.substring(0, eq), define.substring(eq + 1));
        }
        try {
            JobClient job =
                    start(read(script), script.getFileName().toString(), defines, System.getenv());
            // As env.execute() does: a detached submission (REST, the web UI, 'flink run -d') has
            // no result to wait for, and asking for it fails.
            if (StreamExecutionEnvironment.getExecutionEnvironment()
                    .getConfiguration()
                    .get(DeploymentOptions.ATTACHED)) {
                job.getJobExecutionResult().get();
            }
        } finally {
            MySqlSourceFactory.releaseDrivers();
        }
    }

    /** Plans {@code script} and submits its one job; returns once it is submitted. */
    public static JobClient start(
            String script, String name, Map<String, String> defines, Map<String, String> env) {
        SqlScriptRunner runner = SqlScriptRunner.parse(script, defines, env);
        StreamExecutionEnvironment execution =
                StreamExecutionEnvironment.getExecutionEnvironment(runner.configuration());
        StreamTableEnvironment tables = StreamTableEnvironment.create(execution);
        tables.getConfig().set("pipeline.name", runner.jobName(name));
        TableResult result = runner.plan(tables).execute();
        return result.getJobClient()
                .orElseThrow(() -> new IllegalStateException("The statement set started no job"));
    }

    private static String read(Path script) throws IOException {
        if (!Files.isRegularFile(script)) {
            throw new IllegalArgumentException("The SQL script '" + script + "' does not exist");
        }
        return Files.readString(script, StandardCharsets.UTF_8);
    }
}

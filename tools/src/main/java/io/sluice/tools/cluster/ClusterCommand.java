package io.sluice.tools.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import io.sluice.it.cluster.BuildOutputs;
import io.sluice.tools.cli.Cli;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./sluice cluster start|submit|savepoint|status|stop}: a standalone Flink session cluster
 * on this machine, and the Sluice job on it, through Flink's REST API. State (ports, process ids,
 * the last job and savepoint) is kept in the work dir ({@code -Dsluice.cluster.workDir}).
 */
@Command(
        name = "sluice cluster",
        description = "A standalone Flink session cluster on this machine.")
public final class ClusterCommand implements Runnable {

    public static final String ENTRY_CLASS = "io.sluice.job.SluiceJob";

    private static final Duration WAIT = Duration.ofMinutes(3);

    private final Path workDir;

    /** Every subcommand inherits it. */
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            scope = ScopeType.INHERIT,
            description = "this help")
    boolean help;

    @Spec CommandSpec spec;

    private ClusterCommand(Path workDir) {
        this.workDir = workDir;
    }

    public static void main(String[] args) {
        Path workDir =
                Path.of(
                                System.getProperty(
                                        "sluice.cluster.workDir",
                                        BuildOutputs.root()
                                                .resolve("tools/target/cluster")
                                                .toString()))
                        .toAbsolutePath();
        // What submit does not know is the job's (--set key=value ...).
        CommandLine line =
                new CommandLine(new ClusterCommand(workDir))
                        .setUnmatchedOptionsArePositionalParams(true);
        System.exit(Cli.execute("sluice cluster", line, args));
    }

    /** Without a subcommand. */
    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(), "Missing a command: start, submit, savepoint, status or stop");
    }

    @Command(name = "start", description = "starts a JobManager and a TaskManager JVM")
    void start(
            @Option(
                            names = "--rest-port",
                            converter = Cli.Positive.class,
                            paramLabel = "<port>",
                            defaultValue = "8081",
                            description = "web UI and REST port (default: ${DEFAULT-VALUE})")
                    int restPort,
            @Option(
                            names = "--slots",
                            converter = Cli.Positive.class,
                            paramLabel = "<slots>",
                            defaultValue = "4",
                            description = "the TaskManager's slots (default: ${DEFAULT-VALUE})")
                    int slots,
            @Option(
                            names = "--prometheus-ports",
                            converter = PortPairConverter.class,
                            paramLabel = "<jobmanager>,<taskmanager>",
                            description = "Prometheus reporter ports (default: 9249,9250)")
                    PortPair prometheusPorts) {
        if (Files.exists(workDir.resolve("cluster.properties"))
                && !FlinkCluster.attach(workDir).processes().isEmpty()) {
            throw new IllegalStateException(
                    "A cluster from " + workDir + " is running: './sluice cluster stop' first");
        }
        FlinkCluster.Builder builder =
                FlinkCluster.builder()
                        .workDir(workDir)
                        .classpath(BuildOutputs.flinkClasspath())
                        .baseConfig(BuildOutputs.flinkConfigDir())
                        .jvmOptions(BuildOutputs.jvmOptions())
                        .stopOnExit(false)
                        .restPort(restPort)
                        .taskSlots(slots);
        if (prometheusPorts != null) {
            builder.prometheusPorts(prometheusPorts.jobManager(), prometheusPorts.taskManager());
        }
        FlinkCluster cluster = builder.start();
        System.out.println("Flink web UI and REST: " + cluster.restUrl());
        System.out.println(
                "Prometheus: "
                        + cluster.jobManagerPrometheusUrl()
                        + " (JobManager), "
                        + cluster.taskManagerPrometheusUrl()
                        + " (TaskManager)");
        System.out.println("Logs: " + cluster.logDir());
    }

    @Command(
            name = "submit",
            description =
                    "uploads the shaded job jar, runs it with the other arguments (--set"
                            + " key=value ...) and waits until it has completed a checkpoint")
    void submit(
            @Option(
                            names = "--jar",
                            paramLabel = "<jar>",
                            description = "the job jar (default: job/target's)")
                    Path jar,
            @Option(
                            names = "--entry-class",
                            paramLabel = "<class>",
                            defaultValue = ENTRY_CLASS,
                            description = "(default: ${DEFAULT-VALUE})")
                    String entryClass,
            @Option(
                            names = "--wait",
                            converter = Cli.FlinkDuration.class,
                            defaultValue = "1min",
                            paramLabel = "<duration>",
                            description =
                                    "how long to wait for a checkpoint (default:"
                                            + " ${DEFAULT-VALUE})")
                    Duration wait,
            @Option(
                            names = "--from-savepoint",
                            paramLabel = "<path>|last",
                            description = "restore from a savepoint; last: the last one taken")
                    String fromSavepoint,
            @Option(
                            names = "--config",
                            paramLabel = "<sluice.yaml>",
                            description = "the job's configuration file")
                    Path config,
            @Parameters(paramLabel = "<job arguments>", description = "e.g. --set key=value")
                    List<String> rest) {
        FlinkCluster cluster = running();
        String savepoint = "last".equals(fromSavepoint) ? read("last-savepoint") : fromSavepoint;
        List<String> jobArgs = new ArrayList<>();
        if (config != null) {
            // The job's main runs in the JobManager, whose working dir is not ours.
            jobArgs.add("--config");
            jobArgs.add(config.toAbsolutePath().toString());
        }
        if (rest != null) {
            jobArgs.addAll(rest);
        }
        FlinkRestClient client = cluster.rest();
        String jarId = client.uploadJar(jar != null ? jar : BuildOutputs.jobJar());
        String jobId = client.runJar(jarId, entryClass, jobArgs, savepoint);
        write("last-job", jobId);
        System.out.println(
                "Job " + jobId + " submitted; waiting up to " + wait + " for a checkpoint");
        client.awaitHealthy(jobId, wait);
        System.out.println(
                "Job "
                        + jobId
                        + " is running and has completed a checkpoint"
                        + (savepoint == null ? "" : ", restored from " + savepoint));
        System.out.println(
                "Web UI: " + cluster.restUrl() + "/#/job/running/" + jobId + "/overview");
    }

    @Command(name = "savepoint", description = "stop-with-savepoint; prints the path")
    void savepoint(
            @Option(
                            names = "--job",
                            paramLabel = "<job id>",
                            description = "the job (default: the last submitted)")
                    String job,
            @Option(
                            names = "--dir",
                            paramLabel = "<uri>",
                            description = "where (default: savepoints/ in the work dir)")
                    String dir) {
        FlinkCluster cluster = running();
        String jobId = job != null ? job : read("last-job");
        String target = dir != null ? dir : workDir.resolve("savepoints").toUri().toString();
        String location = cluster.rest().stopWithSavepoint(jobId, target, WAIT);
        write("last-savepoint", location);
        System.out.println("Job " + jobId + " stopped with savepoint " + location);
        System.out.println(
                "Resume: ./sluice cluster submit --from-savepoint last <the same job arguments>");
    }

    @Command(name = "status", description = "the cluster's overview and jobs")
    void status() {
        FlinkCluster cluster = running();
        JsonNode overview = cluster.rest().overview();
        System.out.println(cluster.restUrl() + ": " + overview);
        for (JsonNode job : cluster.rest().get("/jobs").path("jobs")) {
            System.out.println(
                    "job " + job.path("id").asText() + " " + job.path("status").asText());
        }
    }

    @Command(name = "stop", description = "stops both JVMs")
    void stop() {
        FlinkCluster cluster = FlinkCluster.attach(workDir);
        cluster.close();
        List<ProcessHandle> left = FlinkCluster.leftoverProcesses(workDir);
        if (!left.isEmpty()) {
            throw new IllegalStateException("Processes of the cluster are still alive: " + left);
        }
        System.out.println("Stopped the cluster of " + workDir);
    }

    private FlinkCluster running() {
        FlinkCluster cluster = FlinkCluster.attach(workDir);
        if (cluster.processes().size() != 2) {
            throw new IllegalStateException(
                    "The cluster of "
                            + workDir
                            + " is not running: './sluice cluster start' first");
        }
        return cluster;
    }

    private String read(String name) {
        Path file = workDir.resolve(name);
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("No " + name + " recorded in " + workDir, e);
        }
    }

    private void write(String name, String value) {
        try {
            Files.writeString(workDir.resolve(name), value + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot record " + name, e);
        }
    }

    /** The Prometheus ports of the JobManager and the TaskManager. */
    record PortPair(int jobManager, int taskManager) {}

    /** Reads {@code <jobmanager>,<taskmanager>}. */
    static final class PortPairConverter implements ITypeConverter<PortPair> {
        @Override
        public PortPair convert(String value) {
            String[] ports = value.split(",");
            if (ports.length != 2) {
                throw new TypeConversionException(
                        "takes two ports, <jobmanager>,<taskmanager>, but got '" + value + "'");
            }
            return new PortPair(
                    new Cli.Positive().convert(ports[0]), new Cli.Positive().convert(ports[1]));
        }
    }
}

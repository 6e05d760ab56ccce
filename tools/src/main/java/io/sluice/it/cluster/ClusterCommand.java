package io.sluice.it.cluster;

import org.apache.flink.util.TimeUtils;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

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
public final class ClusterCommand {

    public static final String ENTRY_CLASS = "io.sluice.job.SluiceJob";

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final Duration SUBMIT_WAIT = Duration.ofMinutes(1);

    private final Path workDir;

    private ClusterCommand(Path workDir) {
        this.workDir = workDir;
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (RuntimeException e) {
            System.err.println("sluice cluster: " + e.getMessage());
            if (e.getCause() != null) {
                System.err.println("  caused by: " + e.getCause());
            }
            System.exit(1);
        }
    }

    private static void run(String[] args) {
        Path workDir =
                Path.of(
                                System.getProperty(
                                        "sluice.cluster.workDir",
                                        BuildOutputs.root()
                                                .resolve("tools/target/cluster")
                                                .toString()))
                        .toAbsolutePath();
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "usage: start|submit|savepoint|status|stop [options]");
        }
        List<String> rest = List.of(args).subList(1, args.length);
        ClusterCommand command = new ClusterCommand(workDir);
        switch (args[0]) {
            case "start" -> command.start(rest);
            case "submit" -> command.submit(rest);
            case "savepoint" -> command.savepoint(rest);
            case "status" -> command.status();
            case "stop" -> command.stop();
            default ->
                    throw new IllegalArgumentException(
                            "Unknown cluster command '"
                                    + args[0]
                                    + "': start|submit|savepoint|status|stop");
        }
    }

    private void start(List<String> args) {
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
                        .stopOnExit(false);
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            String value = valueOf(args, i++);
            switch (flag) {
                case "--rest-port" -> builder.restPort(Integer.parseInt(value));
                case "--slots" -> builder.taskSlots(Integer.parseInt(value));
                case "--prometheus-ports" -> {
                    String[] ports = value.split(",");
                    builder.prometheusPorts(
                            Integer.parseInt(ports[0].trim()), Integer.parseInt(ports[1].trim()));
                }
                default ->
                        throw new IllegalArgumentException(
                                "start takes --rest-port, --slots, --prometheus-ports; not '"
                                        + flag
                                        + "'");
            }
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

    private void submit(List<String> args) {
        FlinkCluster cluster = running();
        Path jar = BuildOutputs.jobJar();
        String entryClass = ENTRY_CLASS;
        String savepoint = null;
        Duration wait = SUBMIT_WAIT;
        List<String> jobArgs = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            switch (flag) {
                case "--jar" -> jar = Path.of(valueOf(args, i++));
                case "--entry-class" -> entryClass = valueOf(args, i++);
                case "--wait" -> wait = TimeUtils.parseDuration(valueOf(args, i++));
                case "--from-savepoint" -> {
                    String value = valueOf(args, i++);
                    savepoint = "last".equals(value) ? read("last-savepoint") : value;
                }
                case "--config" -> {
                    // The job's main runs in the JobManager, whose working dir is not ours.
                    jobArgs.add(flag);
                    jobArgs.add(Path.of(valueOf(args, i++)).toAbsolutePath().toString());
                }
                default -> jobArgs.add(flag);
            }
        }
        FlinkRestClient rest = cluster.rest();
        String jarId = rest.uploadJar(jar);
        String jobId = rest.runJar(jarId, entryClass, jobArgs, savepoint);
        write("last-job", jobId);
        System.out.println(
                "Job " + jobId + " submitted; waiting up to " + wait + " for a checkpoint");
        rest.awaitHealthy(jobId, wait);
        System.out.println(
                "Job "
                        + jobId
                        + " is running and has completed a checkpoint"
                        + (savepoint == null ? "" : ", restored from " + savepoint));
        System.out.println(
                "Web UI: " + cluster.restUrl() + "/#/job/running/" + jobId + "/overview");
    }

    private void savepoint(List<String> args) {
        FlinkCluster cluster = running();
        String jobId = null;
        String dir = workDir.resolve("savepoints").toUri().toString();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            String value = valueOf(args, i++);
            switch (flag) {
                case "--job" -> jobId = value;
                case "--dir" -> dir = value;
                default ->
                        throw new IllegalArgumentException(
                                "savepoint takes --job and --dir; not '" + flag + "'");
            }
        }
        if (jobId == null) {
            jobId = read("last-job");
        }
        String location = cluster.rest().stopWithSavepoint(jobId, dir, WAIT);
        write("last-savepoint", location);
        System.out.println("Job " + jobId + " stopped with savepoint " + location);
        System.out.println(
                "Resume: ./sluice cluster submit --from-savepoint last <the same job arguments>");
    }

    private void status() {
        FlinkCluster cluster = running();
        JsonNode overview = cluster.rest().overview();
        System.out.println(cluster.restUrl() + ": " + overview);
        for (JsonNode job : cluster.rest().get("/jobs").path("jobs")) {
            System.out.println(
                    "job " + job.path("id").asText() + " " + job.path("status").asText());
        }
    }

    private void stop() {
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

    private static String valueOf(List<String> args, int flagIndex) {
        if (flagIndex + 1 >= args.size()) {
            throw new IllegalArgumentException(args.get(flagIndex) + " needs a value");
        }
        return args.get(flagIndex + 1);
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
}

package io.sluice.tools.cluster;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

import io.sluice.it.server.FreePorts;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A standalone Flink cluster on this machine: a JobManager ({@code
 * StandaloneSessionClusterEntrypoint}, or in application mode {@code
 * StandaloneApplicationClusterEntryPoint} with the job jar in {@code usrlib/}) and a TaskManager
 * ({@code TaskManagerRunner}), each its own JVM, on the classpath of a Flink distribution's {@code
 * lib/} as Maven resolves it (module {@code tools/flink-cluster/}, {@code
 * target/flink-lib.classpath}). Web UI and REST on {@link #restUrl()}, a Prometheus endpoint per
 * process.
 *
 * <p>Everything lives in the work dir: {@code conf/config.yaml}, {@code log/}, checkpoints,
 * savepoints, uploads, and {@code cluster.properties} (ports and process ids), so that another
 * process can {@link #attach} to a running cluster and stop it. Stopping sends SIGTERM (Flink's
 * shutdown hooks run), waits, then kills.
 */
public final class FlinkCluster implements AutoCloseable {

    public static final String JOB_MANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    public static final String TASK_MANAGER_MAIN =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    /** The JobManager of standalone application mode (what {@code standalone-job.sh} runs). */
    public static final String APPLICATION_JOB_MANAGER_MAIN =
            "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";

    /** Marks the cluster's JVMs on their command lines, so leftovers can be found by work dir. */
    public static final String MARKER_PROPERTY = "sluice.cluster.dir";

    private static final String STATE_FILE = "cluster.properties";
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

    private final Path workDir;
    private final int restPort;
    private final int jobManagerPrometheusPort;
    private final int taskManagerPrometheusPort;
    private final List<ProcessHandle> processes;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread shutdownHook;

    private FlinkCluster(
            Path workDir,
            int restPort,
            int jobManagerPrometheusPort,
            int taskManagerPrometheusPort,
            List<ProcessHandle> processes,
            boolean stopOnExit) {
        this.workDir = workDir;
        this.restPort = restPort;
        this.jobManagerPrometheusPort = jobManagerPrometheusPort;
        this.taskManagerPrometheusPort = taskManagerPrometheusPort;
        this.processes = List.copyOf(processes);
        if (stopOnExit) {
            shutdownHook = new Thread(this::stopOnce, "flink-cluster-" + restPort + "-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } else {
            shutdownHook = null;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The cluster whose state {@link Builder#start()} wrote into {@code workDir}, for {@code
     * ./sluice cluster submit|savepoint|stop} from another process. Its processes are not stopped
     * when this JVM exits.
     */
    public static FlinkCluster attach(Path workDir) {
        Path file = workDir.resolve(STATE_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    "No cluster was started in " + workDir + " (no " + STATE_FILE + ")");
        }
        Properties state = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            state.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        List<ProcessHandle> processes = new ArrayList<>();
        for (String key : List.of("jobmanager.pid", "taskmanager.pid")) {
            ProcessHandle.of(Long.parseLong(state.getProperty(key)))
                    .filter(p -> isClusterProcess(p, workDir))
                    .ifPresent(processes::add);
        }
        return new FlinkCluster(
                workDir,
                Integer.parseInt(state.getProperty("rest.port")),
                Integer.parseInt(state.getProperty("jobmanager.prometheus.port")),
                Integer.parseInt(state.getProperty("taskmanager.prometheus.port")),
                processes,
                false);
    }

    /** Processes still alive whose command line names {@code workDir} as their cluster. */
    public static List<ProcessHandle> leftoverProcesses(Path workDir) {
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(p -> isClusterProcess(p, workDir))
                .collect(Collectors.toList());
    }

    private static boolean isClusterProcess(ProcessHandle process, Path workDir) {
        String marker = "-D" + MARKER_PROPERTY + "=" + workDir.toAbsolutePath();
        return commandLine(process).contains(marker);
    }

    /**
     * The process's arguments. On Linux from {@code /proc/<pid>/cmdline}: the JDK gives up on
     * command lines over 4 KB, and a Flink JVM's classpath is longer.
     */
    private static List<String> commandLine(ProcessHandle process) {
        Path cmdline = Path.of("/proc", String.valueOf(process.pid()), "cmdline");
        try {
            if (Files.isReadable(cmdline)) {
                return Arrays.asList(Files.readString(cmdline, StandardCharsets.UTF_8).split("\0"));
            }
        } catch (IOException e) {
            return List.of(); // The process is gone.
        }
        return process.info().arguments().map(Arrays::asList).orElse(List.of());
    }

    public Path workDir() {
        return workDir;
    }

    /** The web UI and REST API. */
    public URI restUrl() {
        return URI.create("http://localhost:" + restPort);
    }

    public URI jobManagerPrometheusUrl() {
        return URI.create("http://localhost:" + jobManagerPrometheusPort + "/metrics");
    }

    public URI taskManagerPrometheusUrl() {
        return URI.create("http://localhost:" + taskManagerPrometheusPort + "/metrics");
    }

    public FlinkRestClient rest() {
        return new FlinkRestClient(restUrl());
    }

    /** The JobManager's and the TaskManager's JVMs. */
    public List<ProcessHandle> processes() {
        return processes;
    }

    /** Where the JobManager's and TaskManager's logs go. */
    public Path logDir() {
        return workDir.resolve("log");
    }

    /** Stops the TaskManager, then the JobManager: SIGTERM, a bounded wait, then SIGKILL. */
    @Override
    public void close() {
        if (stopOnce() && shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already; the hook is harmless.
            }
        }
    }

    private boolean stopOnce() {
        if (!stopped.compareAndSet(false, true)) {
            return false;
        }
        List<ProcessHandle> reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        for (ProcessHandle process : reversed) {
            stop(process);
        }
        return true;
    }

    private static void stop(ProcessHandle process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(process, STOP_TIMEOUT)) {
            process.destroyForcibly();
            if (!awaitExit(process, KILL_TIMEOUT)) {
                throw new IllegalStateException(
                        "Process " + process.pid() + " survived SIGKILL for " + KILL_TIMEOUT);
            }
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("Waiting for process " + process.pid(), e);
        }
    }

    @Override
    public String toString() {
        return "FlinkCluster[" + restUrl() + ", " + workDir + "]";
    }

    /** Settings of a cluster; {@link #start()} validates them and starts it. */
    public static final class Builder {

        private Path workDir;
        private String classpath;
        private int restPort = 8081;
        private int taskSlots = 4;
        private int jobManagerPrometheusPort = 9249;
        private int taskManagerPrometheusPort = 9250;
        private List<String> jvmOptions = List.of();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final Map<String, String> flinkConfig = new LinkedHashMap<>();
        private boolean stopOnExit = true;
        private Path baseConfigDir;
        private Path userLib;
        private String applicationClass;
        private List<String> applicationArgs = List.of();
        private String savepoint;

        private Builder() {}

        /**
         * Application mode, as the official image's {@code standalone-job} runs it: the files of
         * {@code userLib} (the job jar, and {@code conf/}, {@code sql/} beside it) are copied to
         * the cluster's {@code usrlib/}, and the JobManager runs {@code entryClass} with {@code
         * args} from there. The cluster ends when the job does.
         */
        public Builder application(Path userLib, String entryClass, List<String> args) {
            this.userLib = userLib.toAbsolutePath();
            this.applicationClass = entryClass;
            this.applicationArgs = List.copyOf(args);
            return this;
        }

        /** Application mode only: the savepoint the job starts from. */
        public Builder fromSavepoint(String path) {
            this.savepoint = path;
            return this;
        }

        /** A folder whose {@code config.yaml} is the base of the cluster's (conf/flink). */
        public Builder baseConfig(Path dir) {
            if (!Files.isRegularFile(dir.resolve("config.yaml"))) {
                throw new IllegalArgumentException(dir + " holds no config.yaml");
            }
            this.baseConfigDir = dir.toAbsolutePath();
            return this;
        }

        /** Conf, logs, checkpoints and savepoints; created if missing. Required. */
        public Builder workDir(Path workDir) {
            this.workDir = workDir.toAbsolutePath();
            return this;
        }

        /**
         * The Flink jars, as in {@code tools/flink-cluster/target/flink-lib.classpath}. Required.
         */
        public Builder classpath(String classpath) {
            this.classpath = classpath.trim();
            return this;
        }

        /** Web UI and REST port (default 8081). */
        public Builder restPort(int port) {
            this.restPort = port;
            return this;
        }

        /** Slots of the TaskManager (default 4). */
        public Builder taskSlots(int slots) {
            this.taskSlots = slots;
            return this;
        }

        /** Ports of the JobManager's and TaskManager's Prometheus endpoints (9249, 9250). */
        public Builder prometheusPorts(int jobManager, int taskManager) {
            this.jobManagerPrometheusPort = jobManager;
            this.taskManagerPrometheusPort = taskManager;
            return this;
        }

        /** Flags for both JVMs, e.g. the {@code --add-opens} Flink needs on Java 17. */
        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        /** An environment variable of both JVMs (e.g. a secret the job config names). */
        public Builder environment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /** An extra entry of {@code config.yaml}. */
        public Builder flinkConfig(String key, String value) {
            flinkConfig.put(key, value);
            return this;
        }

        /** Whether this JVM's exit stops the cluster (default true; false for the CLI). */
        public Builder stopOnExit(boolean stopOnExit) {
            this.stopOnExit = stopOnExit;
            return this;
        }

        /**
         * Starts the JobManager, waits for its REST API, starts the TaskManager and waits until its
         * slots are registered.
         */
        public FlinkCluster start() {
            validate();
            Path conf = workDir.resolve("conf");
            Path logs = workDir.resolve("log");
            try {
                Files.createDirectories(conf);
                Files.createDirectories(logs);
                Files.createDirectories(workDir.resolve("tmp"));
                Files.createDirectories(workDir.resolve("plugins"));
                // Flink finds usrlib/ beside the lib/ folder FLINK_LIB_DIR names.
                Files.createDirectories(workDir.resolve("lib"));
                if (userLib != null) {
                    copyTree(userLib, workDir.resolve("usrlib"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create " + workDir, e);
            }
            Configuration config = configuration();
            writeConfig(conf.resolve("config.yaml"), config);
            copyLog4jConfig(conf.resolve("log4j.properties"));

            List<ProcessHandle> started = new ArrayList<>();
            FlinkCluster cluster =
                    new FlinkCluster(
                            workDir,
                            restPort,
                            jobManagerPrometheusPort,
                            taskManagerPrometheusPort,
                            started,
                            false);
            try {
                List<String> jobManagerArgs = new ArrayList<>(jobManagerDynamic(config));
                if (userLib != null) {
                    if (savepoint != null) {
                        jobManagerArgs.add("--fromSavepoint");
                        jobManagerArgs.add(savepoint);
                    }
                    jobManagerArgs.add("--job-classname");
                    jobManagerArgs.add(applicationClass);
                    // The entry point's parser takes a prefix of its own options as that option
                    // (the job's --config would become --configDir): "--" ends Flink's options.
                    jobManagerArgs.add("--");
                    jobManagerArgs.addAll(applicationArgs);
                }
                Process jobManager =
                        launch(
                                "jobmanager",
                                userLib == null ? JOB_MANAGER_MAIN : APPLICATION_JOB_MANAGER_MAIN,
                                jobManagerJvm(config),
                                jobManagerArgs,
                                jobManagerPrometheusPort);
                started.add(jobManager.toHandle());
                FlinkRestClient rest = new FlinkRestClient(cluster.restUrl());
                awaitReady(
                        "the JobManager's REST API on " + cluster.restUrl(),
                        Map.of(jobManager, "jobmanager"),
                        logs,
                        () -> rest.overview() != null);
                Process taskManager =
                        launch(
                                "taskmanager",
                                TASK_MANAGER_MAIN,
                                taskManagerJvm(config),
                                taskManagerDynamic(config),
                                taskManagerPrometheusPort);
                started.add(taskManager.toHandle());
                awaitReady(
                        "a TaskManager with " + taskSlots + " slots",
                        Map.of(taskManager, "taskmanager", jobManager, "jobmanager"),
                        logs,
                        () -> rest.overview().path("slots-total").asInt() >= taskSlots);
                writeState(jobManager.pid(), taskManager.pid());
            } catch (RuntimeException e) {
                new FlinkCluster(workDir, restPort, 0, 0, started, false).close();
                throw e;
            }
            return new FlinkCluster(
                    workDir,
                    restPort,
                    jobManagerPrometheusPort,
                    taskManagerPrometheusPort,
                    started,
                    stopOnExit);
        }

        private void validate() {
            if (workDir == null) {
                throw new IllegalArgumentException("FlinkCluster needs a workDir");
            }
            if (userLib != null && !Files.isDirectory(userLib)) {
                throw new IllegalArgumentException(
                        "The application's user lib " + userLib + " is not a folder");
            }
            if (userLib != null && (applicationClass == null || applicationClass.isBlank())) {
                throw new IllegalArgumentException("An application needs its entry class");
            }
            if (savepoint != null && userLib == null) {
                throw new IllegalArgumentException(
                        "fromSavepoint is for application mode; a session cluster's jobs are"
                                + " submitted with their savepoint");
            }
            if (classpath == null || classpath.isEmpty()) {
                throw new IllegalArgumentException(
                        "FlinkCluster needs the Flink classpath (tools/flink-cluster/target/flink-lib.classpath)");
            }
            for (String entry : classpath.split(File.pathSeparator)) {
                if (!Files.exists(Path.of(entry))) {
                    throw new IllegalArgumentException(
                            "Classpath entry '" + entry + "' does not exist");
                }
            }
            if (taskSlots < 1) {
                throw new IllegalArgumentException(
                        "taskSlots must be at least 1, but is " + taskSlots);
            }
            Map<String, Integer> ports = new LinkedHashMap<>();
            ports.put("rest port", restPort);
            ports.put("JobManager Prometheus port", jobManagerPrometheusPort);
            ports.put("TaskManager Prometheus port", taskManagerPrometheusPort);
            if (ports.values().stream().distinct().count() != ports.size()) {
                throw new IllegalArgumentException("Ports must differ, but are " + ports);
            }
            ports.forEach(
                    (name, port) -> {
                        if (port < 1 || port > 65535) {
                            throw new IllegalArgumentException(
                                    "The " + name + " must be in 1..65535, but is " + port);
                        }
                        if (FreePorts.isListening(port)) {
                            throw new IllegalStateException(
                                    "The "
                                            + name
                                            + " "
                                            + port
                                            + " is taken: stop what listens on it or pick"
                                            + " another port");
                        }
                    });
        }

        private Configuration configuration() {
            // conf/flink/config.yaml first, then what only this machine and this start know.
            Configuration config =
                    baseConfigDir == null
                            ? new Configuration()
                            : GlobalConfiguration.loadConfiguration(baseConfigDir.toString());
            Map<String, String> entries = new LinkedHashMap<>(config.toMap());
            entries.put("jobmanager.rpc.address", "localhost");
            entries.put("jobmanager.rpc.port", String.valueOf(rpcPort()));
            entries.put("jobmanager.bind-host", "localhost");
            entries.put("taskmanager.bind-host", "localhost");
            entries.put("taskmanager.host", "localhost");
            entries.put("rest.address", "localhost");
            entries.put("rest.bind-address", "localhost");
            entries.put("rest.port", String.valueOf(restPort));
            entries.put("taskmanager.numberOfTaskSlots", String.valueOf(taskSlots));
            entries.put(
                    "execution.checkpointing.dir",
                    workDir.resolve("checkpoints").toUri().toString());
            entries.put(
                    "execution.checkpointing.savepoint-dir",
                    workDir.resolve("savepoints").toUri().toString());
            entries.put("web.upload.dir", workDir.resolve("uploads").toString());
            entries.put("io.tmp.dirs", workDir.resolve("tmp").toString());
            entries.put("blob.storage.directory", workDir.resolve("blobs").toString());
            entries.putIfAbsent(
                    "metrics.reporter.prom.factory.class",
                    "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
            // Each process gets its own port on its command line; the file lists both.
            entries.put(
                    "metrics.reporter.prom.port",
                    jobManagerPrometheusPort + "," + taskManagerPrometheusPort);
            entries.putAll(flinkConfig);
            return Configuration.fromMap(entries);
        }

        /** A free port that is none of the ports chosen for REST and Prometheus. */
        private int rpcPort() {
            while (true) {
                int port = FreePorts.next();
                if (port != restPort
                        && port != jobManagerPrometheusPort
                        && port != taskManagerPrometheusPort) {
                    return port;
                }
            }
        }

        private static void writeConfig(Path file, Configuration config) {
            StringBuilder yaml =
                    new StringBuilder("# Written by io.sluice.tools.cluster.FlinkCluster\n");
            config.toMap()
                    .forEach(
                            (key, value) ->
                                    yaml.append(key)
                                            .append(": '")
                                            .append(value.replace("'", "''"))
                                            .append("'\n"));
            try {
                Files.writeString(file, yaml.toString(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + file, e);
            }
        }

        private static void copyTree(Path from, Path to) throws IOException {
            try (Stream<Path> files = Files.walk(from)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Path target = to.resolve(from.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(file, target);
                    }
                }
            }
        }

        private static void copyLog4jConfig(Path file) {
            try (InputStream in =
                            FlinkCluster.class.getResourceAsStream(
                                    "/flink-cluster/log4j.properties");
                    OutputStream out = Files.newOutputStream(file)) {
                if (in == null) {
                    throw new IllegalStateException("flink-cluster/log4j.properties is missing");
                }
                in.transferTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write " + file, e);
            }
        }

        // The heap, direct and metaspace sizes Flink's own scripts derive (BashJavaUtils).
        private static List<String> jobManagerJvm(Configuration config) {
            JobManagerProcessSpec spec =
                    JobManagerProcessUtils.processSpecFromConfigWithNewOptionToInterpretLegacyHeap(
                            config, JobManagerOptions.JVM_HEAP_MEMORY);
            return split(JobManagerProcessUtils.generateJvmParametersStr(spec, config));
        }

        private static List<String> jobManagerDynamic(Configuration config) {
            JobManagerProcessSpec spec =
                    JobManagerProcessUtils.processSpecFromConfigWithNewOptionToInterpretLegacyHeap(
                            config, JobManagerOptions.JVM_HEAP_MEMORY);
            return split(JobManagerProcessUtils.generateDynamicConfigsStr(spec));
        }

        private static TaskExecutorProcessSpec taskManagerSpec(Configuration config) {
            return TaskExecutorProcessUtils.processSpecFromConfig(
                    TaskExecutorProcessUtils
                            .getConfigurationMapLegacyTaskManagerHeapSizeToConfigOption(
                                    config, TaskManagerOptions.TOTAL_FLINK_MEMORY));
        }

        private static List<String> taskManagerJvm(Configuration config) {
            return split(ProcessMemoryUtils.generateJvmParametersStr(taskManagerSpec(config)));
        }

        private static List<String> taskManagerDynamic(Configuration config) {
            return split(
                    TaskExecutorProcessUtils.generateDynamicConfigsStr(taskManagerSpec(config)));
        }

        private static List<String> split(String args) {
            return Arrays.stream(args.trim().split("\\s+"))
                    .filter(s -> !s.isEmpty())
                    .collect(Collectors.toList());
        }

        private Process launch(
                String role,
                String mainClass,
                List<String> memoryJvm,
                List<String> dynamic,
                int prometheusPort) {
            Path conf = workDir.resolve("conf");
            Path logs = workDir.resolve("log");
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-D" + MARKER_PROPERTY + "=" + workDir);
            command.addAll(jvmOptions);
            command.addAll(memoryJvm);
            command.add("-Dlog.file=" + logs.resolve(role + ".log"));
            command.add("-Dlog4j.configuration=file:" + conf.resolve("log4j.properties"));
            command.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j.properties"));
            command.add("-classpath");
            command.add(classpath);
            command.add(mainClass);
            command.add("--configDir");
            command.add(conf.toString());
            // Each process its own Prometheus port; config.yaml lists both. Before the dynamic
            // options, which end with an application's own arguments.
            command.add("-D");
            command.add("metrics.reporter.prom.port=" + prometheusPort);
            command.addAll(dynamic);
            ProcessBuilder builder =
                    new ProcessBuilder(command)
                            .directory(workDir.toFile())
                            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                            .redirectErrorStream(true)
                            .redirectOutput(logs.resolve(role + ".out").toFile());
            builder.environment().putAll(environment);
            builder.environment().put("FLINK_CONF_DIR", conf.toString());
            builder.environment().put("FLINK_LOG_DIR", logs.toString());
            builder.environment().put("FLINK_LIB_DIR", workDir.resolve("lib").toString());
            // Empty: every jar, the Prometheus reporter's included, is on the classpath.
            builder.environment().put("FLINK_PLUGINS_DIR", workDir.resolve("plugins").toString());
            try {
                return builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start the " + role, e);
            }
        }

        /**
         * Waits for {@code ready}, failing at once if one of the {@code watched} processes exits.
         */
        private static void awaitReady(
                String what, Map<Process, String> watched, Path logs, Callable<Boolean> ready) {
            long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
            Exception last = null;
            while (true) {
                for (Map.Entry<Process, String> process : watched.entrySet()) {
                    if (!process.getKey().isAlive()) {
                        String role = process.getValue();
                        throw new IllegalStateException(
                                "The "
                                        + role
                                        + " exited with "
                                        + process.getKey().exitValue()
                                        + " while waiting for "
                                        + what
                                        + "; see "
                                        + logs.resolve(role + ".log")
                                        + " and "
                                        + logs.resolve(role + ".out"));
                    }
                }
                try {
                    if (Boolean.TRUE.equals(ready.call())) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "Timed out after "
                                    + READY_TIMEOUT
                                    + " waiting for "
                                    + what
                                    + "; see "
                                    + logs,
                            last);
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while waiting for " + what, e);
                }
            }
        }

        private void writeState(long jobManagerPid, long taskManagerPid) {
            Properties state = new Properties();
            state.setProperty("rest.port", String.valueOf(restPort));
            state.setProperty(
                    "jobmanager.prometheus.port", String.valueOf(jobManagerPrometheusPort));
            state.setProperty(
                    "taskmanager.prometheus.port", String.valueOf(taskManagerPrometheusPort));
            state.setProperty("jobmanager.pid", String.valueOf(jobManagerPid));
            state.setProperty("taskmanager.pid", String.valueOf(taskManagerPid));
            try (OutputStream out = Files.newOutputStream(workDir.resolve(STATE_FILE))) {
                state.store(out, "Flink cluster started by Sluice");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the cluster state", e);
            }
        }
    }
}

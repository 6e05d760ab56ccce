package io.sluice.it.server;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@link MariaDbServer} and {@link MySqlServer} share once their process runs: the accounts,
 * JDBC through {@link SqlAdmin}, and a stop that happens once, on {@link #close()} or when the JVM
 * exits.
 */
abstract class SqlDatabaseServer implements DatabaseServer {

    public static final String HOST = "127.0.0.1";
    public static final String ROOT_USER = "root";
    public static final String ROOT_PASSWORD = "root-pw";
    public static final String CDC_USER = "cdc";
    public static final String CDC_PASSWORD = "cdc-pw";
    public static final String TIME_ZONE = "UTC";

    private final Kind kind;
    private final int port;
    private final Path workDir;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    final SqlAdmin sql;

    /**
     * @param name the server's name in messages and thread names, e.g. {@code MySQL}
     */
    SqlDatabaseServer(Kind kind, String name, int port, Path workDir) {
        this(kind, name, port, workDir, false);
    }

    /**
     * @param tls whether the tests' own connections use TLS (the server requires it)
     */
    SqlDatabaseServer(Kind kind, String name, int port, Path workDir, boolean tls) {
        this.kind = kind;
        this.port = port;
        this.workDir = workDir;
        this.sql = new SqlAdmin(name, HOST, port, ROOT_USER, ROOT_PASSWORD, TIME_ZONE, tls);
        this.shutdownHook = new Thread(this::stopOnce, name + "-" + port + "-shutdown-hook");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Stops the server's process, at most once per server; bounded in time. */
    abstract void stop();

    @Override
    public final Kind kind() {
        return kind;
    }

    @Override
    public final String host() {
        return HOST;
    }

    @Override
    public final int port() {
        return port;
    }

    @Override
    public final String rootUser() {
        return ROOT_USER;
    }

    @Override
    public final String rootPassword() {
        return ROOT_PASSWORD;
    }

    @Override
    public final String cdcUser() {
        return CDC_USER;
    }

    @Override
    public final String cdcPassword() {
        return CDC_PASSWORD;
    }

    @Override
    public final String timeZone() {
        return TIME_ZONE;
    }

    @Override
    public Path workDir() {
        return workDir;
    }

    @Override
    public final String jdbcUrl(String database) {
        return sql.jdbcUrl(database);
    }

    @Override
    public final Connection connect(String database) throws SQLException {
        return connect(database, ROOT_USER, ROOT_PASSWORD);
    }

    @Override
    public final Connection connect(String database, String user, String password)
            throws SQLException {
        return sql.connect(database, user, password);
    }

    /** The name is lower case, so it is valid unquoted. */
    @Override
    public final String createDatabase(String prefix, String sqlResourceOrNull) {
        return sql.createDatabase(prefix, sqlResourceOrNull);
    }

    /** As a heartbeat table needs ({@code source.heartbeat-table}). */
    @Override
    public final void grantCdcWrites(String database) {
        sql.grantWrites(CDC_USER, database);
    }

    @Override
    public final void createUser(String user, String password, String grants) {
        sql.createUser(user, password, grants);
    }

    @Override
    public final void execute(String database, String... statements) {
        sql.execute(database, statements);
    }

    @Override
    public final String[] binlogEnd() throws SQLException {
        return sql.binlogEnd();
    }

    /** Stops the server; idempotent. */
    @Override
    public final void close() {
        if (stopOnce()) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already; the hook is harmless.
            }
        }
    }

    /** Returns whether this call did the stopping. */
    private boolean stopOnce() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        stop();
        return true;
    }
}

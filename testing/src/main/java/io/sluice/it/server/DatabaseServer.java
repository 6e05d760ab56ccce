package io.sluice.it.server;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A real source database for tests, MariaDB ({@link MariaDbServer}) or MySQL ({@link MySqlServer}):
 * what a test needs of either, so that one test body runs on both.
 */
public interface DatabaseServer extends AutoCloseable {

    /** Which server this is. */
    enum Kind {
        MARIADB,
        MYSQL
    }

    Kind kind();

    String host();

    int port();

    String rootUser();

    String rootPassword();

    /** The user that holds only the CDC grants. */
    String cdcUser();

    String cdcPassword();

    /** The server's time zone; CDC's server-time-zone must match. */
    String timeZone();

    /** This start's folder, with the server's data and logs. */
    Path workDir();

    /** The running server process, where known. */
    Optional<ProcessHandle> process();

    /** A MySQL Connector/J URL; {@code database} may be null for none. */
    String jdbcUrl(String database);

    /** A new connection as root; {@code database} may be null. */
    Connection connect(String database) throws SQLException;

    /** A new connection as any user; {@code database} may be null. */
    Connection connect(String database, String user, String password) throws SQLException;

    /**
     * Creates a database named {@code prefix} plus a random suffix, then runs the classpath SQL
     * file {@code sqlResourceOrNull} in it; returns the name.
     */
    String createDatabase(String prefix, String sqlResourceOrNull);

    /** Runs {@code statements} in order as root, in {@code database} (null for none). */
    void execute(String database, String... statements);

    /** Lets the CDC user create, insert and update tables of {@code database}. */
    void grantCdcWrites(String database);

    /** Creates {@code user} with {@code password} and {@code grants} on {@code *.*}. */
    void createUser(String user, String password, String grants);

    /** The binlog file and the position the next event starts at. */
    String[] binlogEnd() throws SQLException;

    @Override
    void close();
}

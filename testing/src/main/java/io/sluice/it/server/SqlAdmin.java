package io.sluice.it.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * What {@link MariaDbServer} and {@link MySqlServer} do alike over JDBC: connect, run statements as
 * root, create test databases and accounts, read where the binlog ends. One per server.
 */
final class SqlAdmin {

    /** Each account is made for all of these, whichever name the server gives a local client. */
    static final List<String> ACCOUNT_HOSTS = List.of("localhost", "127.0.0.1", "%");

    private final String kind;
    private final String host;
    private final int port;
    private final String rootUser;
    private final String rootPassword;
    private final String timeZone;
    private final boolean tls;

    /**
     * @param kind the server's name in messages
     * @param timeZone the server's time zone, for the JDBC URL's {@code connectionTimeZone}
     * @param tls whether to connect with TLS (the server accepts nothing else)
     */
    SqlAdmin(
            String kind,
            String host,
            int port,
            String rootUser,
            String rootPassword,
            String timeZone,
            boolean tls) {
        this.kind = kind;
        this.host = host;
        this.port = port;
        this.rootUser = rootUser;
        this.rootPassword = rootPassword;
        this.timeZone = timeZone;
        this.tls = tls;
    }

    /**
     * A MySQL Connector/J URL; {@code database} may be null for none. Without TLS, a {@code
     * caching_sha2_password} login fetches the server's RSA key ({@code allowPublicKeyRetrieval}).
     * TLS only on a server that requires it: the other tests' connections stay cheap.
     */
    String jdbcUrl(String database) {
        return "jdbc:mysql://"
                + host
                + ":"
                + port
                + "/"
                + (database == null ? "" : database)
                + (tls ? "?sslMode=REQUIRED" : "?useSSL=false")
                + "&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
                + "&connectionTimeZone="
                + timeZone;
    }

    Connection connect(String database, String user, String password) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user, password);
    }

    /** Runs {@code statements} in order as root, in {@code database} (null for none). */
    void execute(String database, String... statements) {
        executeAs(rootUser, rootPassword, database, statements);
    }

    /** Runs {@code statements} in order, on one connection, as {@code user}. */
    void executeAs(String user, String password, String database, String... statements) {
        try (Connection connection = connect(database, user, password);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    throw new IllegalStateException(
                            "Statement failed in database " + database + ": " + sql, e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "Cannot connect to "
                            + kind
                            + " on port "
                            + port
                            + " as "
                            + user
                            + " for database "
                            + database,
                    e);
        }
    }

    /** See {@link MariaDbServer#createDatabase}. */
    String createDatabase(String prefix, String sqlResourceOrNull) {
        String name = uniqueName(prefix);
        execute(null, "CREATE DATABASE `" + name + "`");
        if (sqlResourceOrNull != null) {
            execute(name, SqlScript.statements(sqlResourceOrNull).toArray(String[]::new));
        }
        return name;
    }

    /** Lets {@code user} create, insert and update tables of {@code database}. */
    void grantWrites(String user, String database) {
        execute(
                null,
                ACCOUNT_HOSTS.stream()
                        .map(
                                host ->
                                        "GRANT CREATE, INSERT, UPDATE ON `"
                                                + database
                                                + "`.* TO '"
                                                + user
                                                + "'@'"
                                                + host
                                                + "'")
                        .toArray(String[]::new));
    }

    /** Creates {@code user} with {@code password} and {@code grants} on {@code *.*}. */
    void createUser(String user, String password, String grants) {
        execute(null, createUserStatements(user, password, grants).toArray(String[]::new));
    }

    /** The statements of {@link #createUser}, for every host of {@link #ACCOUNT_HOSTS}. */
    static List<String> createUserStatements(String user, String password, String grants) {
        List<String> statements = new ArrayList<>();
        for (String host : ACCOUNT_HOSTS) {
            String account = "'" + user + "'@'" + host + "'";
            statements.add("CREATE USER " + account + " IDENTIFIED BY '" + password + "'");
            statements.add("GRANT " + grants + " ON *.* TO " + account);
        }
        return statements;
    }

    /** SHOW MASTER STATUS: the binlog file and the position the next event starts at. */
    String[] binlogEnd() throws SQLException {
        try (Connection connection = connect(null, rootUser, rootPassword);
                Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
            if (!status.next()) {
                throw new IllegalStateException("SHOW MASTER STATUS returned no row: no binlog?");
            }
            return new String[] {status.getString(1), Long.toString(status.getLong(2))};
        }
    }

    /**
     * {@code prefix} plus a random suffix, lower case so that it is valid unquoted, and short
     * enough for a database name.
     */
    static String uniqueName(String prefix) {
        String clean = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (clean.isEmpty() || !Character.isLetter(clean.charAt(0))) {
            clean = "db_" + clean;
        }
        if (clean.length() > 50) {
            clean = clean.substring(0, 50); // MySQL and MariaDB names are at most 64 characters
        }
        return clean + "_" + UUID.randomUUID().toString().substring(0, 8);
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A JDBC connection to the source database as the source user, for Sluice's own queries. With a
 * list of hosts ({@link SourceHosts}) each connection goes to the first host that answers and is
 * writable, or with allow-replica to the first that answers when none is: the same rule the binlog
 * reader follows on each (re)connect, so schema reads and checks reach the server it reads.
 */
@Internal
public final class SourceJdbc implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SourceJdbc.class);

    private final SourceHosts hosts;
    private final String user;
    private final String password;
    private final SourceTls tls;

    private SourceJdbc(SourceHosts hosts, String user, String password, SourceTls tls) {
        this.hosts = hosts;
        this.user = user;
        this.password = password;
        this.tls = tls;
    }

    /** The source user at {@code host:port}, without TLS. */
    public static SourceJdbc of(String host, int port, String user, String password) {
        return of(host, port, user, password, SourceTls.DISABLED);
    }

    /** The source user at {@code host:port}, connecting with {@code tls}. */
    public static SourceJdbc of(
            String host, int port, String user, String password, SourceTls tls) {
        return of(SourceHosts.single(host, port), user, password, tls);
    }

    /** The source user at {@code hosts}, connecting with {@code tls}. */
    public static SourceJdbc of(SourceHosts hosts, String user, String password, SourceTls tls) {
        return new SourceJdbc(hosts, user, password == null ? "" : password, tls);
    }

    public static SourceJdbc from(OptionSection config) {
        return new SourceJdbc(
                SourceHosts.from(config),
                config.get(MySqlSourceOptions.USERNAME),
                config.getOptional(MySqlSourceOptions.PASSWORD).orElse(""),
                SourceTls.from(config));
    }

    /**
     * A connection to the host; with a list, to the host {@link #chosen()} names.
     *
     * @throws NoSourceHostException with a list, if no host may be read now
     */
    public Connection connect() throws SQLException {
        if (!hosts.isList()) {
            return connect(hosts.first());
        }
        return choose().connection;
    }

    /**
     * The host a connection goes to now, alone: itself for one host; with a list, the first host
     * that answers and is writable ({@code @@read_only} and on MySQL {@code @@super_read_only}
     * off), or the first that answers when none is and allow-replica is on.
     *
     * @throws NoSourceHostException if no host may be read now; it names each host and what it said
     */
    public SourceJdbc chosen() throws SQLException {
        if (!hosts.isList()) {
            return this;
        }
        Choice choice = choose();
        choice.connection.close();
        return choice.jdbc;
    }

    /** The hosts this connects to. */
    public SourceHosts hosts() {
        return hosts;
    }

    /** What a connection to a host of the list is: writable, or read-only and why. */
    private static final class Choice {
        final SourceJdbc jdbc;
        final Connection connection;

        Choice(SourceJdbc jdbc, Connection connection) {
            this.jdbc = jdbc;
            this.connection = connection;
        }
    }

    private Choice choose() throws SQLException {
        List<String> said = new ArrayList<>();
        Choice replica = null;
        try {
            for (SourceHosts.Host host : hosts.hosts()) {
                Connection connection;
                try {
                    connection = connect(host);
                } catch (SQLException e) {
                    said.add(host.address() + ": " + firstLine(e));
                    continue;
                }
                String readOnly;
                try {
                    readOnly = readOnly(connection);
                } catch (SQLException e) {
                    said.add(host.address() + ": " + firstLine(e));
                    connection.close();
                    continue;
                }
                SourceJdbc alone = alone(host);
                if (readOnly.isEmpty()) {
                    return new Choice(alone, connection);
                }
                said.add(host.address() + ": read-only (" + readOnly + ")");
                if (replica == null && hosts.allowReplica()) {
                    replica = new Choice(alone, connection);
                } else {
                    connection.close();
                }
            }
            if (replica != null) {
                LOG.info(
                        "No host of '{}' is writable ({}); reading the replica at {} ('{}' is"
                                + " true)",
                        hosts.hostnameKey(),
                        String.join("; ", said),
                        replica.jdbc.address(),
                        hosts.allowReplicaKey());
                Choice chosen = replica;
                replica = null;
                return chosen;
            }
        } finally {
            if (replica != null) {
                replica.connection.close();
            }
        }
        boolean anyAnswered = said.stream().anyMatch(line -> line.contains(": read-only ("));
        if (anyAnswered) {
            throw new NoSourceHostException(
                    String.format(
                            "No host of option '%s' (%s) is writable: %s. Option '%s' is false,"
                                    + " so a read-only host (a replica) is not read: its binlog"
                                    + " has only what it applied. Promote one (read_only=OFF),"
                                    + " or set '%s: true' to read a replica that logs what it"
                                    + " applies (log_slave_updates / log_replica_updates) with"
                                    + " GTIDs on.",
                            hosts.hostnameKey(),
                            hosts.describe(),
                            String.join("; ", said),
                            hosts.allowReplicaKey(),
                            hosts.allowReplicaKey()));
        }
        throw new NoSourceHostException(
                String.format(
                        "No host of option '%s' (%s) answers: %s",
                        hosts.hostnameKey(), hosts.describe(), String.join("; ", said)));
    }

    /** {@code host} of the list alone, as the same user with the same TLS. */
    SourceJdbc alone(SourceHosts.Host host) {
        return of(host.name(), host.port(), user, password, tls);
    }

    /** "" if the server is writable, else which setting makes it read-only. */
    static String readOnly(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            boolean mariaDb;
            List<String> on = new ArrayList<>();
            try (ResultSet result =
                    statement.executeQuery("SELECT VERSION(), @@global.read_only")) {
                result.next();
                mariaDb = result.getString(1).toLowerCase(Locale.ROOT).contains("mariadb");
                if (result.getLong(2) != 0) {
                    on.add("read_only=ON");
                }
            }
            if (!mariaDb) {
                try (ResultSet result = statement.executeQuery("SELECT @@global.super_read_only")) {
                    result.next();
                    if (result.getLong(1) != 0) {
                        on.add("super_read_only=ON");
                    }
                }
            }
            return String.join(", ", on);
        }
    }

    private static String firstLine(SQLException e) {
        String message = String.valueOf(e.getMessage());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    /**
     * Connects through MySQL's driver itself, not {@code DriverManager}: in a Flink cluster the
     * driver comes with the job jar, in a class loader that {@code DriverManager} does not search
     * ("No suitable driver" until something else registered it).
     */
    private Connection connect(SourceHosts.Host host) throws SQLException {
        Properties properties = tls.jdbcProperties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        Connection connection =
                MySqlDrivers.driver()
                        .connect(
                                "jdbc:mysql://"
                                        + host.address()
                                        + "/?allowPublicKeyRetrieval=true&connectTimeout=10000",
                                properties);
        if (connection == null) {
            throw new SQLException("MySQL's driver refused the address " + host.address());
        }
        return connection;
    }

    /** host:port, for messages; with a list, every host:port. */
    public String address() {
        return hosts.describe();
    }

    /** The host (the list's first). */
    public String host() {
        return hosts.first().name();
    }

    /** The port (the list's first host's). */
    public int port() {
        return hosts.first().port();
    }

    public String user() {
        return user;
    }

    /** The password, for the binlog client that connects to the same host. */
    public String password() {
        return password;
    }

    /** How the source connects: for messages and for the binlog client. */
    public SourceTls tls() {
        return tls;
    }
}

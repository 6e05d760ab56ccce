package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/** A JDBC connection to the source database as the source user, for Sluice's own queries. */
@Internal
public final class SourceJdbc implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final SourceTls tls;

    private SourceJdbc(String host, int port, String user, String password, SourceTls tls) {
        this.host = host;
        this.port = port;
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
        return new SourceJdbc(host, port, user, password == null ? "" : password, tls);
    }

    public static SourceJdbc from(OptionSection config) {
        return new SourceJdbc(
                config.get(MySqlSourceOptions.HOSTNAME),
                config.get(MySqlSourceOptions.PORT),
                config.get(MySqlSourceOptions.USERNAME),
                config.getOptional(MySqlSourceOptions.PASSWORD).orElse(""),
                SourceTls.from(config));
    }

    /**
     * Connects through MySQL's driver itself, not {@code DriverManager}: in a Flink cluster the
     * driver comes with the job jar, in a class loader that {@code DriverManager} does not search
     * ("No suitable driver" until something else registered it).
     */
    public Connection connect() throws SQLException {
        Properties properties = tls.jdbcProperties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        Connection connection =
                MySqlDrivers.driver()
                        .connect(
                                "jdbc:mysql://"
                                        + address()
                                        + "/?allowPublicKeyRetrieval=true&connectTimeout=10000",
                                properties);
        if (connection == null) {
            throw new SQLException("MySQL's driver refused the address " + address());
        }
        return connection;
    }

    /** host:port, for messages. */
    public String address() {
        return host + ":" + port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String user() {
        return user;
    }

    /** How the source connects: for messages and for the binlog client. */
    public SourceTls tls() {
        return tls;
    }
}

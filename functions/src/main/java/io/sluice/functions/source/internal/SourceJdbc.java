package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

import io.sluice.functions.source.MySqlSourceOptions;

import java.io.Serializable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** A JDBC connection to the source database as the source user, for Sluice's own queries. */
@Internal
public final class SourceJdbc implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String address;
    private final String user;
    private final String password;

    private SourceJdbc(String address, String user, String password) {
        this.address = address;
        this.user = user;
        this.password = password;
    }

    public static SourceJdbc from(ReadableConfig config) {
        return new SourceJdbc(
                config.get(MySqlSourceOptions.HOSTNAME) + ":" + config.get(MySqlSourceOptions.PORT),
                config.get(MySqlSourceOptions.USERNAME),
                config.getOptional(MySqlSourceOptions.PASSWORD).orElse(""));
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:mysql://"
                        + address
                        + "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=10000",
                user,
                password);
    }

    /** host:port, for messages. */
    public String address() {
        return address;
    }

    public String user() {
        return user;
    }
}

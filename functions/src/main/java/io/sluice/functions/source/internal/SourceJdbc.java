package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import com.mysql.cj.jdbc.Driver;
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

    private final String address;
    private final String user;
    private final String password;

    private SourceJdbc(String address, String user, String password) {
        this.address = address;
        this.user = user;
        this.password = password;
    }

    /** The source user at {@code host:port}. */
    public static SourceJdbc of(String host, int port, String user, String password) {
        return new SourceJdbc(host + ":" + port, user, password == null ? "" : password);
    }

    public static SourceJdbc from(OptionSection config) {
        return new SourceJdbc(
                config.get(MySqlSourceOptions.HOSTNAME) + ":" + config.get(MySqlSourceOptions.PORT),
                config.get(MySqlSourceOptions.USERNAME),
                config.getOptional(MySqlSourceOptions.PASSWORD).orElse(""));
    }

    /**
     * Connects through MySQL's driver itself, not {@code DriverManager}: in a Flink cluster the
     * driver comes with the job jar, in a class loader that {@code DriverManager} does not search
     * ("No suitable driver" until something else registered it).
     */
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        Connection connection =
                new Driver()
                        .connect(
                                "jdbc:mysql://"
                                        + address
                                        + "/?useSSL=false&allowPublicKeyRetrieval=true"
                                        + "&connectTimeout=10000",
                                properties);
        if (connection == null) {
            throw new SQLException("MySQL's driver refused the address " + address);
        }
        return connection;
    }

    /** host:port, for messages. */
    public String address() {
        return address;
    }

    public String user() {
        return user;
    }
}

package io.sluice.it.source;

import org.apache.flink.cdc.connectors.mysql.debezium.DebeziumUtils;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.configuration.Configuration;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import io.debezium.connector.mysql.MySqlConnection;
import io.debezium.jdbc.JdbcConnection;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL 8's default {@code caching_sha2_password} without TLS: a user whose password the server has
 * not cached (a new user, or after a restart, {@code FLUSH PRIVILEGES} or {@code ALTER USER}) must
 * send it RSA-encrypted, with the server's public key fetched on the connection. Every connection
 * Sluice's source opens, Flink CDC's and its own, logs in that way; the JDBC ones because Sluice
 * sets {@code allowPublicKeyRetrieval=true}, the binlog clients by themselves.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlAuthenticationITCase {

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();

    private static final String PASSWORD = "sha2-pw";

    @Test
    void aUserTheServerHasNotCachedLogsInOnEveryConnectionWithoutTls() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("sha2", "ddl/counters.sql");
        String user = "sha2_" + database.substring(database.length() - 6);
        server.createUser(user, PASSWORD, MySqlServer.CDC_GRANTS);
        assertThat(
                        rootQuery(
                                server,
                                "SELECT DISTINCT plugin FROM mysql.user WHERE user = '"
                                        + user
                                        + "'"))
                .as("the user's authentication plugin")
                .isEqualTo("caching_sha2_password");
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.HOSTNAME, server.host());
        options.set(MySqlSourceOptions.PORT, server.port());
        options.set(MySqlSourceOptions.USERNAME, user);
        options.set(MySqlSourceOptions.PASSWORD, PASSWORD);
        options.set(MySqlSourceOptions.TABLES, List.of(database + ".counters"));
        OptionSection section = OptionSection.unprefixed(options);
        MySqlSourceConfig config =
                MySqlSourceFactory.source(
                                section, new ChangeEventDeserializationSchema(ZoneId.of("UTC")))
                        .config(0);

        Map<String, Callable<String>> connections = new LinkedHashMap<>();
        connections.put(
                "Debezium's MySqlConnection (Flink CDC's enumerator and split readers)",
                () -> {
                    try (MySqlConnection connection = DebeziumUtils.createMySqlConnection(config)) {
                        return connection.queryAndMap(
                                "SELECT CURRENT_USER()", MySqlAuthenticationITCase::first);
                    }
                });
        connections.put(
                "Flink CDC's pooled JDBC connection (snapshot chunks)",
                () -> {
                    try (JdbcConnection connection = DebeziumUtils.openJdbcConnection(config)) {
                        return connection.queryAndMap(
                                "SELECT CURRENT_USER()", MySqlAuthenticationITCase::first);
                    }
                });
        connections.put(
                "Flink CDC's binlog client",
                () -> {
                    BinaryLogClient client =
                            DebeziumUtils.createBinaryClient(config.getDbzConfiguration());
                    client.connect(Duration.ofSeconds(30).toMillis());
                    String file = client.getBinlogFilename();
                    client.disconnect();
                    return file;
                });
        connections.put(
                "Sluice's own JDBC connection (start checks, table schemas)",
                () -> {
                    try (Connection connection = SourceJdbc.from(section).connect();
                            Statement statement = connection.createStatement();
                            ResultSet result = statement.executeQuery("SELECT CURRENT_USER()")) {
                        return first(result);
                    }
                });
        connections.put(
                "Sluice's binlog reader",
                () -> {
                    BinlogPosition start = ReaderRun.current(server);
                    server.execute(
                            database,
                            "INSERT INTO counters VALUES (1, 1, 'sha2')",
                            "CREATE TABLE marker (id INT PRIMARY KEY)",
                            "INSERT INTO marker VALUES (1)");
                    List<String> read = new ArrayList<>();
                    AtomicReference<BinlogReader> self = new AtomicReference<>();
                    BinlogReader reader =
                            BinlogReader.builder(server.host(), server.port(), user, PASSWORD)
                                    .serverId(5611)
                                    .reconnectAttempts(0, Duration.ofMillis(100))
                                    .build(
                                            ReaderRun.currentColumns(server, database),
                                            new BinlogReader.Output() {
                                                @Override
                                                public void change(
                                                        ChangeEvent change, BinlogPosition after) {
                                                    read.add(change.table());
                                                    if (change.table().equals("marker")) {
                                                        self.get().close();
                                                    }
                                                }

                                                @Override
                                                public void ddl(
                                                        String statement,
                                                        String db,
                                                        BinlogPosition after) {}

                                                @Override
                                                public void heartbeat(BinlogPosition at) {}
                                            });
                    self.set(reader);
                    ReaderRun.untilMarker(
                            reader, start, Duration.ofMinutes(1), () -> String.valueOf(read));
                    return String.valueOf(read);
                });

        Map<String, String> outcomes = UncachedLogins.each(server, user, PASSWORD, connections);
        assertThat(outcomes)
                .as("each connection's login with the password not cached, without TLS")
                .allSatisfy((what, outcome) -> assertThat(outcome).as(what).startsWith("ok: "));
    }

    private static String rootQuery(MySqlServer server, String sql) throws Exception {
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            return first(result);
        }
    }

    private static String first(ResultSet result) throws java.sql.SQLException {
        result.next();
        return result.getString(1);
    }
}

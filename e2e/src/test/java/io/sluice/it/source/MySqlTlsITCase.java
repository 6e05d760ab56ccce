package io.sluice.it.source;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.cdc.connectors.mysql.debezium.DebeziumUtils;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.debezium.connector.mysql.MySqlConnection;
import io.debezium.jdbc.JdbcConnection;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.SourceSslMode;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.TableDecoders;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.SourceTls;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The source on a MySQL that accepts only TLS ({@code require_secure_transport=ON}): with {@code
 * source.ssl-mode} required or verify-ca every connection it opens logs in over TLS, a {@code
 * caching_sha2_password} user whose password the server has not cached too, and both readers read
 * the snapshot and the binlog; a trust store without the server's CA and the default disabled are
 * refused before anything reads, each with what to change.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlTlsITCase {

    @RegisterExtension
    static final MySqlExtension MYSQL =
            MySqlExtension.own(
                    "require_secure_transport=ON: clients without TLS are refused",
                    "--require-secure-transport=ON");

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(1);

    private static final String PASSWORD = "tls-pw";
    private static final String TRUSTSTORE_PASSWORD = "store-pw";
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final ChangeEventQueue EVENTS = new ChangeEventQueue();

    @TempDir static Path dir;

    /** A PKCS12 trust store with the CA that signed the server's certificate. */
    private static Path serverCa;

    /** A PKCS12 trust store with one CA of the JVM's, which did not sign the server's. */
    private static Path otherCa;

    @BeforeAll
    static void trustStores() throws Exception {
        Certificate ca;
        try (InputStream pem = Files.newInputStream(MYSQL.server().caCertificate())) {
            ca = CertificateFactory.getInstance("X.509").generateCertificate(pem);
        }
        serverCa = trustStore("server-ca.p12", ca);
        KeyStore jvm =
                KeyStore.getInstance(
                        new File(System.getProperty("java.home"), "lib/security/cacerts"),
                        "changeit".toCharArray());
        String alias = Collections.list(jvm.aliases()).get(0);
        otherCa = trustStore("other-ca.p12", jvm.getCertificate(alias));
    }

    private static Path trustStore(String name, Certificate ca) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("ca", ca);
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, TRUSTSTORE_PASSWORD.toCharArray());
        }
        return file;
    }

    @Test
    void aUserTheServerHasNotCachedLogsInOverTlsOnEveryConnection() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("tlsauth", "ddl/counters.sql");
        String user = freshUser(server, database);
        OptionSection section = source(server, user, database, "required", "sluice");
        MySqlSourceConfig config =
                MySqlSourceFactory.source(
                                section, new ChangeEventDeserializationSchema(ZoneId.of("UTC")))
                        .config(0);
        // What Flink CDC's binlog client is set up from (its own is made inside its reader).
        assertThat(config.getDbzProperties()).containsEntry("database.ssl.mode", "required");

        Map<String, Callable<String>> connections = new LinkedHashMap<>();
        connections.put(
                "Debezium's MySqlConnection (Flink CDC's enumerator and split readers)",
                () -> {
                    try (MySqlConnection connection = DebeziumUtils.createMySqlConnection(config)) {
                        return connection.queryAndMap(CIPHER, MySqlTlsITCase::cipher);
                    }
                });
        connections.put(
                "Flink CDC's pooled JDBC connection (snapshot chunks)",
                () -> {
                    try (JdbcConnection connection = DebeziumUtils.openJdbcConnection(config)) {
                        return connection.queryAndMap(CIPHER, MySqlTlsITCase::cipher);
                    }
                });
        connections.put(
                "Sluice's own JDBC connection (start checks, table schemas)",
                () -> {
                    try (Connection connection = SourceJdbc.from(section).connect();
                            Statement statement = connection.createStatement();
                            ResultSet result = statement.executeQuery(CIPHER)) {
                        return cipher(result);
                    }
                });
        connections.put(
                "the start check (./sluice validate)",
                () -> String.valueOf(MySqlSourceFactory.serverCheck(section).problems(true)));
        connections.put(
                "Sluice's binlog reader, set up as in a job",
                () -> readUntilMarker(server, database, user, tlsOf(config), 5621));

        Map<String, String> outcomes = UncachedLogins.each(server, user, PASSWORD, connections);
        assertThat(outcomes)
                .as("each connection's login over TLS with the password not cached")
                .allSatisfy((what, outcome) -> assertThat(outcome).as(what).startsWith("ok: "))
                .containsEntry("the start check (./sluice validate)", "ok: []");
        assertThat(outcomes.get("Sluice's binlog reader, set up as in a job"))
                .isEqualTo("ok: [counters, marker]");
    }

    @ParameterizedTest(name = "{0} reader, ssl-mode {1}")
    @CsvSource({
        "sluice, required",
        "sluice, verify-ca",
        "flink-cdc, required",
        "flink-cdc, verify-ca"
    })
    void aJobReadsTheSnapshotAndTheBinlogOverTls(String reader, String mode) throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("tlsjob", "ddl/counters.sql");
        server.execute(database, "INSERT INTO counters VALUES (1, 1, 'snapshot'), (2, 1, 's')");
        String user = freshUser(server, database);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(jobConfig);
        env.setParallelism(1);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(
                                source(server, user, database, mode, reader)),
                        WatermarkStrategy.noWatermarks(),
                        "mysql-tls")
                .sinkTo(EVENTS.sink())
                .name("queue");
        EVENTS.clear();
        JobClient job = env.executeAsync("tls-" + reader + "-" + mode);
        try {
            List<String> snapshot = new ArrayList<>();
            EVENTS.take(job, 2, ChangeEvent::isRow, WAIT).forEach(e -> snapshot.add(row(e)));
            assertThat(snapshot)
                    .as("the snapshot")
                    .containsExactlyInAnyOrder("INSERT 1", "INSERT 2");
            server.execute(database, "UPDATE counters SET version = 2 WHERE id = 1");
            assertThat(row(EVENTS.take(job, 1, ChangeEvent::isRow, WAIT).get(0)))
                    .as("the binlog after the snapshot")
                    .isEqualTo("UPDATE 1");
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTrustStoreWithoutTheServersCaIsRefusedWithWhatToCheck() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("tlswrong", "ddl/counters.sql");
        OptionSection section =
                source(server, server.cdcUser(), database, "verify-ca", "sluice", otherCa);
        assertThat(MySqlSourceFactory.serverCheck(section).problems(true))
                .singleElement()
                .asString()
                .startsWith(
                        "The TLS handshake with the database at "
                                + server.host()
                                + ":"
                                + server.port()
                                + " failed with option 'source.ssl-mode' verify-ca: ")
                .contains("Check that 'source.ssl.truststore' holds the CA certificate");

        // Sluice's binlog reader checks the server over the same TLS first.
        MySqlSourceConfig config =
                MySqlSourceFactory.source(
                                section, new ChangeEventDeserializationSchema(ZoneId.of("UTC")))
                        .config(0);
        assertThatThrownBy(
                        () ->
                                readUntilMarker(
                                        server, database, server.cdcUser(), tlsOf(config), 5622))
                .isInstanceOf(AssertionError.class)
                .hasRootCauseInstanceOf(SourceSetupException.class)
                .rootCause()
                .hasMessageContaining("The TLS handshake with the database");
    }

    /** MySQL's generated server certificate names no host: verify-identity must refuse it. */
    @Test
    void verifyIdentityRefusesACertificateThatDoesNotNameTheHost() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("tlsname", "ddl/counters.sql");
        OptionSection section =
                source(server, server.cdcUser(), database, "verify-identity", "sluice", serverCa);
        assertThat(MySqlSourceFactory.serverCheck(section).problems(true))
                .singleElement()
                .asString()
                .contains("failed with option 'source.ssl-mode' verify-identity: ")
                .contains("that the certificate names 'source.hostname'");
    }

    @Test
    void withoutTlsTheStartCheckNamesTheOption() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("tlsoff", "ddl/counters.sql");
        OptionSection section = source(server, server.cdcUser(), database, "disabled", "sluice");
        assertThat(MySqlSourceFactory.serverCheck(section).problems(true))
                .containsExactly(
                        "The database at "
                                + server.host()
                                + ":"
                                + server.port()
                                + " accepts only TLS connections (require_secure_transport=ON),"
                                + " but option 'source.ssl-mode' is disabled: set it to"
                                + " required, verify-ca or verify-identity.");
    }

    private static final String CIPHER = "SHOW SESSION STATUS LIKE 'Ssl_cipher'";

    /** The session's TLS cipher; a connection without TLS has none. */
    private static String cipher(ResultSet result) throws SQLException {
        result.next();
        String cipher = result.getString(2);
        if (cipher == null || cipher.isEmpty()) {
            throw new IllegalStateException("the session has no TLS cipher");
        }
        return "TLS";
    }

    private static OptionSection source(
            MySqlServer server, String user, String database, String mode, String reader) {
        return source(
                server,
                user,
                database,
                mode,
                reader,
                SourceSslMode.VERIFY_CA.toString().equals(mode) ? serverCa : null);
    }

    /** The options as the YAML door gives them: under 'source.', errors naming full keys. */
    private static OptionSection source(
            MySqlServer server,
            String user,
            String database,
            String mode,
            String reader,
            Path truststore) {
        Configuration job = new Configuration();
        job.setString("source.hostname", server.host());
        job.setString("source.port", String.valueOf(server.port()));
        job.setString("source.username", user);
        job.setString(
                "source.password", user.equals(server.cdcUser()) ? server.cdcPassword() : PASSWORD);
        job.setString("source.tables", database + ".counters");
        job.setString("source.server-id", "5630-5631");
        job.setString("source.reader", reader);
        job.setString("source.ssl-mode", mode);
        if (truststore != null) {
            job.setString("source.ssl.truststore", truststore.toString());
            job.setString("source.ssl.truststore-password", TRUSTSTORE_PASSWORD);
        }
        return OptionSection.of(job, "source.");
    }

    /** TLS as Sluice's binlog reader gets it in a job: from Flink CDC's config. */
    private static SourceTls tlsOf(MySqlSourceConfig config) {
        return SourceTls.fromDebezium(config.getDbzProperties());
    }

    /** A new caching_sha2_password user with the CDC grants, its password not cached. */
    private static String freshUser(MySqlServer server, String database) {
        String user = "tls_" + database.substring(database.length() - 6);
        server.createUser(user, PASSWORD, MySqlServer.CDC_GRANTS);
        return user;
    }

    /**
     * Sluice's binlog reader as {@code user} with {@code tls}, from the binlog's end until a marker
     * row; the tables it read rows of.
     */
    private static String readUntilMarker(
            MySqlServer server, String database, String user, SourceTls tls, long serverId)
            throws Exception {
        BinlogPosition start = ReaderRun.current(server);
        server.execute(
                database,
                "INSERT INTO counters VALUES (100, 1, 'tls')",
                "CREATE TABLE IF NOT EXISTS marker (id INT PRIMARY KEY)",
                "INSERT INTO marker VALUES (" + serverId + ")");
        String password = user.equals(server.cdcUser()) ? server.cdcPassword() : PASSWORD;
        List<String> read = new ArrayList<>();
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(server.host(), server.port(), user, password)
                        .serverId(serverId)
                        .tls(tls)
                        .reconnectAttempts(0, Duration.ofMillis(100))
                        .build(
                                TableDecoders.fromInformationSchema(
                                        SourceJdbc.of(
                                                server.host(),
                                                server.port(),
                                                server.cdcUser(),
                                                server.cdcPassword(),
                                                tls),
                                        (db, table) -> db.equals(database),
                                        ZoneId.of("UTC")),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        read.add(change.table());
                                        if (change.table().equals("marker")) {
                                            self.get().close();
                                        }
                                    }
                                });
        self.set(reader);
        ReaderRun.untilMarker(reader, start, Duration.ofMinutes(1), () -> String.valueOf(read));
        return String.valueOf(read);
    }

    private static String row(ChangeEvent event) {
        return event.type() + " " + event.after().text(0);
    }
}

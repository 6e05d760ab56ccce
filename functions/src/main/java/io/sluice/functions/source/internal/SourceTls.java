package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceSslMode;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import java.io.File;
import java.io.IOException;
import java.io.Serializable;
import java.net.Socket;
import java.net.SocketException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import java.util.Properties;

import static org.apache.flink.util.Preconditions.checkArgument;

/**
 * The source's TLS settings ({@link MySqlSourceOptions#SSL_MODE} and its trust store), in the terms
 * of each client that connects: MySQL Connector/J (Sluice's and Flink CDC's JDBC connections),
 * Debezium (its connection and Flink CDC's binlog client) and the binlog client of Sluice's reader.
 * One value for all of them, so that no connection of the source connects differently.
 */
@Internal
public final class SourceTls implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Debezium's keys, which Flink CDC's source config carries to the readers. */
    static final String DEBEZIUM_MODE = "database.ssl.mode";

    static final String DEBEZIUM_TRUSTSTORE = "database.ssl.truststore";
    static final String DEBEZIUM_TRUSTSTORE_PASSWORD = "database.ssl.truststore.password";

    /** No TLS: {@link MySqlSourceOptions#SSL_MODE}'s default. */
    public static final SourceTls DISABLED = new SourceTls(SourceSslMode.DISABLED, "", "");

    private final SourceSslMode mode;
    private final String truststore;
    private final String truststorePassword;

    private SourceTls(SourceSslMode mode, String truststore, String truststorePassword) {
        this.mode = mode;
        this.truststore = truststore;
        this.truststorePassword = truststorePassword;
    }

    /**
     * The settings of {@code config}: a verifying mode needs a trust store, and a trust store needs
     * a verifying mode (without one it would check nothing, silently).
     */
    public static SourceTls from(OptionSection config) {
        SourceSslMode mode = config.get(MySqlSourceOptions.SSL_MODE);
        String truststore = config.get(MySqlSourceOptions.SSL_TRUSTSTORE).trim();
        checkArgument(
                !mode.verifies() || !truststore.isEmpty(),
                "Option '%s' is required with '%s' %s (the server's certificate is checked against"
                        + " the CA certificates in it), but is empty",
                config.key(MySqlSourceOptions.SSL_TRUSTSTORE),
                config.key(MySqlSourceOptions.SSL_MODE),
                mode);
        checkArgument(
                mode.verifies() || truststore.isEmpty(),
                "Option '%s' is used only with '%s' verify-ca or verify-identity, but that is %s"
                        + " (which checks no certificate), and the trust store is '%s'",
                config.key(MySqlSourceOptions.SSL_TRUSTSTORE),
                config.key(MySqlSourceOptions.SSL_MODE),
                mode,
                truststore);
        return new SourceTls(
                mode, truststore, config.get(MySqlSourceOptions.SSL_TRUSTSTORE_PASSWORD));
    }

    /** The settings {@link #debeziumProperties} wrote, read back where only those travel. */
    public static SourceTls fromDebezium(Properties debezium) {
        String mode = debezium.getProperty(DEBEZIUM_MODE, "disabled");
        return new SourceTls(
                SourceSslMode.valueOf(mode.toUpperCase(Locale.ROOT)),
                debezium.getProperty(DEBEZIUM_TRUSTSTORE, ""),
                debezium.getProperty(DEBEZIUM_TRUSTSTORE_PASSWORD, ""));
    }

    public SourceSslMode mode() {
        return mode;
    }

    /**
     * Debezium's settings: they drive its JDBC connection ({@code useSSL}) and Flink CDC's binlog
     * client (its SSL mode, and with a verifying mode a socket factory from the trust store).
     */
    public void debeziumProperties(Properties debezium) {
        debezium.setProperty(DEBEZIUM_MODE, mode.name().toLowerCase(Locale.ROOT));
        if (!truststore.isEmpty()) {
            debezium.setProperty(DEBEZIUM_TRUSTSTORE, truststore);
            debezium.setProperty(DEBEZIUM_TRUSTSTORE_PASSWORD, truststorePassword);
        }
    }

    /**
     * Connector/J's settings, as driver properties. An explicit {@code sslMode} wins over the
     * {@code useSSL} Debezium sets; the trust store type is left to Java, whose JKS loader reads
     * PKCS12 too.
     */
    public Properties jdbcProperties() {
        Properties jdbc = new Properties();
        jdbc.setProperty("sslMode", mode.name());
        if (mode.verifies()) {
            jdbc.setProperty(
                    "trustCertificateKeyStoreUrl", new File(truststore).toURI().toString());
            jdbc.setProperty("trustCertificateKeyStorePassword", truststorePassword);
            // Only the given trust store counts, not also the JVM's.
            jdbc.setProperty("fallbackToSystemTrustStore", "false");
        }
        return jdbc;
    }

    /**
     * {@link #jdbcProperties()} for a JDBC URL's query, as Flink CDC puts its JDBC properties: the
     * driver URL-decodes each value, so a password may hold '&' or '='.
     */
    public Properties jdbcUrlProperties() {
        Properties encoded = new Properties();
        jdbcProperties()
                .forEach(
                        (key, value) ->
                                encoded.setProperty(
                                        (String) key,
                                        URLEncoder.encode((String) value, StandardCharsets.UTF_8)));
        return encoded;
    }

    /**
     * Sets up {@code client} as Connector/J would connect: its SSL mode, and with a verifying mode
     * a socket factory that trusts the trust store's CAs only (the client's own would trust the
     * JVM's).
     */
    public void configure(BinaryLogClient client) {
        client.setSSLMode(SSLMode.valueOf(mode.name()));
        if (mode.verifies()) {
            String path = truststore;
            String password = truststorePassword;
            client.setSslSocketFactory(socket -> tlsSocket(socket, path, password));
        }
    }

    private static SSLSocket tlsSocket(Socket plain, String truststore, String password)
            throws SocketException {
        try {
            KeyStore trusted = KeyStore.getInstance(new File(truststore), password.toCharArray());
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return (SSLSocket)
                    context.getSocketFactory()
                            .createSocket(
                                    plain,
                                    plain.getInetAddress().getHostName(),
                                    plain.getPort(),
                                    true);
        } catch (IOException | GeneralSecurityException e) {
            SocketException failure =
                    new SocketException(
                            "Cannot use the trust store " + truststore + ": " + e.getMessage());
            failure.initCause(e);
            throw failure;
        }
    }
}

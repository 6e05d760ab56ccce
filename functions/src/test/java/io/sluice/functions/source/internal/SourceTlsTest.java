package io.sluice.functions.source.internal;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.SourceSslMode;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SourceTlsTest {

    /** {@code options} as the YAML door gives them: under 'source.', errors naming full keys. */
    private static OptionSection source(String... keyValues) {
        Configuration job = new Configuration();
        for (int i = 0; i < keyValues.length; i += 2) {
            job.setString("source." + keyValues[i], keyValues[i + 1]);
        }
        return OptionSection.of(job, "source.");
    }

    @Test
    void byDefaultNoConnectionUsesTls() {
        SourceTls tls = SourceTls.from(source());
        assertThat(tls.mode()).isEqualTo(SourceSslMode.DISABLED);
        assertThat(tls.jdbcProperties()).containsOnly(entry("sslMode", "DISABLED"));
        Properties debezium = new Properties();
        tls.debeziumProperties(debezium);
        assertThat(debezium).containsOnly(entry("database.ssl.mode", "disabled"));
    }

    @Test
    void eachModeIsTakenInKebabCaseAndGivenToEachClientInItsTerms() {
        for (SourceSslMode mode : SourceSslMode.values()) {
            String[] options =
                    mode.verifies()
                            ? new String[] {"ssl-mode", mode.toString(), "ssl.truststore", "/t.p12"}
                            : new String[] {"ssl-mode", mode.toString()};
            SourceTls tls = SourceTls.from(source(options));
            assertThat(tls.mode()).isEqualTo(mode);
            assertThat(tls.jdbcProperties()).containsEntry("sslMode", mode.name());
            Properties debezium = new Properties();
            tls.debeziumProperties(debezium);
            assertThat(debezium)
                    .containsEntry("database.ssl.mode", mode.name().toLowerCase())
                    .as("what the readers read back from Flink CDC's config");
            assertThat(SourceTls.fromDebezium(debezium).mode()).isEqualTo(mode);
        }
    }

    @Test
    void aVerifyingModeTrustsTheTrustStoreOnly() {
        SourceTls tls =
                SourceTls.from(
                        source(
                                "ssl-mode", "verify-ca",
                                "ssl.truststore", "/etc/sluice/ca.p12",
                                "ssl.truststore-password", "p&w=1 x"));
        assertThat(tls.jdbcProperties())
                .containsEntry("trustCertificateKeyStoreUrl", "file:/etc/sluice/ca.p12")
                .containsEntry("trustCertificateKeyStorePassword", "p&w=1 x")
                .containsEntry("fallbackToSystemTrustStore", "false");
        assertThat(tls.jdbcUrlProperties())
                .as("URL-encoded, as the driver decodes a URL's values")
                .containsEntry("trustCertificateKeyStorePassword", "p%26w%3D1+x");
        Properties debezium = new Properties();
        tls.debeziumProperties(debezium);
        assertThat(debezium)
                .containsEntry("database.ssl.truststore", "/etc/sluice/ca.p12")
                .containsEntry("database.ssl.truststore.password", "p&w=1 x");
        SourceTls back = SourceTls.fromDebezium(debezium);
        assertThat(back.jdbcProperties()).isEqualTo(tls.jdbcProperties());
    }

    @Test
    void aVerifyingModeWithoutATrustStoreIsRefusedByName() {
        assertThatThrownBy(() -> SourceTls.from(source("ssl-mode", "verify-identity")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'source.ssl.truststore' is required with 'source.ssl-mode'"
                                + " verify-identity (the server's certificate is checked against"
                                + " the CA certificates in it), but is empty");
    }

    @Test
    void aTrustStoreThatWouldCheckNothingIsRefused() {
        assertThatThrownBy(
                        () ->
                                SourceTls.from(
                                        source("ssl-mode", "required", "ssl.truststore", "/t.jks")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Option 'source.ssl.truststore' is used only with 'source.ssl-mode'"
                                + " verify-ca or verify-identity, but that is required (which"
                                + " checks no certificate), and the trust store is '/t.jks'");
    }

    @Test
    void anUnknownModeIsRefused() {
        assertThatThrownBy(() -> SourceTls.from(source("ssl-mode", "verify_full")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("verify_full");
    }

    private static java.util.Map.Entry<String, String> entry(String key, String value) {
        return java.util.Map.entry(key, value);
    }
}

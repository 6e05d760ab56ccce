package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Whether and how every connection of the source to the database uses TLS ({@link
 * MySqlSourceOptions#SSL_MODE}), as MySQL's own clients name the modes.
 */
@PublicEvolving
public enum SourceSslMode {
    /** Plain TCP; a server that requires TLS refuses the connection. */
    DISABLED("disabled"),
    /** TLS when the server offers it, plain TCP otherwise; the certificate is not checked. */
    PREFERRED("preferred"),
    /** TLS or no connection; the certificate is not checked. */
    REQUIRED("required"),
    /** TLS with a certificate signed by a CA of the trust store. */
    VERIFY_CA("verify-ca"),
    /** As {@link #VERIFY_CA}, and the certificate must name the host connected to. */
    VERIFY_IDENTITY("verify-identity");

    private final String value;

    SourceSslMode(String value) {
        this.value = value;
    }

    /** Whether the server's certificate is checked against the trust store. */
    public boolean verifies() {
        return this == VERIFY_CA || this == VERIFY_IDENTITY;
    }

    @Override
    public String toString() {
        return value;
    }
}

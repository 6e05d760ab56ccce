package io.sluice.it.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link KafkaServer} per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
 * }</pre>
 *
 * <p>{@code @Nested} classes share the outer class's server; it closes after the outer class. A
 * {@code new KafkaExtension(KafkaSecurity.saslPlain(...))} secures the server's client listener.
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {

    private final KafkaSecurity security;
    private volatile KafkaServer server;
    private volatile String ownerId;

    /** A plain server: PLAINTEXT, no authorizer. */
    public KafkaExtension() {
        this(KafkaSecurity.none());
    }

    public KafkaExtension(KafkaSecurity security) {
        this.security = security;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // A @Nested class inherits the extension: keep the outer class's server.
        }
        server = KafkaServer.start(security);
        ownerId = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        KafkaServer running = server;
        if (running == null || !context.getUniqueId().equals(ownerId)) {
            return;
        }
        server = null;
        ownerId = null;
        running.close();
    }

    /** The running server; only between this extension's beforeAll and afterAll. */
    public KafkaServer server() {
        KafkaServer running = server;
        if (running == null) {
            throw new IllegalStateException(
                    "No Kafka server is running: register KafkaExtension as a static"
                            + " @RegisterExtension field and use it from tests, not constructors");
        }
        return running;
    }
}

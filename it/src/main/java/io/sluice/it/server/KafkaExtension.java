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
 * <p>{@code @Nested} classes share the outer class's server; it closes after the outer class.
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {

    private volatile KafkaServer server;
    private volatile String ownerId;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // A @Nested class inherits the extension: keep the outer class's server.
        }
        server = KafkaServer.start();
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

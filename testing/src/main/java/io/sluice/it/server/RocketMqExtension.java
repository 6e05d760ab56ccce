package io.sluice.it.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RocketMqServer} per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();
 * }</pre>
 *
 * <p>{@code @Nested} classes share the outer class's server; it closes after the outer class.
 */
public final class RocketMqExtension implements BeforeAllCallback, AfterAllCallback {

    private final RocketMqServer.Settings settings;
    private volatile RocketMqServer server;
    private volatile String ownerId;

    public RocketMqExtension() {
        this(RocketMqServer.Settings.DEFAULTS);
    }

    public RocketMqExtension(RocketMqServer.Settings settings) {
        this.settings = settings;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // A @Nested class inherits the extension: keep the outer class's server.
        }
        server = RocketMqServer.start(settings);
        ownerId = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        RocketMqServer running = server;
        if (running == null || !context.getUniqueId().equals(ownerId)) {
            return;
        }
        server = null;
        ownerId = null;
        running.close();
    }

    /** The running server; only between this extension's beforeAll and afterAll. */
    public RocketMqServer server() {
        RocketMqServer running = server;
        if (running == null) {
            throw new IllegalStateException(
                    "No RocketMQ server is running: register RocketMqExtension as a static"
                            + " @RegisterExtension field and use it from tests, not constructors");
        }
        return running;
    }
}

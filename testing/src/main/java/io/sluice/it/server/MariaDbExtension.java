package io.sluice.it.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link MariaDbServer} per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
 * }</pre>
 *
 * <p>{@code @Nested} classes share the outer class's server; it closes after the outer class.
 */
public final class MariaDbExtension implements BeforeAllCallback, AfterAllCallback {

    private final String[] serverArgs;
    private volatile MariaDbServer server;
    private volatile String ownerId;

    /** A server as {@link MariaDbServer#start(String...)} starts it with {@code serverArgs}. */
    public MariaDbExtension(String... serverArgs) {
        this.serverArgs = serverArgs.clone();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // A @Nested class inherits the extension: keep the outer class's server.
        }
        server = MariaDbServer.start(serverArgs);
        ownerId = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        MariaDbServer running = server;
        if (running == null || !context.getUniqueId().equals(ownerId)) {
            return;
        }
        server = null;
        ownerId = null;
        running.close();
    }

    /** The running server; only between this extension's beforeAll and afterAll. */
    public MariaDbServer server() {
        MariaDbServer running = server;
        if (running == null) {
            throw new IllegalStateException(
                    "No MariaDB server is running: register MariaDbExtension as a static"
                            + " @RegisterExtension field and use it from tests, not constructors");
        }
        return running;
    }
}

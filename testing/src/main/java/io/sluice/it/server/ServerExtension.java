package io.sluice.it.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A test server for a test class: either the one server of its kind that the whole test JVM shares
 * (started on first use, closed when the JVM exits), or a private one that the class starts and
 * closes itself. Tests on a shared server isolate themselves by name: their own database, topics,
 * consumer groups and transactional ids. A class that changes the server for everyone ({@code SET
 * GLOBAL}, purged binlogs, a broker restart, refused sends, other settings) asks for a private
 * server and says why.
 *
 * <p>{@code @Nested} classes share the outer class's server.
 *
 * @param <S> the server
 */
public abstract class ServerExtension<S extends AutoCloseable>
        implements BeforeAllCallback, AfterAllCallback {

    private static final Logger LOG = LoggerFactory.getLogger(ServerExtension.class);

    /**
     * The shared servers by kind. Static rather than in JUnit's root store: failsafe with more than
     * one fork hands each fork its classes one at a time, each in a JUnit run of its own, and the
     * servers must outlive those runs. They close when the JVM exits.
     */
    private static final Map<String, AutoCloseable> SHARED = new ConcurrentHashMap<>();

    private final String kind;
    private final Supplier<S> start;
    private final String privateReason;
    private volatile S server;
    private volatile String ownerId;

    /**
     * @param kind the server's name in messages, and the shared server's key
     * @param start starts a server
     * @param privateReason why the class needs a server of its own; null for the shared one
     */
    protected ServerExtension(String kind, Supplier<S> start, String privateReason) {
        this.kind = Objects.requireNonNull(kind);
        this.start = Objects.requireNonNull(start);
        if (privateReason != null && privateReason.isBlank()) {
            throw new IllegalArgumentException(
                    "A private " + kind + " server needs a reason: say what the class changes");
        }
        this.privateReason = privateReason;
    }

    /** Whether this is the JVM's shared server rather than a private one. */
    public boolean isShared() {
        return privateReason == null;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // A @Nested class inherits the extension: keep the outer class's server.
        }
        if (isShared()) {
            server = shared();
        } else {
            LOG.info(
                    "{} starts a private {} server: {}",
                    context.getDisplayName(),
                    kind,
                    privateReason);
            server = start.get();
        }
        ownerId = context.getUniqueId();
    }

    @SuppressWarnings("unchecked")
    private S shared() {
        // Each server stops itself in a shutdown hook of its own when the JVM exits.
        return (S)
                SHARED.computeIfAbsent(
                        kind,
                        key -> {
                            LOG.info("Starting the {} server that this test JVM shares", kind);
                            return start.get();
                        });
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        S running = server;
        if (running == null || !context.getUniqueId().equals(ownerId)) {
            return;
        }
        server = null;
        ownerId = null;
        if (!isShared()) {
            running.close();
        }
    }

    /** The running server; only between this extension's beforeAll and afterAll. */
    public S server() {
        S running = server;
        if (running == null) {
            throw new IllegalStateException(
                    "No "
                            + kind
                            + " server is running: register the extension as a static"
                            + " @RegisterExtension field and use it from tests, not constructors");
        }
        return running;
    }
}

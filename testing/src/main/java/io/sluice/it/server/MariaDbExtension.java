package io.sluice.it.server;

/**
 * A {@link MariaDbServer} for a test class: the test JVM's shared one, or a private one.
 *
 * <pre>{@code
 * @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
 * @RegisterExtension static final MariaDbExtension MARIADB =
 *         MariaDbExtension.own("SET GLOBAL binlog_row_metadata", "--binlog-row-metadata=FULL");
 * }</pre>
 *
 * <p>Tests on the shared server each work in their own database ({@link
 * MariaDbServer#createDatabase}); {@code CREATE DATABASE} of a name that another test took fails.
 */
public final class MariaDbExtension extends ServerExtension<MariaDbServer> {

    private MariaDbExtension(String privateReason, String... serverArgs) {
        super("MariaDB", () -> MariaDbServer.start(serverArgs.clone()), privateReason);
    }

    /** The MariaDB server the whole test JVM shares. */
    public static MariaDbExtension shared() {
        return new MariaDbExtension(null);
    }

    /**
     * A server of the class's own, as {@link MariaDbServer#start(String...)} starts it with {@code
     * serverArgs}; {@code why} says what the class does that other tests must not see.
     */
    public static MariaDbExtension own(String why, String... serverArgs) {
        return new MariaDbExtension(why, serverArgs);
    }
}

package io.sluice.it.server;

/**
 * A {@link MySqlServer} for a test class: the test JVM's shared one, or a private one.
 *
 * <pre>{@code
 * @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();
 * @RegisterExtension static final MySqlExtension MYSQL =
 *         MySqlExtension.own("SET GLOBAL binlog_row_metadata", "--binlog-row-metadata=FULL");
 * }</pre>
 *
 * <p>Tests on the shared server each work in their own database ({@link
 * MySqlServer#createDatabase}); {@code CREATE DATABASE} of a name that another test took fails.
 */
public final class MySqlExtension extends ServerExtension<MySqlServer> {

    private MySqlExtension(String privateReason, String... serverArgs) {
        super("MySQL", () -> MySqlServer.start(serverArgs.clone()), privateReason);
    }

    /** The MySQL server the whole test JVM shares. */
    public static MySqlExtension shared() {
        return new MySqlExtension(null);
    }

    /**
     * A server of the class's own, as {@link MySqlServer#start(String...)} starts it with {@code
     * serverArgs}; {@code why} says what the class does that other tests must not see.
     */
    public static MySqlExtension own(String why, String... serverArgs) {
        return new MySqlExtension(why, serverArgs);
    }
}

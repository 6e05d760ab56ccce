package io.sluice.it.server;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Both source databases for a test class that proves one behaviour on MariaDB and on MySQL: a test
 * takes {@link DatabaseServer.Kind} as a parameter and asks for {@link #server}.
 *
 * <pre>{@code
 * @RegisterExtension static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();
 *
 * @ParameterizedTest(name = "{0}")
 * @EnumSource(DatabaseServer.Kind.class)
 * void readsIt(DatabaseServer.Kind kind) {
 *     DatabaseServer server = SERVERS.server(kind);
 * }
 * }</pre>
 */
public final class DatabaseServersExtension implements BeforeAllCallback, AfterAllCallback {

    private final MariaDbExtension mariaDb;
    private final MySqlExtension mySql;

    private DatabaseServersExtension(MariaDbExtension mariaDb, MySqlExtension mySql) {
        this.mariaDb = mariaDb;
        this.mySql = mySql;
    }

    /** The servers the whole test JVM shares. */
    public static DatabaseServersExtension shared() {
        return new DatabaseServersExtension(MariaDbExtension.shared(), MySqlExtension.shared());
    }

    /** Private servers of the class's own, started with the given arguments each. */
    public static DatabaseServersExtension own(
            String why, String[] mariaDbArgs, String[] mySqlArgs) {
        return new DatabaseServersExtension(
                MariaDbExtension.own(why, mariaDbArgs), MySqlExtension.own(why, mySqlArgs));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        mariaDb.beforeAll(context);
        mySql.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            mySql.afterAll(context);
        } finally {
            mariaDb.afterAll(context);
        }
    }

    /** The running server of {@code kind}; only between beforeAll and afterAll. */
    public DatabaseServer server(DatabaseServer.Kind kind) {
        return kind == DatabaseServer.Kind.MARIADB ? mariaDb.server() : mySql.server();
    }

    public MariaDbServer mariaDb() {
        return mariaDb.server();
    }

    public MySqlServer mySql() {
        return mySql.server();
    }
}

package io.debezium.relational;

/**
 * Access to the tables a Debezium schema knows, which it keeps protected. It lives in Debezium's
 * package, so it must be loaded with Debezium: the shaded job jar bundles both.
 */
public final class KnownTables {

    private KnownTables() {}

    /** Whether {@code schema} knew {@code table}, which it now forgets. */
    public static boolean forget(RelationalDatabaseSchema schema, TableId table) {
        return schema.tables().removeTable(table) != null;
    }
}

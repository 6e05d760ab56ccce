package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;

/**
 * Options of the Sluice catalog ({@code 'type' = 'sluice'}) besides the source's own: the
 * connection ({@code hostname}, {@code port}, {@code username}, {@code password}) and every other
 * option of the {@code sluice-mysql} table but {@code tables} ({@code MySqlSourceOptions}) are
 * given to each of its change tables.
 */
@PublicEvolving
public final class SluiceCatalogOptions {

    public static final String IDENTIFIER = "sluice";

    /** The name of the table that holds every change of a database. */
    public static final String CHANGES_TABLE = "changes";

    public static final ConfigOption<String> TABLE_PATTERN =
            ConfigOptions.key("table-pattern")
                    .stringType()
                    .defaultValue(".*")
                    .withDescription(
                            "Regular expression over table names (without the database): the"
                                    + " tables the catalog shows, and the tables each"
                                    + " '<database>."
                                    + CHANGES_TABLE
                                    + "' reads. Must match at least one table.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database")
                    .stringType()
                    .defaultValue(GenericInMemoryCatalog.DEFAULT_DB)
                    .withDescription(
                            "The database 'USE CATALOG' switches to. A database of the server, or"
                                    + " an in-memory one for the tables and views created in the"
                                    + " catalog.");

    private SluiceCatalogOptions() {}
}

package io.sluice.functions.filter;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.List;

/**
 * Options that cut down what each table's changes carry (columns, masked values) and which changes
 * are written at all (by kind, by a predicate on the row): YAML section {@code filter.}; the sink
 * tables' keys in SQL. See docs/filters.md.
 */
@PublicEvolving
public final class FilterOptions {

    public static final ConfigOption<String> COLUMNS_INCLUDE =
            ConfigOptions.key("columns.include")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Canal's canal.instance.filter.field syntax: items"
                                    + " 'tablePattern:col1/col2' separated by ',' or ';'. A"
                                    + " matched table's messages carry only the listed columns and"
                                    + " its primary key; first matching item wins.");

    public static final ConfigOption<String> COLUMNS_EXCLUDE =
            ConfigOptions.key("columns.exclude")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Canal's canal.instance.filter.black.field syntax: items"
                                    + " 'tablePattern:col1/col2' separated by ',' or ';'. A"
                                    + " matched table's messages leave the listed columns out;"
                                    + " primary-key columns cannot be excluded.");

    public static final ConfigOption<String> COLUMNS_MASK =
            ConfigOptions.key("columns.mask")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Items 'tablePattern:col=mask,col=mask' separated by ';', where mask"
                                    + " is 'hash' (hex SHA-256 of the salt and the value),"
                                    + " 'truncate(N)' (the first N characters) or 'replace(text)'."
                                    + " NULL stays NULL; primary-key columns cannot be masked.");

    public static final ConfigOption<String> MASK_SALT =
            ConfigOptions.key("mask-salt")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Salt prepended to each value hashed by a 'hash' mask; keep it secret"
                                    + " (e.g. '${env:SLUICE_MASK_SALT}') and stable, or hashes change.");

    public static final ConfigOption<Boolean> DROP_EMPTY_UPDATES =
            ConfigOptions.key("drop-empty-updates")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether an UPDATE is dropped when none of the columns its message"
                                    + " carries changed (all its changes were in excluded"
                                    + " columns).");

    public static final ConfigOption<List<ChangeKind>> TYPES =
            ConfigOptions.key("types")
                    .enumType(ChangeKind.class)
                    .asList()
                    .defaultValues(ChangeKind.values())
                    .withDescription(
                            "Kinds of change written: any of insert, update, delete, ddl, query"
                                    + " (the DML statement text, Canal's filter.query.dml)."
                                    + " Changes of other kinds are dropped.");

    public static final ConfigOption<String> ROWS =
            ConfigOptions.key("rows")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Items 'tablePattern: predicate' separated by ';'. A matched table's"
                                    + " row changes are written only when the predicate holds on"
                                    + " the row (the after image, the before image of a DELETE):"
                                    + " 'col op literal' (op one of = != <> < <= > >=), 'col is"
                                    + " [not] null', 'and', 'or', parentheses.");

    private FilterOptions() {}
}

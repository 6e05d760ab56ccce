package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.filter.ChangeKind;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.serializers.event.TableSchema;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;

/**
 * A job's filter options, parsed and checked when the job is built (a bad item fails naming its
 * option); shipped to the operators that apply them, which derive per-table plans at runtime.
 */
@Internal
public final class FilterSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    final List<ColumnRule> include;
    final List<ColumnRule> exclude;
    final List<ColumnRule> masks;
    final byte[] salt;
    final boolean dropEmptyUpdates;
    final boolean[] kinds;
    final List<RowRule> rows;
    final String rowsKey;

    private FilterSettings(
            List<ColumnRule> include,
            List<ColumnRule> exclude,
            List<ColumnRule> masks,
            byte[] salt,
            boolean dropEmptyUpdates,
            boolean[] kinds,
            List<RowRule> rows,
            String rowsKey) {
        this.include = include;
        this.exclude = exclude;
        this.masks = masks;
        this.salt = salt;
        this.dropEmptyUpdates = dropEmptyUpdates;
        this.kinds = kinds;
        this.rows = rows;
        this.rowsKey = rowsKey;
    }

    /** The filter options in {@code config}; fails naming the option and item of a bad one. */
    public static FilterSettings from(OptionSection config) {
        boolean[] kinds = new boolean[ChangeKind.values().length];
        for (ChangeKind kind : EnumSet.copyOf(config.get(FilterOptions.TYPES))) {
            kinds[kind.ordinal()] = true;
        }
        return new FilterSettings(
                ColumnRule.parseLists(
                        config.get(FilterOptions.COLUMNS_INCLUDE),
                        config.key(FilterOptions.COLUMNS_INCLUDE)),
                ColumnRule.parseLists(
                        config.get(FilterOptions.COLUMNS_EXCLUDE),
                        config.key(FilterOptions.COLUMNS_EXCLUDE)),
                ColumnRule.parseMasks(
                        config.get(FilterOptions.COLUMNS_MASK),
                        config.key(FilterOptions.COLUMNS_MASK)),
                config.get(FilterOptions.MASK_SALT).getBytes(StandardCharsets.UTF_8),
                config.get(FilterOptions.DROP_EMPTY_UPDATES),
                kinds,
                RowRule.parseAll(config.get(FilterOptions.ROWS), config.key(FilterOptions.ROWS)),
                config.key(FilterOptions.ROWS));
    }

    /** Whether any change can be dropped (by kind, predicate or as an empty update). */
    public boolean dropsChanges() {
        for (boolean kind : kinds) {
            if (!kind) {
                return true;
            }
        }
        return dropEmptyUpdates || !rows.isEmpty();
    }

    /** Whether any table's columns can be cut or masked. */
    public boolean shapesColumns() {
        return !include.isEmpty() || !exclude.isEmpty() || !masks.isEmpty();
    }

    /** The column plan of one table version; see {@link ColumnPlan#of}. */
    ColumnPlan planOf(TableSchema schema) {
        String qualified = schema.database() + '.' + schema.table();
        return ColumnPlan.of(
                schema,
                ColumnRule.first(include, qualified),
                ColumnRule.first(exclude, qualified),
                ColumnRule.first(masks, qualified));
    }
}

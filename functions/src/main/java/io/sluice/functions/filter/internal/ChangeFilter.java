package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.filter.ChangeKind;
import io.sluice.functions.internal.IdentityCache;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;

/**
 * Decides which changes are written: by kind ({@code filter.types}), by the row predicate of the
 * first {@code filter.rows} item matching the table, and, with {@code filter.drop-empty-updates},
 * not an UPDATE that changed none of the columns its message carries. A dropped change is simply
 * not emitted: no later change depends on it. One per operator instance.
 */
@Internal
public final class ChangeFilter {

    private static final int MAX_CACHED = 4096;

    private final FilterSettings settings;
    private final ColumnControl columns;
    private final IdentityCache<TableSchema, Predicate.Test> tests;

    public ChangeFilter(FilterSettings settings) {
        this.settings = settings;
        this.columns = new ColumnControl(settings);
        this.tests = new IdentityCache<>(MAX_CACHED, this::compile);
    }

    /** Whether {@code change} is written. */
    public boolean keeps(ChangeEvent change) {
        if (!settings.kinds[ChangeKind.of(change).ordinal()]) {
            return false;
        }
        if (!change.isRow()) {
            return true;
        }
        if (!settings.rows.isEmpty() && !tests.get(change.schema()).test(change.data())) {
            return false;
        }
        return !(settings.dropEmptyUpdates
                && change.type() == ChangeType.UPDATE
                && columns.isEmptyUpdate(change));
    }

    /**
     * Whether the QUERY message with the text of {@code row}'s statement is written: not when QUERY
     * messages are filtered out, and not when the table's columns are cut or masked, whose values
     * the statement's text could show.
     */
    public boolean keepsQueryOf(ChangeEvent row) {
        return settings.kinds[ChangeKind.QUERY.ordinal()] && columns.keepsAll(row.schema());
    }

    private Predicate.Test compile(TableSchema schema) {
        String qualified = schema.database() + '.' + schema.table();
        for (RowRule rule : settings.rows) {
            if (rule.names.matches(qualified)) {
                return rule.predicate.compile(schema, settings.rowsKey, rule.pattern);
            }
        }
        return Predicate.ALWAYS;
    }
}

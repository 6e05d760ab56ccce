package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;

import io.sluice.serializers.event.TableSchema;

import java.util.Locale;

/**
 * What one table version's messages carry: which of its columns, in order, and the mask of each.
 * Computed once per schema instance; the reduced schema is shared by every change of that version.
 */
@Internal
final class ColumnPlan {

    /** The schema's own column positions, in order, that messages carry. */
    final int[] columns;

    /** Per carried column, its mask or null. */
    final Mask[] masks;

    /** The schema messages carry; the source schema itself when nothing changes. */
    final TableSchema schema;

    /** Whether the plan keeps every column unmasked. */
    final boolean identity;

    private ColumnPlan(int[] columns, Mask[] masks, TableSchema schema, boolean identity) {
        this.columns = columns;
        this.masks = masks;
        this.schema = schema;
        this.identity = identity;
    }

    /**
     * The plan of {@code schema} under the first matching rule of each option.
     *
     * @throws SuppressRestartsException if a rule excludes or masks a primary-key column: a restart
     *     cannot help
     */
    static ColumnPlan of(
            TableSchema schema, ColumnRule include, ColumnRule exclude, ColumnRule mask) {
        int n = schema.columnCount();
        int[] kept = new int[n];
        Mask[] masks = new Mask[n];
        int count = 0;
        boolean identity = true;
        for (int c = 0; c < n; c++) {
            String name = schema.name(c).toLowerCase(Locale.ROOT);
            boolean key = schema.isKey(c);
            if (exclude != null && exclude.columns.containsKey(name)) {
                if (key) {
                    throw keyError(schema, c, exclude, "excludes");
                }
                identity = false;
                continue;
            }
            if (include != null && !key && !include.columns.containsKey(name)) {
                identity = false;
                continue;
            }
            Mask m = mask == null ? null : mask.columns.get(name);
            if (m != null) {
                if (key) {
                    throw keyError(schema, c, mask, "masks");
                }
                identity = false;
            }
            masks[count] = m;
            kept[count++] = c;
        }
        if (identity) {
            return new ColumnPlan(kept, masks, schema, true);
        }
        TableSchema.Builder reduced = TableSchema.builder(schema.database(), schema.table());
        for (int i = 0; i < count; i++) {
            int c = kept[i];
            Mask m = masks[i];
            reduced.column(
                    schema.name(c),
                    m == null ? schema.mysqlType(c) : m.mysqlType(schema.mysqlType(c)),
                    m == null ? schema.sqlType(c) : m.sqlType(schema.sqlType(c)),
                    schema.isKey(c));
        }
        return new ColumnPlan(
                java.util.Arrays.copyOf(kept, count),
                java.util.Arrays.copyOf(masks, count),
                reduced.build(),
                false);
    }

    private static SuppressRestartsException keyError(
            TableSchema schema, int column, ColumnRule rule, String verb) {
        return new SuppressRestartsException(
                new IllegalArgumentException(
                        String.format(
                                "Option '%s' item '%s' %s column '%s' of %s.%s, but it is part of"
                                        + " the primary key, which every message must carry",
                                rule.option,
                                rule.item,
                                verb,
                                schema.name(column),
                                schema.database(),
                                schema.table())));
    }
}

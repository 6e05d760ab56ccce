package io.sluice.serializers.key;

import io.sluice.serializers.canal.internal.FlatRowWriter;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

/**
 * The message key of a row change: the JSON array {@code ["database","table",pk1,...]} of the
 * primary-key values in key order. It names the table, so log compaction stays right on a topic
 * shared by several tables; a table without a primary key gets no key (null).
 *
 * <p>Canal writes no key at all, which breaks compaction; this is Sluice's documented choice.
 * Escaping is the flat encoder's. Reuses its buffer and the last table's prefix: one instance per
 * thread.
 */
public final class MessageKeyEncoder {

    private final FlatRowWriter writer = new FlatRowWriter();
    private TableSchema lastSchema;
    private byte[] lastPrefix;

    /** The key of {@code change}'s row (before image for DELETE), or null without primary key. */
    public byte[] keyOf(ChangeEvent change) {
        RowImage row = change.data();
        return row == null ? null : keyOf(change.schema(), row);
    }

    /** The key of one image of a row of {@code schema}, or null without primary key. */
    public byte[] keyOf(TableSchema schema, RowImage row) {
        if (schema.keyColumnCount() == 0) {
            return null;
        }
        writer.reset();
        writer.raw(prefixOf(schema));
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            writer.raw(',');
            writer.value(row, schema.keyColumn(k));
        }
        writer.raw(']');
        return writer.toByteArray();
    }

    /** {@code ["database","table"}, encoded once per table version. */
    private byte[] prefixOf(TableSchema schema) {
        if (schema != lastSchema) {
            FlatRowWriter prefix = new FlatRowWriter();
            prefix.raw('[');
            prefix.quoted(schema.database());
            prefix.raw(',');
            prefix.quoted(schema.table());
            lastPrefix = prefix.toByteArray();
            lastSchema = schema;
        }
        return lastPrefix;
    }
}

package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.HashMap;
import java.util.Map;

/**
 * A row change cut down to its primary-key columns: same table, type, time and binlog position, the
 * key columns alone in its images (none for a table without primary key), and no query text.
 */
@Internal
final class KeyOnlyChanges {

    private static final int MAX_CACHED = 64;

    private final Map<TableSchema, TableSchema> schemas = new HashMap<>();
    private final RowImage.Builder rows = new RowImage.Builder();

    ChangeEvent of(ChangeEvent change) {
        TableSchema schema = change.schema();
        TableSchema keys = schemas.get(schema);
        if (keys == null) {
            if (schemas.size() >= MAX_CACHED) {
                schemas.clear();
            }
            TableSchema.Builder builder = TableSchema.builder(schema.database(), schema.table());
            for (int k = 0; k < schema.keyColumnCount(); k++) {
                int c = schema.keyColumn(k);
                builder.column(schema.name(c), schema.mysqlType(c), schema.sqlType(c), true);
            }
            keys = builder.build();
            schemas.put(schema, keys);
        }
        return ChangeEvent.builder(keys, change.type())
                .before(keysOf(schema, change.before()))
                .after(keysOf(schema, change.after()))
                .eventOf(change)
                .build();
    }

    private RowImage keysOf(TableSchema schema, RowImage row) {
        if (row == null) {
            return null;
        }
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            rows.appendColumn(row, schema.keyColumn(k));
        }
        return rows.build();
    }

    /** The key as "a=1, b=x" for messages, each value cut to 64 characters; "" without a key. */
    static String describeKey(ChangeEvent change) {
        TableSchema schema = change.schema();
        RowImage row = change.data();
        StringBuilder out = new StringBuilder();
        for (int k = 0; row != null && k < schema.keyColumnCount(); k++) {
            int c = schema.keyColumn(k);
            String value = row.text(c);
            if (value != null && value.length() > 64) {
                value = value.substring(0, 64) + "...";
            }
            out.append(k == 0 ? "" : ", ").append(schema.name(c)).append('=').append(value);
        }
        return out.toString();
    }
}

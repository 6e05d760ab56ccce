package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.StringData;

import io.sluice.functions.internal.IdentityCache;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;

/**
 * Per table version, the names a row's metadata repeats (database, table, columns, key), made into
 * Flink strings once. Keyed by schema instance: changes of one table version share it. One per
 * subtask.
 */
@Internal
final class SchemaStrings {

    static final StringData[] TYPES = new StringData[ChangeType.values().length];

    static {
        for (ChangeType type : ChangeType.values()) {
            TYPES[type.ordinal()] = StringData.fromString(type.name());
        }
    }

    private static final int MAX_SCHEMAS = 4096;

    private final IdentityCache<TableSchema, Names> names =
            new IdentityCache<>(MAX_SCHEMAS, Names::new);

    Names of(TableSchema schema) {
        return names.get(schema);
    }

    /** One table version's names. */
    static final class Names {
        final StringData database;
        final StringData table;
        final StringData[] columns;
        final ArrayData keyNames;

        Names(TableSchema schema) {
            database = StringData.fromString(schema.database());
            table = StringData.fromString(schema.table());
            columns = new StringData[schema.columnCount()];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = StringData.fromString(schema.name(i));
            }
            StringData[] keys = new StringData[schema.keyColumnCount()];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = columns[schema.keyColumn(k)];
            }
            keyNames = new GenericArrayData(keys);
        }
    }
}

package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

/**
 * Keys a change by table and primary key, so every change of one row takes the same path and keeps
 * its binlog order. Rows of a table without primary key, and its statements, share the table's key:
 * they stay in order with each other.
 */
@Internal
public final class ChangeEventKeySelector implements KeySelector<ChangeEvent, Integer> {

    private static final long serialVersionUID = 1L;

    @Override
    public Integer getKey(ChangeEvent change) {
        return hashOf(change);
    }

    /** The hash of {@code change}'s table and primary key, without boxing. */
    public static int hashOf(ChangeEvent change) {
        TableSchema schema = change.schema();
        int h = 31 * schema.database().hashCode() + schema.table().hashCode();
        RowImage row = change.data();
        if (row == null) {
            return h;
        }
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            h = 31 * h + row.javaHashCode(schema.keyColumn(k));
        }
        return h;
    }
}

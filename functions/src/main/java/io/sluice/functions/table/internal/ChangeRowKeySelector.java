package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

import io.sluice.functions.encode.ChangeEventKeySelector;
import io.sluice.functions.types.ChangeEventSerializer;
import io.sluice.serializers.event.ChangeEvent;

/** Keys a row by its change's table and primary key, as the DataStream pipeline keys changes. */
@Internal
final class ChangeRowKeySelector implements KeySelector<RowData, Integer> {

    private static final long serialVersionUID = 1L;

    private final int changeField;
    private final ChangeEventKeySelector keys = new ChangeEventKeySelector();
    private transient ChangeEventSerializer serializer;

    ChangeRowKeySelector(int changeField) {
        this.changeField = changeField;
    }

    @Override
    public Integer getKey(RowData row) {
        if (serializer == null) {
            serializer = new ChangeEventSerializer();
        }
        return keys.getKey(row.<ChangeEvent>getRawValue(changeField).toObject(serializer));
    }
}

package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;

import io.sluice.serializers.event.ChangeEvent;

import java.util.List;

/**
 * Makes the SQL row of a change: the event itself in the {@code RAW} column when the query uses it
 * (no copy, no per-column work), then the metadata the query uses, in the planner's order.
 */
@Internal
public final class ChangeRowConverter extends RichMapFunction<ChangeEvent, RowData> {

    private static final long serialVersionUID = 1L;

    private final boolean withChange;
    private final SourceMetadata[] metadata;

    private transient SchemaStrings strings;

    public ChangeRowConverter(boolean withChange, List<SourceMetadata> metadata) {
        this.withChange = withChange;
        this.metadata = metadata.toArray(new SourceMetadata[0]);
    }

    @Override
    public void open(OpenContext context) {
        strings = new SchemaStrings();
    }

    @Override
    public RowData map(ChangeEvent change) {
        int offset = withChange ? 1 : 0;
        GenericRowData row = new GenericRowData(offset + metadata.length);
        if (withChange) {
            row.setField(0, RawValueData.fromObject(change));
        }
        for (int i = 0; i < metadata.length; i++) {
            row.setField(offset + i, metadata[i].read(change, strings));
        }
        return row;
    }
}

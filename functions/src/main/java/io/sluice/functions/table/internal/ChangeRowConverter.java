package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

import io.sluice.serializers.event.ChangeEvent;

import java.util.List;

/**
 * Makes the SQL row of a change: the event itself in the {@code RAW} column when the query uses it
 * (no copy, no per-column work), then the metadata the query uses, in the planner's order. Runs in
 * a {@link io.sluice.functions.normalize.StatementPathOperator}, which keeps it active when it
 * follows the source's shuffle.
 */
@Internal
public final class ChangeRowConverter extends ProcessFunction<ChangeEvent, RowData> {

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
    public void processElement(ChangeEvent change, Context context, Collector<RowData> out) {
        int offset = withChange ? 1 : 0;
        GenericRowData row = new GenericRowData(offset + metadata.length);
        if (withChange) {
            row.setField(0, RawValueData.fromObject(change));
        }
        for (int i = 0; i < metadata.length; i++) {
            row.setField(offset + i, metadata[i].read(change, strings));
        }
        out.collect(row);
    }
}

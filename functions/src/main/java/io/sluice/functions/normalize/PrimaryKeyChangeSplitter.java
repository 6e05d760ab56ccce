package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;

/**
 * Turns an UPDATE that changes the primary key into a DELETE of the old key followed by an INSERT
 * of the new one, as Debezium does. Runs before keying, so the DELETE travels with the old key's
 * earlier changes and reaches the old key's partition in order, and the INSERT starts the new key's
 * history in its partition. (Canal routes such an UPDATE by the new key only: consumers of the old
 * key's partition never learn the row moved.)
 */
@Internal
public final class PrimaryKeyChangeSplitter implements FlatMapFunction<ChangeEvent, ChangeEvent> {

    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(ChangeEvent change, Collector<ChangeEvent> out) {
        if (change.type() != ChangeType.UPDATE || !keyChanged(change)) {
            out.collect(change);
            return;
        }
        // The statement's text, if any, stays with the first half.
        out.collect(
                half(change, ChangeType.DELETE)
                        .before(change.before())
                        .query(change.query())
                        .build());
        out.collect(half(change, ChangeType.INSERT).after(change.after()).build());
    }

    private static boolean keyChanged(ChangeEvent update) {
        TableSchema schema = update.schema();
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            if (!update.before().sameValue(update.after(), schema.keyColumn(k))) {
                return true;
            }
        }
        return false;
    }

    private static ChangeEvent.Builder half(ChangeEvent update, ChangeType type) {
        return ChangeEvent.builder(update.schema(), type).eventOf(update);
    }
}

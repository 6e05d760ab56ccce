package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.normalize.RoutedChange;
import io.sluice.serializers.event.ChangeEvent;

/** Flink's own serializer contract for routed changes, over every kind of change. */
class RoutedChangeSerializerTest extends SerializerTestBase<RoutedChange> {

    @Override
    protected TypeSerializer<RoutedChange> createSerializer() {
        return new RoutedChangeSerializer();
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<RoutedChange> getTypeClass() {
        return RoutedChange.class;
    }

    @Override
    protected RoutedChange[] getTestData() {
        ChangeEvent[] changes = ChangeEventSerializerTest.testData();
        RoutedChange[] data = new RoutedChange[changes.length * 2];
        for (int i = 0; i < changes.length; i++) {
            RoutedChange unrouted =
                    RoutedChange.unrouted(changes[i], i * 31 - 7, i % 2 == 0 ? 1 : 2L * i + 1);
            data[2 * i] = unrouted;
            data[2 * i + 1] =
                    unrouted.routed(
                            "topic-" + i, i, i % 2 == 0 ? null : new byte[] {1, 2, (byte) i});
        }
        return data;
    }
}

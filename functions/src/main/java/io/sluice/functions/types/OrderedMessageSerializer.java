package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;

import java.io.IOException;

/**
 * Flink's serializer for {@link OrderedMessage}: the message ({@link SinkMessageSerializer}), then
 * its rank. These messages only travel from the encoders to the partition owners, never into state,
 * so the snapshot carries no migration path.
 */
@Internal
public final class OrderedMessageSerializer extends TypeSerializerSingleton<OrderedMessage> {

    private static final long serialVersionUID = 1L;

    public static final OrderedMessageSerializer INSTANCE = new OrderedMessageSerializer();

    private static final OrderedMessage EMPTY =
            new OrderedMessage(SinkMessageSerializer.INSTANCE.createInstance(), 0);

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public OrderedMessage createInstance() {
        return EMPTY;
    }

    @Override
    public OrderedMessage copy(OrderedMessage from) {
        return from;
    }

    @Override
    public OrderedMessage copy(OrderedMessage from, OrderedMessage reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(OrderedMessage ordered, DataOutputView out) throws IOException {
        SinkMessageSerializer.INSTANCE.serialize(ordered.message(), out);
        out.writeLong(ordered.rank());
    }

    @Override
    public OrderedMessage deserialize(DataInputView in) throws IOException {
        SinkMessage message = SinkMessageSerializer.INSTANCE.deserialize(in);
        long rank = in.readLong();
        return new OrderedMessage(message, rank);
    }

    @Override
    public OrderedMessage deserialize(OrderedMessage reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<OrderedMessage> snapshotConfiguration() {
        return new OrderedMessageSerializerSnapshot();
    }

    /** Snapshot for savepoints. */
    public static final class OrderedMessageSerializerSnapshot
            extends SimpleTypeSerializerSnapshot<OrderedMessage> {
        public OrderedMessageSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}

package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import io.sluice.functions.internal.NullableFields;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.serializers.event.ChangeEvent;

import java.io.IOException;

/**
 * Flink's serializer for {@link RoutedChange}: the change through {@link ChangeEventSerializer},
 * then its key hash, rank and routing fields. Routed changes only travel between operators, never
 * into state.
 */
@Internal
public final class RoutedChangeSerializer extends TypeSerializer<RoutedChange> {

    private static final long serialVersionUID = 1L;

    private final ChangeEventSerializer changes = new ChangeEventSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<RoutedChange> duplicate() {
        return new RoutedChangeSerializer();
    }

    @Override
    public RoutedChange createInstance() {
        return RoutedChange.unrouted(changes.createInstance(), 0, 0);
    }

    @Override
    public RoutedChange copy(RoutedChange from) {
        return from;
    }

    @Override
    public RoutedChange copy(RoutedChange from, RoutedChange reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(RoutedChange routed, DataOutputView out) throws IOException {
        changes.serialize(routed.change(), out);
        out.writeInt(routed.keyHash());
        out.writeLong(routed.rank());
        NullableFields.writeString(routed.topic(), out);
        out.writeInt(routed.partition());
        NullableFields.writeBytes(routed.key(), out);
    }

    @Override
    public RoutedChange deserialize(DataInputView in) throws IOException {
        ChangeEvent change = changes.deserialize(in);
        int keyHash = in.readInt();
        long rank = in.readLong();
        String topic = NullableFields.readString(in);
        int partition = in.readInt();
        byte[] key = NullableFields.readBytes(in);
        return new RoutedChange(change, keyHash, rank, topic, partition, key);
    }

    @Override
    public RoutedChange deserialize(RoutedChange reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RoutedChangeSerializer;
    }

    @Override
    public int hashCode() {
        return RoutedChangeSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<RoutedChange> snapshotConfiguration() {
        return new RoutedChangeSerializerSnapshot();
    }

    /** Snapshot for savepoints; the serializer has no configuration. */
    public static final class RoutedChangeSerializerSnapshot
            extends SimpleTypeSerializerSnapshot<RoutedChange> {
        public RoutedChangeSerializerSnapshot() {
            super(RoutedChangeSerializer::new);
        }
    }
}

package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.internal.NullableFields;

import java.io.IOException;

/**
 * Flink's serializer for {@link SinkMessage}: topic, partition, key, value (length -1 for a
 * tombstone's null), timestamp and tag. Messages only travel between operators (savepoints hold no
 * records: they are aligned), never into state, so the snapshot carries no migration path.
 */
@Internal
public final class SinkMessageSerializer extends TypeSerializerSingleton<SinkMessage> {

    private static final long serialVersionUID = 1L;

    public static final SinkMessageSerializer INSTANCE = new SinkMessageSerializer();

    private static final SinkMessage EMPTY = new SinkMessage("", -1, null, new byte[0], 0);

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public SinkMessage createInstance() {
        return EMPTY;
    }

    @Override
    public SinkMessage copy(SinkMessage from) {
        return from;
    }

    @Override
    public SinkMessage copy(SinkMessage from, SinkMessage reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(SinkMessage message, DataOutputView out) throws IOException {
        StringValue.writeString(message.topic(), out);
        out.writeInt(message.partition());
        NullableFields.writeBytes(message.key(), out);
        // -1 for a tombstone's null value; older state only holds lengths >= 0.
        out.writeInt(message.value() == null ? -1 : message.value().length);
        if (message.value() != null) {
            out.write(message.value());
        }
        out.writeLong(message.timestamp());
        NullableFields.writeString(message.tag(), out);
    }

    @Override
    public SinkMessage deserialize(DataInputView in) throws IOException {
        String topic = StringValue.readString(in);
        int partition = in.readInt();
        byte[] key = NullableFields.readBytes(in);
        int length = in.readInt();
        byte[] value = length < 0 ? null : new byte[length];
        if (value != null) {
            in.readFully(value);
        }
        long timestamp = in.readLong();
        String tag = NullableFields.readString(in);
        return new SinkMessage(topic, partition, key, value, timestamp, tag);
    }

    @Override
    public SinkMessage deserialize(SinkMessage reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public TypeSerializerSnapshot<SinkMessage> snapshotConfiguration() {
        return new SinkMessageSerializerSnapshot();
    }

    /** Snapshot for savepoints. */
    public static final class SinkMessageSerializerSnapshot
            extends SimpleTypeSerializerSnapshot<SinkMessage> {
        public SinkMessageSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}

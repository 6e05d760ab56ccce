package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.sink.SinkMessage;

/** Flink type information for {@link SinkMessage}. */
@Internal
public final class SinkMessageTypeInfo extends TypeInformation<SinkMessage> {

    private static final long serialVersionUID = 1L;

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<SinkMessage> getTypeClass() {
        return SinkMessage.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<SinkMessage> createSerializer(SerializerConfig config) {
        return SinkMessageSerializer.INSTANCE;
    }

    @Override
    @Deprecated
    public TypeSerializer<SinkMessage> createSerializer(ExecutionConfig config) {
        return SinkMessageSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "SinkMessage";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof SinkMessageTypeInfo;
    }

    @Override
    public int hashCode() {
        return SinkMessageTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof SinkMessageTypeInfo;
    }
}

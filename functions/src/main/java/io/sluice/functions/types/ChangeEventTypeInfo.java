package io.sluice.functions.types;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.serializers.event.ChangeEvent;

/** Flink type information for {@link ChangeEvent}, backed by {@link ChangeEventSerializer}. */
@PublicEvolving
public final class ChangeEventTypeInfo extends TypeInformation<ChangeEvent> {

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
    public Class<ChangeEvent> getTypeClass() {
        return ChangeEvent.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<ChangeEvent> createSerializer(SerializerConfig config) {
        return new ChangeEventSerializer();
    }

    @Override
    @Deprecated
    public TypeSerializer<ChangeEvent> createSerializer(ExecutionConfig config) {
        return new ChangeEventSerializer();
    }

    @Override
    public String toString() {
        return "ChangeEvent";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ChangeEventTypeInfo;
    }

    @Override
    public int hashCode() {
        return ChangeEventTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof ChangeEventTypeInfo;
    }
}

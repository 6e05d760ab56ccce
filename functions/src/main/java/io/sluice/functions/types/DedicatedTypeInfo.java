package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information for a single-field Sluice type with its own serializer: Flink never falls back
 * to Kryo or reflection for it. Subclasses name the class and the serializer.
 */
@Internal
abstract class DedicatedTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;

    DedicatedTypeInfo(Class<T> type) {
        this.type = type;
    }

    /** A serializer for one user; stateful serializers return a new instance. */
    abstract TypeSerializer<T> serializer();

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
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer();
    }

    @Override
    @Deprecated
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return serializer();
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}

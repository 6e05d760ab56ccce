package io.sluice.functions.types;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.serializers.event.ChangeEvent;

/** Flink type information for {@link ChangeEvent}, backed by {@link ChangeEventSerializer}. */
@PublicEvolving
public final class ChangeEventTypeInfo extends DedicatedTypeInfo<ChangeEvent> {

    private static final long serialVersionUID = 1L;

    public ChangeEventTypeInfo() {
        super(ChangeEvent.class);
    }

    @Override
    TypeSerializer<ChangeEvent> serializer() {
        return new ChangeEventSerializer();
    }
}

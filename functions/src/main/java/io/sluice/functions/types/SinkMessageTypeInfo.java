package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.encode.SinkMessage;

/** Flink type information for {@link SinkMessage}, backed by {@link SinkMessageSerializer}. */
@Internal
public final class SinkMessageTypeInfo extends DedicatedTypeInfo<SinkMessage> {

    private static final long serialVersionUID = 1L;

    public SinkMessageTypeInfo() {
        super(SinkMessage.class);
    }

    @Override
    TypeSerializer<SinkMessage> serializer() {
        return SinkMessageSerializer.INSTANCE;
    }
}

package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.encode.OrderedMessage;

/**
 * Flink type information for {@link OrderedMessage}, backed by {@link OrderedMessageSerializer}.
 */
@Internal
public final class OrderedMessageTypeInfo extends DedicatedTypeInfo<OrderedMessage> {

    private static final long serialVersionUID = 1L;

    public OrderedMessageTypeInfo() {
        super(OrderedMessage.class);
    }

    @Override
    TypeSerializer<OrderedMessage> serializer() {
        return OrderedMessageSerializer.INSTANCE;
    }
}

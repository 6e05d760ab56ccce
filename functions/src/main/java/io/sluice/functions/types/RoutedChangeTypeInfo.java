package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.normalize.RoutedChange;

/** Flink type information for {@link RoutedChange}, backed by {@link RoutedChangeSerializer}. */
@Internal
public final class RoutedChangeTypeInfo extends DedicatedTypeInfo<RoutedChange> {

    private static final long serialVersionUID = 1L;

    public RoutedChangeTypeInfo() {
        super(RoutedChange.class);
    }

    @Override
    TypeSerializer<RoutedChange> serializer() {
        return new RoutedChangeSerializer();
    }
}

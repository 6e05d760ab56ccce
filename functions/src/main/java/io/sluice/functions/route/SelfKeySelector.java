package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Selects a record as its own key, for the partitioners that read several of its fields ({@link
 * ChangePartitioner}, {@link PartitionOwnerPartitioner}). Generic, so the key's type is the input's
 * (no Kryo).
 */
@Internal
public final class SelfKeySelector<T> implements KeySelector<T, T> {

    private static final long serialVersionUID = 1L;

    @Override
    public T getKey(T record) {
        return record;
    }
}

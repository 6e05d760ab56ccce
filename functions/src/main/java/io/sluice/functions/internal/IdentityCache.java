package io.sluice.functions.internal;

import org.apache.flink.annotation.Internal;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Values derived once per key object, looked up by the key's identity. The keys here are schema
 * instances (one per table version) that the per-row path meets again and again, and whose {@code
 * equals} would walk the whole schema. Each DDL brings new instances, so the cache is emptied when
 * it reaches its bound rather than growing for the life of the job. Not thread-safe: one per
 * operator instance.
 */
@Internal
public final class IdentityCache<K, V> {

    private final int maxEntries;
    private final Function<? super K, ? extends V> derive;
    private final Map<K, V> values = new IdentityHashMap<>();

    // The last key looked up and its value: rows come in runs of one table, and one row's path
    // often asks twice for the same schema.
    private K lastKey;
    private V lastValue;

    /**
     * @param maxEntries entries kept before the cache is emptied
     * @param derive computes the value of a key not yet cached; must not return null
     */
    public IdentityCache(int maxEntries, Function<? super K, ? extends V> derive) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException(
                    "An identity cache needs room for at least 1 entry, not " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.derive = derive;
    }

    /** The value of {@code key}, derived on first sight of this instance. */
    public V get(K key) {
        if (key == lastKey && lastValue != null) {
            return lastValue;
        }
        V value = values.get(key);
        if (value == null) {
            if (values.size() >= maxEntries) {
                values.clear();
            }
            value = derive.apply(key);
            values.put(key, value);
        }
        lastKey = key;
        lastValue = value;
        return value;
    }

    /** Number of cached entries, for tests. */
    public int size() {
        return values.size();
    }
}

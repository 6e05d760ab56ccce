package io.sluice.functions.route;

import io.sluice.serializers.event.RowImage;

/** Canal's hash of one row: a constant per table, or the XOR of some columns' text hashes. */
public final class KeyHasher {

    private final int seed;
    private final int[] columns;

    private KeyHasher(int seed, int[] columns) {
        this.seed = seed;
        this.columns = columns;
    }

    static KeyHasher constant(int hash) {
        return new KeyHasher(hash, new int[0]);
    }

    static KeyHasher columns(int seed, int[] columns) {
        return new KeyHasher(seed, columns.clone());
    }

    /** The hash of a row image; allocation-free. */
    public int hash(RowImage row) {
        int h = seed;
        for (int column : columns) {
            h ^= row.javaHashCode(column);
        }
        return h;
    }
}

package io.sluice.serializers.canal.internal;

import io.sluice.serializers.event.TableSchema;

/**
 * Remembers the {@link ProtoTableLayout} of recently seen table versions, by identity (a {@link
 * TableSchema} is shared by every change of one table version). Direct-mapped, so it stays bounded
 * when schemas change over a long run, and a hit costs no allocation or hashing of column names.
 */
public final class ProtoLayoutCache {

    private static final int SLOTS = 64; // a power of two

    private final ProtoTableLayout[] slots = new ProtoTableLayout[SLOTS];

    public ProtoTableLayout get(TableSchema schema) {
        int slot = System.identityHashCode(schema) & (SLOTS - 1);
        ProtoTableLayout layout = slots[slot];
        if (layout == null || layout.schema() != schema) {
            layout = ProtoTableLayout.of(schema);
            slots[slot] = layout;
        }
        return layout;
    }
}

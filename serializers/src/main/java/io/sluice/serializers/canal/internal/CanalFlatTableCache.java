package io.sluice.serializers.canal.internal;

import com.fasterxml.jackson.core.JsonFactory;
import io.sluice.serializers.event.TableSchema;

import java.util.Objects;

/**
 * The {@link CanalFlatTable}s of the last few schemas an encoder saw. A stream usually interleaves
 * a handful of hot tables, so a few slots searched linearly beat a hash map: no hashing of a
 * schema's arrays, no allocation on a hit.
 *
 * <p>Lookup is by identity first, as changes of one table version share their schema instance. A
 * schema that is only equal (e.g. deserialized again after a network hop) hits on a second, slower
 * pass and takes over the slot, so its successors hit by identity again. Not thread-safe.
 */
public final class CanalFlatTableCache {

    private final JsonFactory json;
    private final CanalFlatTable[] slots;
    private int next;

    public CanalFlatTableCache(JsonFactory json, int size) {
        if (size < 1) {
            throw new IllegalArgumentException(
                    "A table cache needs at least one slot, got " + size);
        }
        this.json = Objects.requireNonNull(json, "json must not be null");
        this.slots = new CanalFlatTable[size];
    }

    /** The encoded parts of {@code schema}, from the cache or newly encoded. */
    public CanalFlatTable get(TableSchema schema) {
        for (CanalFlatTable slot : slots) {
            if (slot != null && slot.schema() == schema) {
                return slot;
            }
        }
        for (int i = 0; i < slots.length; i++) {
            CanalFlatTable slot = slots[i];
            if (slot != null && slot.schema().equals(schema)) {
                // Equal schemas encode identically, but re-key so the next lookup is by identity.
                return slots[i] = slot.withSchema(schema);
            }
        }
        CanalFlatTable table = CanalFlatTable.of(schema, json);
        slots[next] = table;
        next = (next + 1) % slots.length;
        return table;
    }
}

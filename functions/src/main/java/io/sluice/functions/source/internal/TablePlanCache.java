package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;

import io.sluice.serializers.event.TableSchema;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@link TablePlan}s by the identity of their Debezium envelope schema. Debezium builds one
 * envelope schema object per table version and reuses it for every record, so the usual lookup is
 * one reference comparison; an identity map backs it because Connect's {@code Schema.equals} walks
 * the whole schema.
 *
 * <p>Flink CDC builds fresh schema objects for every snapshot split and after every DDL, so old
 * entries go stale. The cache is simply emptied when it reaches {@link #MAX_PLANS}; equal {@link
 * TableSchema}s are interned so all events of one table version share a single instance.
 */
@Internal
public final class TablePlanCache {

    static final int MAX_PLANS = 256;

    private final Map<Schema, TablePlan> plans = new IdentityHashMap<>();
    private final Map<TableSchema, TableSchema> schemas = new HashMap<>();
    private Schema lastEnvelope;
    private TablePlan lastPlan;

    /** The plan for {@code envelope}, or null if none was built yet. */
    public TablePlan get(Schema envelope) {
        if (envelope == lastEnvelope) {
            return lastPlan;
        }
        TablePlan plan = plans.get(envelope);
        if (plan != null) {
            lastEnvelope = envelope;
            lastPlan = plan;
        }
        return plan;
    }

    /** Remembers {@code plan} for {@code envelope} and returns it. */
    public TablePlan put(Schema envelope, TablePlan plan) {
        if (plans.size() >= MAX_PLANS) {
            plans.clear();
            schemas.clear();
        }
        plans.put(envelope, plan);
        lastEnvelope = envelope;
        lastPlan = plan;
        return plan;
    }

    /** The shared instance equal to {@code schema}. */
    public TableSchema intern(TableSchema schema) {
        TableSchema known = schemas.putIfAbsent(schema, schema);
        return known != null ? known : schema;
    }

    /** Number of cached plans, for tests. */
    public int size() {
        return plans.size();
    }
}

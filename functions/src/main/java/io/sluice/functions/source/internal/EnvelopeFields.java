package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;

import io.debezium.data.Envelope;
import io.sluice.functions.internal.IdentityCache;

/**
 * Answers {@link RecordUtils#isDataChangeRecord} and {@link RecordUtils#getMessageTimestamp} with
 * the envelope's fields resolved once per value schema: Flink CDC looks each field up by name in
 * every record (six map lookups per row). Debezium reuses one schema object per table version, so
 * the schemas are few; the cache is cleared if a long run with many DDLs outgrows its bound.
 */
@Internal
final class EnvelopeFields {

    private static final int MAX_SCHEMAS = 1024;
    private static final String TIMESTAMP = "ts_ms";

    private final IdentityCache<Schema, Resolved> bySchema =
            new IdentityCache<>(MAX_SCHEMAS, Resolved::new);

    /** Whether {@code record} is a row change: its envelope has a non-null {@code op}. */
    boolean isRow(SourceRecord record) {
        Schema schema = record.valueSchema();
        Struct value = (Struct) record.value();
        if (schema == null || value == null) {
            return false;
        }
        Field op = bySchema.get(schema).op;
        return op != null && value.get(op) != null;
    }

    /** The binlog event's time in the record's {@code source} block, or null without one. */
    Long timestamp(SourceRecord record) {
        Resolved fields = bySchema.get(record.valueSchema());
        if (fields.source == null) {
            return null;
        }
        // The block's schema equals the field's (Struct.put checks), so its fields have the same
        // indexes.
        Struct source = (Struct) ((Struct) record.value()).get(fields.source);
        return fields.timestamp == null ? null : (Long) source.get(fields.timestamp);
    }

    private static final class Resolved {
        final Field op;
        final Field source;
        final Field timestamp;

        Resolved(Schema schema) {
            boolean struct = schema.type() == Schema.Type.STRUCT;
            this.op = struct ? schema.field(Envelope.FieldName.OPERATION) : null;
            this.source = struct ? schema.field(Envelope.FieldName.SOURCE) : null;
            this.timestamp =
                    source != null && source.schema().type() == Schema.Type.STRUCT
                            ? source.schema().field(TIMESTAMP)
                            : null;
        }
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;

import java.util.Map;

/**
 * Records of database statements (CREATE, ALTER, DROP DATABASE), which {@link BinlogStatementHook}
 * puts into the binlog reader's queue right after Debezium has read the statement.
 *
 * <p>Debezium makes a schema-change record of such a statement too, but Flink CDC's binlog reader
 * drops every schema change that names no table. These records have a key schema of their own, so
 * the reader passes them on like any record it does not know, and the source's emitter hands them
 * to the conversion. The value holds Debezium's {@code source} block (file, position, server, time)
 * as it stands after the statement, the statement's database and its text; the record's offset is
 * where the reader resumes after the statement, as a schema-change record's is.
 */
@Internal
public final class DatabaseStatements {

    static final String KEY_SCHEMA_NAME = "io.sluice.source.DatabaseStatementKey";
    static final String VALUE_SCHEMA_NAME = "io.sluice.source.DatabaseStatement";
    static final String DATABASE = "databaseName";
    static final String DDL = "ddl";
    static final String SOURCE = "source";

    private static final Schema KEY_SCHEMA =
            SchemaBuilder.struct()
                    .name(KEY_SCHEMA_NAME)
                    .field(DATABASE, Schema.STRING_SCHEMA)
                    .build();

    /** The value schema of the last source schema seen: Debezium keeps one per connector. */
    private Schema sourceSchema;

    private Schema valueSchema;

    /**
     * The record of {@code sql}, a statement on {@code database}.
     *
     * @param partition Debezium's source partition
     * @param offset where the reader resumes after the statement
     * @param source Debezium's {@code source} block after the statement
     */
    public SourceRecord record(
            Map<String, ?> partition,
            Map<String, ?> offset,
            Struct source,
            String database,
            String sql) {
        if (source.schema() != sourceSchema) {
            sourceSchema = source.schema();
            valueSchema =
                    SchemaBuilder.struct()
                            .name(VALUE_SCHEMA_NAME)
                            .field(SOURCE, sourceSchema)
                            .field(DATABASE, Schema.STRING_SCHEMA)
                            .field(DDL, Schema.STRING_SCHEMA)
                            .build();
        }
        Struct value =
                new Struct(valueSchema).put(SOURCE, source).put(DATABASE, database).put(DDL, sql);
        return new SourceRecord(
                partition,
                offset,
                "",
                null,
                KEY_SCHEMA,
                new Struct(KEY_SCHEMA).put(DATABASE, database),
                valueSchema,
                value);
    }

    /** Whether {@code record} is one of these. */
    public static boolean is(SourceRecord record) {
        Schema key = record.keySchema();
        return key != null
                && KEY_SCHEMA_NAME.equals(key.name())
                && record.value() instanceof Struct;
    }
}

package org.apache.flink.cdc.connectors.mysql.source;

import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;

import io.sluice.functions.source.internal.BinlogBatchRecordEmitter;
import io.sluice.functions.source.internal.MemoizedTableFilter;

/**
 * Sluice's way to {@link MySqlSource}'s package-private constructor that takes the reader's record
 * emitter, as Flink CDC's own pipeline connector uses it. It lives in the connector's package, so
 * it must be loaded with the connector: the shaded job jar bundles both.
 */
public final class MySqlSourceEmitters {

    private MySqlSourceEmitters() {}

    /**
     * {@code source} with the same configuration, whose reader stores the binlog position once per
     * batch ({@link BinlogBatchRecordEmitter}) and asks the table filter once per table ({@link
     * MemoizedTableFilter}).
     */
    public static <T> MySqlSource<T> withBinlogBatchEmitter(
            MySqlSource<T> source, DebeziumDeserializationSchema<T> deserializer) {
        return new MySqlSource<>(source.getConfigFactory(), deserializer, emitters(deserializer));
    }

    /**
     * The reader's emitter. The source asks for it with the reader's own configuration before any
     * of the reader's split readers exists, so the memoized filter installed here is the one their
     * Debezium dispatcher and schema take.
     */
    static <T> MySqlSource.RecordEmitterSupplier<T> emitters(
            DebeziumDeserializationSchema<T> deserializer) {
        return (metrics, config) -> {
            MemoizedTableFilter.install(config);
            return new BinlogBatchRecordEmitter<>(
                    deserializer, metrics, config.isIncludeSchemaChanges());
        };
    }
}

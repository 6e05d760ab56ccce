package org.apache.flink.cdc.connectors.mysql.source;

import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;

import io.sluice.functions.source.internal.BinlogBatchRecordEmitter;
import io.sluice.functions.source.internal.MemoizedFilterConfigFactory;

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
     * MemoizedFilterConfigFactory}).
     */
    public static <T> MySqlSource<T> withBinlogBatchEmitter(
            MySqlSource<T> source, DebeziumDeserializationSchema<T> deserializer) {
        return new MySqlSource<>(
                new MemoizedFilterConfigFactory(source.getConfigFactory()),
                deserializer,
                (metrics, config) ->
                        new BinlogBatchRecordEmitter<>(
                                deserializer, metrics, config.isIncludeSchemaChanges()));
    }
}

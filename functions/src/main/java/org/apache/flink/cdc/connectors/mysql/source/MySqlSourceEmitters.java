package org.apache.flink.cdc.connectors.mysql.source;

import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfigFactory;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReader;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;

import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.BinlogBatchRecordEmitter;
import io.sluice.functions.source.internal.BinlogStatementHook;
import io.sluice.functions.source.internal.MemoizedTableFilter;
import io.sluice.functions.source.internal.SourceProgress;
import io.sluice.functions.source.internal.StallWatchingSourceReader;
import io.sluice.functions.source.internal.StatementTimes;

import java.time.Duration;
import java.util.List;

/**
 * Sluice's way to {@link MySqlSource}'s package-private constructor that takes the reader's record
 * emitter, as Flink CDC's own pipeline connector uses it, and to the reader's split readers. It
 * lives in the connector's package, so it must be loaded with the connector: the shaded job jar
 * bundles both.
 */
public final class MySqlSourceEmitters {

    private MySqlSourceEmitters() {}

    /**
     * {@code source} with the same configuration, whose reader stores the binlog position once per
     * batch ({@link BinlogBatchRecordEmitter}), asks the table filter once per table ({@link
     * MemoizedTableFilter}) and sees each binlog statement before Debezium ({@link
     * BinlogStatementHook}).
     */
    public static <T> MySqlSource<T> withBinlogBatchEmitter(
            MySqlSource<T> source,
            DebeziumDeserializationSchema<T> deserializer,
            Duration stallTimeout) {
        return withBinlogBatchEmitter(
                source,
                deserializer,
                stallTimeout,
                MySqlSourceOptions.STALL_TIMEOUT.key(),
                List.of());
    }

    /**
     * The same, passing on the CREATE, ALTER and DROP DATABASE statements of the databases {@code
     * databases} (regexes) name; a stalled reader's error names the timeout {@code
     * stallTimeoutKey}.
     */
    public static <T> MySqlSource<T> withBinlogBatchEmitter(
            MySqlSource<T> source,
            DebeziumDeserializationSchema<T> deserializer,
            Duration stallTimeout,
            String stallTimeoutKey,
            List<String> databases) {
        return new HookedSource<>(
                source.getConfigFactory(),
                deserializer,
                stallTimeout,
                stallTimeoutKey,
                List.copyOf(databases));
    }

    /**
     * The reader of {@code source} (built by {@link #withBinlogBatchEmitter}) for a reader that
     * wraps it: no stall watch and no metrics of its own, its progress marked on {@code progress}.
     */
    public static <T> MySqlSourceReader<T> innerReader(
            MySqlSource<T> source, SourceReaderContext context, SourceProgress progress) {
        if (!(source instanceof HookedSource)) {
            throw new IllegalArgumentException(
                    "Not a source of withBinlogBatchEmitter: " + source.getClass().getName());
        }
        return ((HookedSource<T>) source).reader(context, progress, false);
    }

    /**
     * The reader's emitter. The source asks for it with the reader's own configuration before any
     * of the reader's split readers exists, so the memoized filter installed here is the one their
     * Debezium dispatcher and schema take.
     */
    static <T> MySqlSource.RecordEmitterSupplier<T> emitters(
            DebeziumDeserializationSchema<T> deserializer) {
        return (metrics, config) ->
                emitter(deserializer, metrics, config, new StatementTimes(), new SourceProgress());
    }

    private static <T> BinlogBatchRecordEmitter<T> emitter(
            DebeziumDeserializationSchema<T> deserializer,
            MySqlSourceReaderMetrics metrics,
            MySqlSourceConfig config,
            StatementTimes times,
            SourceProgress progress) {
        MemoizedTableFilter.install(config);
        return new BinlogBatchRecordEmitter<>(
                deserializer, metrics, config.isIncludeSchemaChanges(), times, progress);
    }

    /**
     * Flink CDC's source, whose readers share, per reader, the statement times its binlog hook
     * notes and its emitter puts on schema-change records. The reader is put together as Flink
     * CDC's own {@code createReader} does, with the hooked split reader.
     */
    private static final class HookedSource<T> extends MySqlSource<T> {

        private static final long serialVersionUID = 1L;

        private final DebeziumDeserializationSchema<T> deserializer;
        private final Duration stallTimeout;
        private final String stallTimeoutKey;
        private final List<String> databases;

        HookedSource(
                MySqlSourceConfigFactory configFactory,
                DebeziumDeserializationSchema<T> deserializer,
                Duration stallTimeout,
                String stallTimeoutKey,
                List<String> databases) {
            super(configFactory, deserializer, emitters(deserializer));
            this.deserializer = deserializer;
            this.stallTimeout = stallTimeout;
            this.stallTimeoutKey = stallTimeoutKey;
            this.databases = databases;
        }

        @Override
        public SourceReader<T, MySqlSplit> createReader(SourceReaderContext readerContext)
                throws Exception {
            SourceProgress progress = new SourceProgress();
            MySqlSourceReader<T> reader = reader(readerContext, progress, true);
            return stallTimeout.isZero()
                    ? reader
                    : new StallWatchingSourceReader<>(
                            reader,
                            reader::getNumberOfCurrentlyAssignedSplits,
                            progress,
                            stallTimeout,
                            stallTimeoutKey,
                            readerContext);
        }

        MySqlSourceReader<T> reader(
                SourceReaderContext readerContext, SourceProgress progress, boolean ownMetrics) {
            int subtask = readerContext.getIndexOfSubtask();
            MySqlSourceConfig config = getConfigFactory().createConfig(subtask);
            MySqlSourceReaderMetrics metrics =
                    new MySqlSourceReaderMetrics(readerContext.metricGroup());
            if (ownMetrics) {
                metrics.registerMetrics();
            }
            MySqlSourceReaderContext context = new MySqlSourceReaderContext(readerContext);
            StatementTimes times = new StatementTimes();
            return new MySqlSourceReader<>(
                    new FutureCompletingBlockingQueue<>(),
                    () ->
                            new StatementHookSplitReader(
                                    config,
                                    subtask,
                                    context,
                                    times,
                                    SnapshotPhaseHooks.empty(),
                                    databases),
                    emitter(deserializer, metrics, config, times, progress),
                    readerContext.getConfiguration(),
                    context,
                    config);
        }
    }
}

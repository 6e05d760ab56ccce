package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.assigners.state.PendingSplitsState;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReader;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;

import java.time.Duration;
import java.util.List;

/**
 * Flink CDC's {@link MySqlSource} (its split enumerator, enumerator checkpoint and split
 * serializer, so savepoints are Flink CDC's) with Sluice's parts in its reader: the reader stores
 * the binlog position once per batch ({@link BinlogBatchRecordEmitter}), asks the table filter once
 * per table ({@link MemoizedTableFilter}), reads one snapshot split at a time with the next one in
 * reserve ({@link ChunkPrefetchingSourceReader}) and sees each binlog statement before Debezium
 * ({@link StatementHookSplitReader}). The reader is put together from Flink CDC's public classes as
 * its own {@code createReader} does.
 */
@Internal
public final class HookedMySqlSource<T>
        extends DelegatingSource<T, MySqlSplit, PendingSplitsState> {

    private static final long serialVersionUID = 1L;

    private final MySqlSource<T> flinkCdc;
    private final DebeziumDeserializationSchema<T> deserializer;
    private final Duration stallTimeout;
    private final String stallTimeoutKey;
    private final List<String> databases;

    private HookedMySqlSource(
            MySqlSource<T> flinkCdc,
            DebeziumDeserializationSchema<T> deserializer,
            Duration stallTimeout,
            String stallTimeoutKey,
            List<String> databases) {
        super(flinkCdc);
        this.flinkCdc = flinkCdc;
        this.deserializer = deserializer;
        this.stallTimeout = stallTimeout;
        this.stallTimeoutKey = stallTimeoutKey;
        this.databases = List.copyOf(databases);
    }

    /**
     * @param flinkCdc the source as Flink CDC's builder built it
     * @param deserializer the deserializer {@code flinkCdc} was built with (it keeps its own
     *     private)
     * @param stallTimeout how long the reader may hold a split and read nothing before it fails
     *     ({@link StallWatchingSourceReader}); zero for no watch
     * @param stallTimeoutKey the timeout's option key, for the failure's message
     * @param databases regexes of the databases whose CREATE, ALTER and DROP DATABASE statements
     *     the reader passes on (none without schema changes)
     */
    public static <T> HookedMySqlSource<T> of(
            MySqlSource<T> flinkCdc,
            DebeziumDeserializationSchema<T> deserializer,
            Duration stallTimeout,
            String stallTimeoutKey,
            List<String> databases) {
        return new HookedMySqlSource<>(
                flinkCdc, deserializer, stallTimeout, stallTimeoutKey, databases);
    }

    /** The configuration of subtask {@code subtask}'s reader, a new one per call. */
    public MySqlSourceConfig config(int subtask) {
        return flinkCdc.getConfigFactory().createConfig(subtask);
    }

    @Override
    public SourceReader<T, MySqlSplit> createReader(SourceReaderContext context) {
        SourceProgress progress = new SourceProgress();
        MySqlSourceReader<T> reader =
                reader(context, config(context.getIndexOfSubtask()), progress, true);
        return stallTimeout.isZero()
                ? reader
                : new StallWatchingSourceReader<>(
                        reader,
                        reader::getNumberOfCurrentlyAssignedSplits,
                        progress,
                        stallTimeout,
                        stallTimeoutKey,
                        context);
    }

    /**
     * The reader for a reader that wraps it: no stall watch and no metrics of its own, its progress
     * marked on {@code progress}.
     */
    public MySqlSourceReader<T> innerReader(SourceReaderContext context, SourceProgress progress) {
        return reader(context, config(context.getIndexOfSubtask()), progress, false);
    }

    /**
     * Flink CDC's reader on {@code config}. The memoized filter goes onto the configuration before
     * any of the reader's split readers exists, so it is the one their Debezium dispatcher and
     * schema take. The split readers and the emitter share the statement times the binlog hook
     * notes and the emitter puts on schema-change records.
     */
    MySqlSourceReader<T> reader(
            SourceReaderContext readerContext,
            MySqlSourceConfig config,
            SourceProgress progress,
            boolean ownMetrics) {
        MemoizedTableFilter.install(config);
        int subtask = readerContext.getIndexOfSubtask();
        MySqlSourceReaderMetrics metrics =
                new MySqlSourceReaderMetrics(readerContext.metricGroup());
        if (ownMetrics) {
            metrics.registerMetrics();
        }
        MySqlSourceReaderContext context = new MySqlSourceReaderContext(readerContext);
        StatementTimes times = new StatementTimes();
        ChunkTimings timings = new ChunkTimings(subtask);
        return new ChunkPrefetchingSourceReader<>(
                () ->
                        new StatementHookSplitReader(
                                config,
                                subtask,
                                context,
                                times,
                                SnapshotPhaseHooks.empty(),
                                databases,
                                timings),
                new BinlogBatchRecordEmitter<>(
                        deserializer, metrics, config.isIncludeSchemaChanges(), times, progress),
                readerContext.getConfiguration(),
                context,
                config);
    }
}

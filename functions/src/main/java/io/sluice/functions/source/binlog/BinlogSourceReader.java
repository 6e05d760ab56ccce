package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.debezium.DebeziumUtils;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitAssignedEvent;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaEvent;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffsetUtils;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.ChunkUtils;
import org.apache.flink.cdc.connectors.mysql.table.StartupMode;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.util.FlinkRuntimeException;

import io.debezium.connector.mysql.MySqlConnection;
import io.debezium.relational.Table;
import io.debezium.relational.TableId;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.NewTables;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.internal.ChangeRecordConverter;
import io.sluice.functions.source.internal.DdlClassifier;
import io.sluice.functions.source.internal.MemoizedTableFilter;
import io.sluice.functions.source.internal.ServerCollations;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.SourceProgress;
import io.sluice.serializers.event.ChangeEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Sluice's source reader of Flink CDC's binlog split: {@link BinlogReader} on a thread of its own,
 * its changes handed to the task thread in reused batches ({@link BinlogHandover}).
 *
 * <p>The split's starting offset is where the reader starts ({@link BinlogPosition}; latest and
 * timestamp offsets are resolved as Flink CDC's reader resolves them). Its checkpoint is the same
 * split with the position after the last change emitted as starting offset and the table schemas of
 * that point ({@link TableSchemas}) as the split's table schemas, Flink CDC's own carrier of its
 * reader's schemas. A restore goes on with the checkpoint's tables alone; a start, or a split of
 * Flink CDC's reader, reads the captured tables from information_schema and puts the split's over
 * them ({@link SplitSchemas}).
 *
 * <p>A binlog split handed over from a snapshot is first completed with its finished chunks ({@link
 * BinlogSplitAssembly}); from then on a row change the snapshot already holds is left out ({@link
 * SnapshotHandOver}). Snapshot splits are read by Flink CDC's reader ({@link
 * SnapshotThenBinlogReader}).
 */
@Internal
public final class BinlogSourceReader implements SourceReader<ChangeEvent, MySqlSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogSourceReader.class);

    private static final int BATCH = 1024;

    private final SourceReaderContext context;
    private final MySqlSourceConfig config;
    private final ZoneId timestampZone;
    private final Duration heartbeatInterval;
    private final StatementLoggedChanges statementLoggedChanges;
    private final String statementLoggedChangesKey;
    private final Predicate<String> capturedDatabase;
    private final BinlogHandover handover = new BinlogHandover(BATCH);
    private final BinlogSplitAssembly assembly;
    private final SourceProgress progress;
    private final BinlogReaderMetrics metrics;
    private final OnDemandMetrics onDemandMetrics;
    private final OnDemand onDemandSettings;

    /** The on-demand snapshots' state as of the last entry emitted. */
    private OnDemandState onDemand = OnDemandState.EMPTY;

    private final SourceJdbc hosts;

    private MySqlBinlogSplit split;

    /**
     * Where the reader starts, resolved on the task thread when it is given the split, which then
     * starts there: a checkpoint taken before the first entry holds this position. Holding the
     * split's "latest" instead, a restore would resolve it again, at the binlog's end then, and
     * skip every change emitted after that checkpoint.
     */
    private BinlogPosition start;

    /** After the last entry emitted; null while none was. */
    private BinlogPosition position;

    /** The schemas as of the last entry emitted that carried them; null while none did. */
    private TableSchemas.State schemas;

    private MySqlBinlogSplit checkpointed;
    private BinlogPosition checkpointedAt;
    private OnDemandState checkpointedOnDemand;
    private Thread thread;
    private volatile BinlogReader reader;
    private volatile OnDemandSnapshots onDemandSnapshots;
    private volatile boolean closing;

    BinlogSourceReader(
            SourceReaderContext context,
            MySqlSourceConfig config,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            StatementLoggedChanges statementLoggedChanges,
            String statementLoggedChangesKey,
            SourceJdbc hosts,
            SourceProgress progress,
            OnDemand onDemandSettings) {
        this.context = context;
        this.hosts = hosts;
        this.onDemandSettings = onDemandSettings;
        this.onDemandMetrics = OnDemandMetrics.register(context.metricGroup().addGroup("sluice"));
        this.progress = progress;
        this.metrics = BinlogReaderMetrics.register(context.metricGroup());
        this.config = config;
        this.timestampZone = timestampZone;
        this.heartbeatInterval =
                heartbeatInterval.isZero() ? Duration.ofSeconds(30) : heartbeatInterval;
        this.statementLoggedChanges = statementLoggedChanges;
        this.statementLoggedChangesKey = statementLoggedChangesKey;
        Set<Pattern> patterns =
                databases.stream()
                        .map(regex -> Pattern.compile(regex, Pattern.CASE_INSENSITIVE))
                        .collect(Collectors.toSet());
        this.capturedDatabase =
                database -> patterns.stream().anyMatch(p -> p.matcher(database).matches());
        this.assembly = new BinlogSplitAssembly(context, config.getSplitMetaGroupSize());
    }

    @Override
    public void start() {
        if (!holdsSplit()) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<MySqlSplit> splits) {
        for (MySqlSplit added : splits) {
            if (!added.isBinlogSplit()) {
                throw new IllegalStateException(
                        String.format(
                                "'%s' = 'sluice' was built to start in the binlog, but the source"
                                        + " was given the snapshot split %s; a snapshot is read"
                                        + " with '%s' = 'initial'",
                                MySqlSourceOptions.READER.key(),
                                added.splitId(),
                                MySqlSourceOptions.STARTUP_MODE.key()));
            }
            if (split != null || assembly.pending() != null) {
                throw new IllegalStateException(
                        "A second binlog split " + added + " next to " + split);
            }
            context.sendSourceEventToCoordinator(new BinlogSplitAssignedEvent());
            MySqlBinlogSplit complete = assembly.begin(added.asBinlogSplit());
            if (complete != null) {
                startReading(complete);
            }
        }
    }

    /** Whether this reader holds the binlog split, complete or not. */
    boolean holdsSplit() {
        return split != null || assembly.pending() != null;
    }

    private void startReading(MySqlBinlogSplit complete) {
        BinlogOffset offset = complete.getStartingOffset();
        try {
            start = startOf(offset);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new FlinkRuntimeException(
                    "Sluice's binlog reader could not resolve its start " + offset, e);
        }
        // Checkpointed until the first entry: a start resolved to a file (latest, earliest, a
        // timestamp), with the split's own tables; a GTID set alone resolves the same again.
        boolean resolvedToFile =
                (offset.getFilename() == null || offset.getFilename().isEmpty())
                        && !start.file().isEmpty();
        split =
                resolvedToFile
                        ? new MySqlBinlogSplit(
                                complete.splitId(),
                                start.toBinlogOffset(),
                                complete.getEndingOffset(),
                                complete.getFinishedSnapshotSplitInfos(),
                                complete.getTableSchemas(),
                                complete.getTotalFinishedSplitSize(),
                                complete.isSuspended())
                        : complete;
        onDemand = OnDemandState.of(split.getStartingOffset().getOffset());
        thread = new Thread(this::read, "sluice-binlog-reader-" + context.getIndexOfSubtask());
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<ChangeEvent> output) throws Exception {
        BinlogHandover.Batch batch = handover.poll();
        if (batch == null) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        progress.mark(); // changes and heartbeats alike: the stall watch's progress
        for (int i = 0; i < batch.size; i++) {
            ChangeEvent change = batch.changes[i];
            if (change != null) {
                collect(output, change);
            }
            if (batch.schemas[i] != null) {
                schemas = batch.schemas[i];
            }
            OnDemandSnapshots.Entry snapshot = batch.snapshots[i];
            if (snapshot != null) {
                // A chunk's rows in one go: no checkpoint falls among them.
                for (ChangeEvent row : snapshot.rows) {
                    collect(output, row);
                }
                onDemand = snapshot.state;
            }
        }
        position = batch.after(batch.size - 1);
        handover.recycle(batch);
        return InputStatus.MORE_AVAILABLE;
    }

    private static void collect(ReaderOutput<ChangeEvent> output, ChangeEvent change) {
        long time = change.executeTime();
        if (time > 0) {
            output.collect(change, time);
        } else {
            output.collect(change);
        }
    }

    /** How many splits this reader holds: the binlog split, once given. */
    int assignedSplits() {
        return holdsSplit() ? 1 : 0;
    }

    @Override
    public List<MySqlSplit> snapshotState(long checkpointId) {
        if (split == null) {
            MySqlBinlogSplit pending = assembly.pending();
            return pending == null ? List.of() : List.of(pending);
        }
        if (position == null) {
            return List.of(split);
        }
        if (checkpointed == null
                || !position.equals(checkpointedAt)
                || onDemand != checkpointedOnDemand) {
            checkpointed = SplitSchemas.checkpoint(split, position, schemas, onDemand);
            checkpointedAt = position;
            checkpointedOnDemand = onDemand;
        }
        return List.of(checkpointed);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return handover.available();
    }

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof BinlogSplitMetaEvent) {
            MySqlBinlogSplit complete = assembly.accept((BinlogSplitMetaEvent) event);
            if (complete != null) {
                startReading(complete);
            }
            return;
        }
        LOG.debug("Sluice's binlog reader passes over the enumerator's {}", event);
    }

    @Override
    public void close() throws Exception {
        closing = true;
        handover.close();
        BinlogReader running = reader;
        if (running != null) {
            running.close();
        }
        OnDemandSnapshots snapshots = onDemandSnapshots;
        if (snapshots != null) {
            snapshots.close();
        }
        if (thread != null) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /** The reading thread: the start position, the schemas there, then the binlog. */
    private void read() {
        ServerCollations collations = null;
        try {
            // The hosts of the list, not Flink CDC's one: the host chosen at job start.
            SourceJdbc jdbc = hosts;
            MemoizedTableFilter filter =
                    new MemoizedTableFilter(
                            config.getTableFilter()::test, MemoizedTableFilter.MAX_TABLES);
            SnapshotSignals signals =
                    onDemandSettings.signalTable == null
                            ? null
                            : SnapshotSignals.of(
                                    onDemandSettings.signalTable, onDemandSettings.signalTableKey);
            OnDemandSnapshots[] snapshots = new OnDemandSnapshots[1];
            // The signal table is read (its rows are signals, not emitted); a table that appeared
            // while the job ran is left out with new-tables: ignore.
            BiPredicate<String, String> captured =
                    (database, table) ->
                            (filter.isIncluded(new TableId(database, null, table))
                                            || (signals != null
                                                    && signals.name()
                                                            .equals(database + "." + table)))
                                    && (snapshots[0] == null
                                            || !snapshots[0].ignores(database, table));
            TableSchemas tables = SplitSchemas.of(split, jdbc, captured, timestampZone);
            collations = new ServerCollations(jdbc);
            SnapshotHandOver handOver =
                    SnapshotHandOver.of(
                            split.getFinishedSnapshotSplitInfos(),
                            chunkKeyColumns(tables.snapshot().tables()),
                            ZoneId.of(config.getServerTimeZone()),
                            timestampZone,
                            collations::ofColumn);
            handover.put(null, start, tables.snapshot());
            BinlogReader binlog =
                    BinlogReader.builder(hosts)
                            .serverId(config.getServerIdRange().getServerId(subtask()))
                            .heartbeatInterval(heartbeatInterval)
                            // source.include-queries, which Flink CDC's reader takes as this.
                            .includeQueries(
                                    Boolean.parseBoolean(
                                            config.getDbzProperties().getProperty("include.query")))
                            .statementLoggedChanges(
                                    statementLoggedChanges, statementLoggedChangesKey)
                            .build(
                                    tables,
                                    onDemand(
                                            new Output(tables, captured, handOver),
                                            tables,
                                            captured,
                                            jdbc,
                                            signals,
                                            snapshots));
            reader = binlog;
            if (closing) {
                return;
            }
            LOG.info("Sluice's binlog reader starts at {}", start);
            binlog.run(start);
        } catch (Throwable t) {
            if (!closing) {
                handover.fail(t);
            }
        } finally {
            // Its worker ends with the reading thread, also when close() ran before it was
            // built: a worker left waiting keeps the job's class loader on the TaskManager.
            OnDemandSnapshots snapshots = onDemandSnapshots;
            if (snapshots != null) {
                snapshots.close();
            }
            if (collations != null) {
                collations.close();
            }
        }
    }

    /**
     * The reader's output, behind the on-demand snapshots (which emit into the handover too) only
     * when something can ask for one: a signal table, new tables other than stream-only, or a
     * checkpoint taken mid-snapshot. Otherwise the output is the reader's own, unwrapped.
     */
    private BinlogReader.Output onDemand(
            Output output,
            TableSchemas tables,
            BiPredicate<String, String> captured,
            SourceJdbc jdbc,
            SnapshotSignals signals,
            OnDemandSnapshots[] holder) {
        OnDemandState restored = OnDemandState.of(split.getStartingOffset().getOffset());
        if (signals == null
                && onDemandSettings.newTables == NewTables.STREAM_ONLY
                && restored.queue().isEmpty()
                && restored.ignored().isEmpty()) {
            return output;
        }
        OnDemandSnapshots.Sink sink =
                new OnDemandSnapshots.Sink() {
                    @Override
                    public void snapshot(OnDemandSnapshots.Entry entry, BinlogPosition at) {
                        handover.put(entry, at);
                    }

                    @Override
                    public void fail(Throwable cause) {
                        if (!closing) {
                            handover.fail(cause);
                        }
                    }
                };
        OnDemandSnapshots snapshots =
                new OnDemandSnapshots(
                        output,
                        sink,
                        tables,
                        captured,
                        jdbc,
                        timestampZone,
                        onDemandSettings.chunkSize,
                        signals,
                        onDemandSettings.newTables,
                        onDemandMetrics,
                        restored,
                        "sluice-on-demand-snapshot-" + subtask());
        holder[0] = snapshots;
        onDemandSnapshots = snapshots;
        return snapshots;
    }

    /** The on-demand snapshots' settings: the signal table, the chunk size, new tables. */
    static final class OnDemand implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final String signalTable;
        final String signalTableKey;
        final int chunkSize;
        final NewTables newTables;

        OnDemand(String signalTable, String signalTableKey, int chunkSize, NewTables newTables) {
            this.signalTable = signalTable;
            this.signalTableKey = signalTableKey;
            this.chunkSize = chunkSize;
            this.newTables = newTables;
        }
    }

    private int subtask() {
        return context.getIndexOfSubtask();
    }

    /** The binlog time of the first row change to emit: the second of a timestamp start. */
    private static long notBeforeMillis(StartupOptions startup) {
        return startup.startupMode == StartupMode.TIMESTAMP && startup.binlogOffset != null
                ? startup.binlogOffset.getTimestampSec() * 1000
                : Long.MIN_VALUE;
    }

    /**
     * A split's starting offset as a position; latest and timestamp offsets are resolved, and a
     * GTID set alone is a start after it ({@link BinlogPosition#afterGtids}).
     */
    private BinlogPosition startOf(BinlogOffset offset) throws Exception {
        BinlogOffset effective = offset;
        if (offset.getFilename() == null || offset.getFilename().isEmpty()) {
            try (MySqlConnection connection = DebeziumUtils.createMySqlConnection(config)) {
                effective = BinlogOffsetUtils.initializeEffectiveOffset(offset, connection, config);
            }
        }
        if (effective.getFilename() == null || effective.getFilename().isEmpty()) {
            String gtids = effective.getGtidSet();
            if (gtids == null || gtids.isBlank()) {
                throw new IllegalArgumentException(
                        String.format(
                                "'%s' = 'sluice' cannot start at %s, which names neither a"
                                        + " binlog file nor a GTID set",
                                MySqlSourceOptions.READER.key(), offset));
            }
            return BinlogPosition.afterGtids(gtids);
        }
        return BinlogPosition.fromBinlogOffset(effective);
    }

    /**
     * The chunk key column of each table, by Flink CDC's rule (the table's entry of
     * source.snapshot.chunk-key-columns, else its first primary-key column); null for a table that
     * is gone, whose changes no longer come.
     */
    private Function<TableId, String> chunkKeyColumns(List<Table> tables) {
        Map<TableId, Table> byId =
                tables.stream().collect(Collectors.toMap(Table::id, table -> table, (a, b) -> b));
        return id -> {
            Table table = byId.get(id);
            return table == null
                    ? null
                    : ChunkUtils.getChunkKeyColumn(table, config.getChunkKeyColumns()).name();
        };
    }

    /** The reading thread's output: into the handover, DDL statements as events if captured. */
    private final class Output implements BinlogReader.Output {
        private final long notBeforeMillis = notBeforeMillis(config.getStartupOptions());
        private final TableSchemas tables;
        private final BiPredicate<String, String> captured;
        private final SnapshotHandOver handOver;

        Output(
                TableSchemas tables,
                BiPredicate<String, String> captured,
                SnapshotHandOver handOver) {
            this.tables = tables;
            this.captured = captured;
            this.handOver = handOver;
        }

        @Override
        public void change(ChangeEvent change, BinlogPosition after) {
            metrics.fetched(change.executeTime());
            if (beforeStart(change)) {
                return;
            }
            ChangeEvent emitted = handOver.emitted(change, after);
            if (emitted != null) {
                handover.put(emitted, after, null);
            }
        }

        /**
         * A position is built per row only while the snapshot's chunks are still checked. The
         * changes are staged and handed over once the reader caught up with the server (or a batch
         * is full): one hand-over and wake-up of the task thread per read of the socket rather than
         * per rows event, and none later than before the reader waits.
         */
        @Override
        public void change(ChangeEvent change, BinlogPosition transaction, long events, long rows) {
            if (rows == 0) {
                metrics.fetched(change.executeTime()); // one fetch lag per rows event
            }
            if (beforeStart(change)) {
                return;
            }
            ChangeEvent emitted =
                    handOver.isDone()
                            ? change
                            : handOver.emitted(change, transaction.withCounts(events, rows));
            if (emitted != null) {
                handover.add(emitted, transaction, events, rows);
            }
        }

        /**
         * A start at a timestamp is resolved to the start of the binlog file it falls in: the row
         * changes of that file written before the timestamp's second are not the job's (Flink CDC's
         * reader drops them too; DDL statements still apply, for the tables' columns).
         */
        private boolean beforeStart(ChangeEvent change) {
            return change.executeTime() < notBeforeMillis;
        }

        @Override
        public void caughtUp() {
            handover.flush();
        }

        @Override
        public void ddl(
                String statement, String database, RowsEventOrigin origin, BinlogPosition after) {
            handover.put(statementEvent(statement, database, origin), after, tables.snapshot());
        }

        @Override
        public void heartbeat(BinlogPosition at) {
            handover.put(null, at, null);
        }

        @Override
        public void skippedStatement(String statement, String database, RowsEventOrigin origin) {
            metrics.skippedStatement();
        }

        @Override
        public void connectedTo(long serverId, String uuid, String address, boolean moved) {
            metrics.connectedTo(serverId, uuid, address, moved);
        }

        /** The statement's event if schema changes are emitted and it is on what is captured. */
        private ChangeEvent statementEvent(String sql, String database, RowsEventOrigin origin) {
            if (!config.isIncludeSchemaChanges()) {
                return null;
            }
            DdlClassifier.Statement statement = DdlClassifier.classify(sql, database);
            boolean emitted =
                    statement.isDatabaseStatement()
                            ? capturedDatabase.test(statement.database())
                            : !statement.table().isEmpty()
                                    && captured.test(statement.database(), statement.table());
            if (!emitted) {
                return null;
            }
            return ChangeRecordConverter.statement(
                    statement,
                    sql,
                    origin.executeTime(),
                    origin.gtid(),
                    origin.file(),
                    origin.position(),
                    origin.serverId());
        }
    }
}

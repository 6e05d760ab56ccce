package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.assigners.state.PendingSplitsState;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.connector.base.source.reader.SourceReaderBase;

import io.sluice.functions.source.NewTables;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.internal.DelegatingSource;
import io.sluice.functions.source.internal.HookedMySqlSource;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.SourceProgress;
import io.sluice.functions.source.internal.StallWatchingSourceReader;
import io.sluice.serializers.event.ChangeEvent;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Flink CDC's {@link MySqlSource} (its split enumerator, enumerator checkpoint and split
 * serializer, reached through the public {@code Source} interface) with Sluice's source reader
 * ({@link BinlogSourceReader}) for the binlog split; with a snapshot first, Flink CDC's reader as
 * {@link HookedMySqlSource} builds it reads the snapshot splits ({@link SnapshotThenBinlogReader}).
 * The splits and their serialized form are Flink CDC's, so a savepoint moves between this source
 * and Flink CDC's own reader at the same position.
 */
@Internal
public final class BinlogSource
        extends DelegatingSource<ChangeEvent, MySqlSplit, PendingSplitsState> {

    private static final long serialVersionUID = 1L;

    private final HookedMySqlSource<ChangeEvent> flinkCdc;
    private final ZoneId timestampZone;
    private final Duration heartbeatInterval;
    private final List<String> databases;
    private final boolean snapshotFirst;
    private final Duration stallTimeout;
    private final String stallTimeoutKey;
    private final StatementLoggedChanges statementLoggedChanges;
    private final String statementLoggedChangesKey;
    private final BinlogSourceReader.OnDemand onDemand;
    private final SourceJdbc hosts;

    private BinlogSource(
            HookedMySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            boolean snapshotFirst,
            Duration stallTimeout,
            String stallTimeoutKey,
            StatementLoggedChanges statementLoggedChanges,
            String statementLoggedChangesKey,
            BinlogSourceReader.OnDemand onDemand,
            SourceJdbc hosts) {
        super(flinkCdc);
        this.onDemand = onDemand;
        this.hosts = hosts;
        this.flinkCdc = flinkCdc;
        this.timestampZone = timestampZone;
        this.heartbeatInterval = heartbeatInterval;
        this.databases = List.copyOf(databases);
        this.snapshotFirst = snapshotFirst;
        this.stallTimeout = stallTimeout;
        this.stallTimeoutKey = stallTimeoutKey;
        this.statementLoggedChanges = statementLoggedChanges;
        this.statementLoggedChangesKey = statementLoggedChangesKey;
    }

    /**
     * @param flinkCdc the source whose enumerator, configuration and, with a snapshot first,
     *     snapshot reader this takes
     * @param timestampZone the zone TIMESTAMP values are written in
     * @param heartbeatInterval how often an idle server sends a heartbeat
     * @param databases regexes of the databases whose CREATE, ALTER and DROP DATABASE statements
     *     are emitted (none without schema changes)
     * @param snapshotFirst whether the enumerator hands out snapshot splits before the binlog split
     *     (startup mode initial)
     * @param stallTimeout how long the reader may hold a split and read nothing before it fails
     *     ({@link StallWatchingSourceReader}); zero for no watch
     * @param stallTimeoutKey the timeout's option key, for the failure's message
     * @param statementLoggedChanges what a change of a captured table that the binlog holds as a
     *     statement does
     * @param statementLoggedChangesKey that option's key, for messages
     * @param signalTable the signal table as database.table, null for none
     * @param signalTableKey that option's key, for messages
     * @param onDemandChunkSize rows per chunk of an on-demand snapshot
     * @param newTables what a table that appears while the job runs gets
     * @param hosts the source's hosts ({@code hostname}): Flink CDC's configuration has the one
     *     chosen at job start, the binlog reader chooses again on each reconnect
     */
    public static BinlogSource of(
            HookedMySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            boolean snapshotFirst,
            Duration stallTimeout,
            String stallTimeoutKey,
            StatementLoggedChanges statementLoggedChanges,
            String statementLoggedChangesKey,
            String signalTable,
            String signalTableKey,
            int onDemandChunkSize,
            NewTables newTables,
            SourceJdbc hosts) {
        if (signalTable != null) {
            SnapshotSignals.of(signalTable, signalTableKey); // fails at build time, not in the job
        }
        if (onDemandChunkSize < 1) {
            throw new IllegalArgumentException(
                    "The on-demand snapshot's chunk size must be at least 1, got "
                            + onDemandChunkSize);
        }
        return new BinlogSource(
                flinkCdc,
                timestampZone,
                heartbeatInterval,
                databases,
                snapshotFirst,
                stallTimeout,
                stallTimeoutKey,
                statementLoggedChanges,
                statementLoggedChangesKey,
                new BinlogSourceReader.OnDemand(
                        signalTable, signalTableKey, onDemandChunkSize, newTables),
                hosts);
    }

    /**
     * Sluice's binlog reader, behind Flink CDC's snapshot reader with a snapshot first; one stall
     * watch over both, fed by both readers' progress, and one set of reader metrics (Flink CDC's
     * reader registers none here, so the fetch lag is the binlog reader's).
     */
    @Override
    public SourceReader<ChangeEvent, MySqlSplit> createReader(SourceReaderContext context)
            throws Exception {
        int subtask = context.getIndexOfSubtask();
        SourceProgress progress = new SourceProgress();
        BinlogSourceReader binlog =
                new BinlogSourceReader(
                        context,
                        flinkCdc.config(subtask),
                        timestampZone,
                        heartbeatInterval,
                        databases,
                        statementLoggedChanges,
                        statementLoggedChangesKey,
                        hosts,
                        progress,
                        onDemand);
        SourceReader<ChangeEvent, MySqlSplit> reader = binlog;
        IntSupplier splits = binlog::assignedSplits;
        if (snapshotFirst) {
            SourceReaderBase<?, ChangeEvent, MySqlSplit, ?> snapshot =
                    flinkCdc.innerReader(context, progress);
            reader = new SnapshotThenBinlogReader(snapshot, binlog);
            splits = () -> snapshot.getNumberOfCurrentlyAssignedSplits() + binlog.assignedSplits();
        }
        return stallTimeout.isZero()
                ? reader
                : new StallWatchingSourceReader<>(
                        reader, splits, progress, stallTimeout, stallTimeoutKey, context);
    }
}

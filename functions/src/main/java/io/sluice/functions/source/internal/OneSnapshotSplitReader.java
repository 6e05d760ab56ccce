package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSplitReader;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink CDC's split reader, handed one snapshot split at a time, so that each snapshot split is
 * read by a fresh snapshot split reader.
 *
 * <p>Flink CDC 3.5.0 reuses its snapshot split reader when a second snapshot split is queued behind
 * the one being read, but that reader's change-event-source context stays stopped after the first
 * split: a second chunk whose binlog moved while it was read (any write to the server) starts its
 * backfill with a stopped context, the backfill returns without the binlog-end event, and the
 * reader waits for it forever (upstream FLINK-39207, fixed after 3.5.0). A reader holds two
 * snapshot splits at once: the next chunk in reserve ({@link ChunkPrefetchingSourceReader}), and
 * after a restore its unfinished split and another. Here the others wait until Flink CDC reports
 * the one it has finished; Flink CDC then has no split queued and closes its reader, and the next
 * split is handed over at the next fetch.
 *
 * <p>Each snapshot split is read by a {@link TypedBackfillSnapshotReader}, put where Flink CDC
 * keeps its snapshot reader as the split is handed over, before Flink CDC would build its own.
 */
class OneSnapshotSplitReader extends MySqlSplitReader {

    private final ArrayDeque<MySqlSplit> waiting = new ArrayDeque<>();
    private final MySqlSourceConfig config;
    private final int subtask;
    private final SnapshotPhaseHooks hooks;
    private final ServerCollations serverCollations;
    private final BackfillCollations collations;
    private final ChunkTimings timings;
    @Nullable private String reading;

    OneSnapshotSplitReader(
            MySqlSourceConfig config,
            int subtask,
            MySqlSourceReaderContext context,
            SnapshotPhaseHooks hooks,
            ChunkTimings timings) {
        super(config, subtask, context, hooks);
        this.config = config;
        this.subtask = subtask;
        this.hooks = hooks;
        this.serverCollations =
                new ServerCollations(
                        SourceJdbc.of(
                                config.getHostname(),
                                config.getPort(),
                                config.getUsername(),
                                config.getPassword(),
                                SourceTls.fromDebezium(config.getDbzProperties())));
        this.collations = new BackfillCollations(serverCollations);
        this.timings = timings;
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            serverCollations.close();
        }
    }

    @Override
    public RecordsWithSplitIds<SourceRecords> fetch() throws IOException {
        handOverNextSnapshotSplit();
        RecordsWithSplitIds<SourceRecords> records = super.fetch();
        if (reading != null && records.finishedSplits().contains(reading)) {
            reading = null;
            timings.finished();
        }
        return records;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<MySqlSplit> changes) {
        if (!(changes instanceof SplitsAddition)) {
            super.handleSplitsChanges(changes);
            return;
        }
        List<MySqlSplit> binlogSplits = new ArrayList<>();
        for (MySqlSplit split : changes.splits()) {
            if (split.isSnapshotSplit()) {
                waiting.add(split);
            } else {
                binlogSplits.add(split);
            }
        }
        if (!binlogSplits.isEmpty()) {
            super.handleSplitsChanges(new SplitsAddition<>(binlogSplits));
        }
        handOverNextSnapshotSplit();
    }

    private void handOverNextSnapshotSplit() {
        if (reading == null && !waiting.isEmpty()) {
            MySqlSplit next = waiting.poll();
            reading = next.splitId();
            // Flink CDC closes and drops its snapshot reader after each split.
            long opening = System.nanoTime();
            if (FlinkCdcFields.get(FlinkCdcFields.SNAPSHOT_READER, this) == null) {
                FlinkCdcFields.set(
                        FlinkCdcFields.SNAPSHOT_READER,
                        this,
                        TypedBackfillSnapshotReader.create(
                                config, subtask, hooks, collations, timings));
            }
            timings.submitted(System.nanoTime() - opening);
            super.handleSplitsChanges(new SplitsAddition<>(List.of(next)));
        }
    }
}

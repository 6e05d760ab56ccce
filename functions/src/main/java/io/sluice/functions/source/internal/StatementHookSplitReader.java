package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.debezium.DebeziumUtils;
import org.apache.flink.cdc.connectors.mysql.debezium.reader.BinlogSplitReader;
import org.apache.flink.cdc.connectors.mysql.debezium.task.context.StatefulTaskContext;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Flink CDC's split reader (one snapshot split at a time: {@link OneSnapshotSplitReader}), whose
 * binlog split reader has {@link BinlogStatementHook} on its binlog client ahead of Debezium's
 * listener. Flink CDC builds that reader privately when it first reads a binlog split, so this one
 * builds it, the same way, as a binlog split arrives, and puts it where Flink CDC keeps it: the
 * reader is then the one Flink CDC reuses, closes and, after closing, replaces (by the next binlog
 * split's arrival, through here again).
 */
@Internal
public final class StatementHookSplitReader extends OneSnapshotSplitReader {

    private final MySqlSourceConfig config;
    private final int subtask;
    private final StatementTimes times;
    private final Predicate<String> capturedDatabase;

    /**
     * @param databases regexes of the databases whose CREATE, ALTER and DROP DATABASE statements
     *     the reader passes on (matched as Debezium matches its database list: whole name, any
     *     case); none to pass on none
     */
    public StatementHookSplitReader(
            MySqlSourceConfig config,
            int subtask,
            MySqlSourceReaderContext context,
            StatementTimes times,
            SnapshotPhaseHooks hooks,
            List<String> databases) {
        this(config, subtask, context, times, hooks, databases, new ChunkTimings(subtask));
    }

    /**
     * @param timings the snapshot chunk timings of the source reader, which outlive each split
     *     reader (Flink closes an idle fetcher and its split reader after each snapshot split)
     */
    StatementHookSplitReader(
            MySqlSourceConfig config,
            int subtask,
            MySqlSourceReaderContext context,
            StatementTimes times,
            SnapshotPhaseHooks hooks,
            List<String> databases,
            ChunkTimings timings) {
        super(config, subtask, context, hooks, timings);
        this.config = config;
        this.subtask = subtask;
        this.times = times;
        Set<Pattern> patterns =
                databases.stream()
                        .map(regex -> Pattern.compile(regex, Pattern.CASE_INSENSITIVE))
                        .collect(Collectors.toSet());
        this.capturedDatabase =
                database ->
                        patterns.stream().anyMatch(pattern -> pattern.matcher(database).matches());
    }

    @Override
    public void handleSplitsChanges(SplitsChange<MySqlSplit> changes) {
        if (changes.splits().stream().anyMatch(MySqlSplit::isBinlogSplit)) {
            installBinlogReader();
        }
        super.handleSplitsChanges(changes);
    }

    private void installBinlogReader() {
        if (FlinkCdcFields.get(FlinkCdcFields.BINLOG_READER, this) != null) {
            return;
        }
        StatefulTaskContext context =
                new StatefulTaskContext(
                        config,
                        DebeziumUtils.createBinaryClient(config.getDbzConfiguration()),
                        DebeziumUtils.createMySqlConnection(config));
        BinlogStatementHook.register(context, times, capturedDatabase);
        FlinkCdcFields.set(
                FlinkCdcFields.BINLOG_READER, this, new BinlogSplitReader(context, subtask));
    }
}

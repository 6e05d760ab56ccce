package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlRecordEmitter;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReader;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSplitReader;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;

import java.util.List;
import java.util.function.Supplier;

/**
 * Flink CDC's source reader holding one snapshot chunk in reserve. Flink CDC asks the enumerator
 * for the next chunk only once the task has emitted the last one, so reading a chunk (the fetcher)
 * and emitting the one before (the task) never overlapped: each waited for the other. Here, as soon
 * as the reader holds a single unread chunk, it asks for one more, which {@link
 * OneSnapshotSplitReader} starts reading as the first ends. A reader restored with two chunks (as
 * Flink CDC's own reader may be) holds two already and asks for none.
 */
final class ChunkPrefetchingSourceReader<T> extends MySqlSourceReader<T> {

    private final MySqlSourceReaderContext readerContext;

    ChunkPrefetchingSourceReader(
            Supplier<MySqlSplitReader> splitReaders,
            MySqlRecordEmitter<T> emitter,
            Configuration config,
            MySqlSourceReaderContext context,
            MySqlSourceConfig sourceConfig) {
        super(
                new FutureCompletingBlockingQueue<>(),
                splitReaders,
                emitter,
                config,
                context,
                sourceConfig);
        this.readerContext = context;
    }

    @Override
    public void addSplits(List<MySqlSplit> splits) {
        super.addSplits(splits);
        // Not once the binlog split is here: snapshot splits then come only with new tables, one
        // at a time, as Flink CDC hands them over between binlog reads.
        if (!readerContext.isHasAssignedBinlogSplit()
                && splits.stream().anyMatch(ChunkPrefetchingSourceReader::unread)
                && getNumberOfCurrentlyAssignedSplits() == 1) {
            context.sendSplitRequest();
        }
    }

    private static boolean unread(MySqlSplit split) {
        return split.isSnapshotSplit() && !split.asSnapshotSplit().isSnapshotReadFinished();
    }
}

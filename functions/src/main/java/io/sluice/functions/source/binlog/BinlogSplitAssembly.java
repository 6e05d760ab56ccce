package io.sluice.functions.source.binlog;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaEvent;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaRequestEvent;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The reader's side of the enumerator's protocol that completes a binlog split: the enumerator
 * sends the split without the finished chunks (their count only) and the reader asks for them in
 * groups of the source's split meta group size (Flink CDC's default, 1,000), one group at a time,
 * until it has them all. Flink CDC's reader does the same; this is Sluice's side of it.
 */
final class BinlogSplitAssembly {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogSplitAssembly.class);

    private final SourceReaderContext context;
    private final int groupSize;

    /** The split being completed; null when none is. */
    private MySqlBinlogSplit pending;

    BinlogSplitAssembly(SourceReaderContext context, int groupSize) {
        this.context = context;
        this.groupSize = groupSize;
    }

    /** {@code split} if it is complete, else null after asking for its next group. */
    MySqlBinlogSplit begin(MySqlBinlogSplit split) {
        pending = split;
        return nextOrComplete();
    }

    /** The split completed by {@code event}, or null while groups are missing. */
    MySqlBinlogSplit accept(BinlogSplitMetaEvent event) {
        if (pending == null || !pending.splitId().equals(event.getSplitId())) {
            LOG.warn("No binlog split waits for the chunks of {}", event.getSplitId());
            return null;
        }
        int have = pending.getFinishedSnapshotSplitInfos().size();
        if (event.getTotalFinishedSplitSize() < pending.getTotalFinishedSplitSize()) {
            // The enumerator knows fewer chunks (tables left the capture): take its count.
            pending =
                    MySqlBinlogSplit.toNormalBinlogSplit(
                            pending, event.getTotalFinishedSplitSize());
        } else if (event.getMetaGroupId() == have / groupSize && event.getMetaGroup() != null) {
            List<byte[]> group = event.getMetaGroup();
            // A group is sent whole; the reader may hold its first part already.
            List<FinishedSnapshotSplitInfo> added = new ArrayList<>();
            for (byte[] info :
                    group.subList(Math.min(have % groupSize, group.size()), group.size())) {
                added.add(FinishedSnapshotSplitInfo.deserialize(info));
            }
            pending = MySqlBinlogSplit.appendFinishedSplitInfos(pending, added);
        } else {
            LOG.info(
                    "Passing over chunk group {} of {}: group {} is next",
                    event.getMetaGroupId(),
                    event.getSplitId(),
                    have / groupSize);
        }
        return nextOrComplete();
    }

    /** The split while it is incomplete, for a checkpoint; null otherwise. */
    MySqlBinlogSplit pending() {
        return pending;
    }

    private MySqlBinlogSplit nextOrComplete() {
        if (pending.isCompletedSplit()) {
            MySqlBinlogSplit complete = pending;
            pending = null;
            LOG.info(
                    "The binlog split has all {} finished chunks",
                    complete.getFinishedSnapshotSplitInfos().size());
            return complete;
        }
        int have = pending.getFinishedSnapshotSplitInfos().size();
        context.sendSourceEventToCoordinator(
                new BinlogSplitMetaRequestEvent(
                        pending.splitId(), have / groupSize, pending.getTotalFinishedSplitSize()));
        return null;
    }
}

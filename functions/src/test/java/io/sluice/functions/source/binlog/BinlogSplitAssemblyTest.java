package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaEvent;
import org.apache.flink.cdc.connectors.mysql.source.events.BinlogSplitMetaRequestEvent;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.metrics.testutils.MetricListener;

import io.debezium.relational.TableId;
import io.sluice.functions.source.internal.RecordingReaderContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class BinlogSplitAssemblyTest {

    private static final String SPLIT = "binlog-split";
    private static final List<FinishedSnapshotSplitInfo> CHUNKS =
            IntStream.range(0, 5).mapToObj(BinlogSplitAssemblyTest::chunk).toList();

    private final RecordingReaderContext context =
            new RecordingReaderContext(new MetricListener(), 0);
    private final BinlogSplitAssembly assembly = new BinlogSplitAssembly(context, 2);

    @Test
    void aSplitIsCompletedGroupByGroupInOrder() {
        assertThat(assembly.begin(split(List.of()))).isNull();
        assertThat(assembly.accept(group(0))).isNull();
        // A group sent twice (a request repeated) is passed over.
        assertThat(assembly.accept(group(0))).isNull();
        assertThat(assembly.pending().getFinishedSnapshotSplitInfos()).hasSize(2);
        assertThat(assembly.accept(group(1))).isNull();
        MySqlBinlogSplit complete = assembly.accept(group(2));

        // Flink CDC's append keeps no order; the hand-over sorts the chunks itself.
        assertThat(complete.getFinishedSnapshotSplitInfos())
                .containsExactlyInAnyOrderElementsOf(CHUNKS);
        assertThat(assembly.pending()).isNull();
        assertThat(requestedGroups()).containsExactly(0, 1, 1, 2);
    }

    @Test
    void aRestoredSplitWithPartOfAGroupTakesTheRestOfIt() {
        assertThat(assembly.begin(split(CHUNKS.subList(0, 3)))).isNull();
        assertThat(assembly.accept(group(1))).isNull();
        assertThat(assembly.accept(group(2)).getFinishedSnapshotSplitInfos())
                .containsExactlyInAnyOrderElementsOf(CHUNKS);
        assertThat(requestedGroups()).containsExactly(1, 2);
    }

    @Test
    void aCompleteSplitIsTakenAsItIs() {
        MySqlBinlogSplit complete = split(CHUNKS);
        assertThat(assembly.begin(complete)).isSameAs(complete);
        assertThat(requestedGroups()).isEmpty();
    }

    private static MySqlBinlogSplit split(List<FinishedSnapshotSplitInfo> have) {
        return new MySqlBinlogSplit(
                SPLIT,
                BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4),
                BinlogOffset.ofNonStopping(),
                have,
                Map.of(),
                CHUNKS.size());
    }

    private static BinlogSplitMetaEvent group(int id) {
        List<byte[]> infos =
                CHUNKS.subList(id * 2, Math.min(CHUNKS.size(), id * 2 + 2)).stream()
                        .map(FinishedSnapshotSplitInfo::serialize)
                        .collect(Collectors.toList());
        return new BinlogSplitMetaEvent(SPLIT, id, infos, CHUNKS.size());
    }

    private static FinishedSnapshotSplitInfo chunk(int i) {
        return new FinishedSnapshotSplitInfo(
                new TableId("shop", null, "orders"),
                "shop.orders:" + i,
                i == 0 ? null : new Object[] {10L * i},
                i == 4 ? null : new Object[] {10L * (i + 1)},
                BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 100 + i));
    }

    private List<Integer> requestedGroups() {
        return context.sent().stream()
                .map(event -> ((BinlogSplitMetaRequestEvent) event).getRequestMetaGroupId())
                .toList();
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitSerializer;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The on-demand snapshots' state through a checkpoint's split (Flink CDC's split serializer), and
 * the split of an older checkpoint, which has none.
 */
class OnDemandStateTest {

    private static final BinlogPosition AT =
            BinlogPosition.of("mysql-bin.000003", 1234, 0, 0, "", 1);

    @Test
    void theQueueTheLastKeyAndTheCountsSurviveTheSplitSerializer() throws Exception {
        OnDemandState state =
                OnDemandState.EMPTY
                        .queued(new SnapshotRequest("s1", "shop", "orders", "id > 5"))
                        .queued(new SnapshotRequest("s2", "shop", "items", null))
                        .chunkDone(List.of("s42", "x00ff"), 100)
                        .chunkDone(List.of("s84", "x0100"), 99)
                        .ignoring("shop.copied");
        MySqlBinlogSplit checkpoint =
                SplitSchemas.checkpoint(
                        start(BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4)),
                        AT,
                        new TableSchemas.State("utf8mb4", Map.of(), List.of()),
                        state);
        MySqlSplitSerializer serializer = MySqlSplitSerializer.INSTANCE;
        MySqlBinlogSplit stored =
                serializer
                        .deserialize(serializer.getVersion(), serializer.serialize(checkpoint))
                        .asBinlogSplit();

        OnDemandState restored = OnDemandState.of(stored.getStartingOffset().getOffset());
        assertThat(restored).isEqualTo(state);
        assertThat(restored.current())
                .isEqualTo(new SnapshotRequest("s1", "shop", "orders", "id > 5"));
        assertThat(restored.lastKey()).containsExactly("s84", "x0100");
        assertThat(restored.chunks()).isEqualTo(2);
        assertThat(restored.rows()).isEqualTo(199);
        assertThat(restored.seen("s1")).isTrue();
        assertThat(restored.ignored()).containsExactly("shop.copied");
        assertThat(BinlogPosition.fromBinlogOffset(stored.getStartingOffset())).isEqualTo(AT);
    }

    @Test
    void anOlderCheckpointHoldsNoSnapshotAndAnEmptyStateAddsNoKey() {
        MySqlBinlogSplit checkpoint =
                SplitSchemas.checkpoint(
                        start(BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4)),
                        AT,
                        new TableSchemas.State("utf8mb4", Map.of(), List.of()));
        assertThat(checkpoint.getStartingOffset().getOffset()).doesNotContainKey(OnDemandState.KEY);
        assertThat(OnDemandState.of(checkpoint.getStartingOffset().getOffset()))
                .isEqualTo(OnDemandState.EMPTY);
    }

    @Test
    void aStopDropsTheCurrentRequestsProgressAndTheNextDoneStartsAfresh() {
        SnapshotRequest orders = new SnapshotRequest("s1", "shop", "orders", null);
        SnapshotRequest items = new SnapshotRequest("s2", "shop", "items", null);
        OnDemandState state =
                OnDemandState.EMPTY.queued(orders).queued(items).chunkDone(List.of("s7"), 7);
        OnDemandState stopped = state.without(List.of(orders), "stop-1");
        assertThat(stopped.current()).isEqualTo(items);
        assertThat(stopped.lastKey()).isEmpty();
        assertThat(stopped.rows()).isZero();
        assertThat(stopped.seen("stop-1")).isTrue();
        assertThat(state.next().current()).isEqualTo(items);
    }

    @Test
    void anUnknownVersionIsRefusedByName() {
        String unknown = java.util.Base64.getEncoder().encodeToString(new byte[] {0, 0, 0, 9});
        assertThatThrownBy(() -> OnDemandState.of(Map.of(OnDemandState.KEY, unknown)))
                .hasMessageContaining("Unknown version 9")
                .hasMessageContaining(OnDemandState.KEY);
    }

    @Test
    void chunkQueryValuesAreTheBinlogsRawForms() {
        assertThat(SnapshotChunkQuery.packedDate("2024-02-29")).isEqualTo(2024L << 9 | 2 << 5 | 29);
        assertThat(SnapshotChunkQuery.packedDate("0000-00-00")).isZero();
        assertThat(SnapshotChunkQuery.timeMicros("-00:00:00.500000")).isEqualTo(-500_000L);
        assertThat(SnapshotChunkQuery.timeMicros("838:59:59")).isEqualTo(3_020_399_000_000L);
        long ymd = (2020L * 13 + 0) << 5;
        assertThat(SnapshotChunkQuery.packedDateTime("2020-00-00 00:00:00.000001"))
                .isEqualTo((ymd << 17) << 24 | 1);
    }

    @Test
    void aSignalTableIsNamedAsDatabaseDotTable() {
        assertThat(SnapshotSignals.of("inventory.sluice_signal", "source.signal.table").name())
                .isEqualTo("inventory.sluice_signal");
        assertThatThrownBy(() -> SnapshotSignals.of("sluice_signal", "source.signal.table"))
                .hasMessageContaining("'source.signal.table'")
                .hasMessageContaining("'sluice_signal'");
    }

    private static MySqlBinlogSplit start(BinlogOffset offset) {
        return new MySqlBinlogSplit(
                "binlog-split",
                offset,
                BinlogOffset.ofNonStopping(),
                List.of(),
                Map.of(),
                0,
                false);
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitSerializer;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which splits {@link SplitSchemas} restores from their table schemas alone: a checkpoint of
 * Sluice's reader, and no start or other reader's split. The ITCase {@code SplitSchemasITCase}
 * reads a binlog with them.
 */
class SplitSchemasTest {

    private static final BinlogPosition AT =
            BinlogPosition.of("mysql-bin.000003", 1234, 2, 5, "", 1);

    @Test
    void aCheckpointOfSluicesReaderHoldsEveryFollowedTableThroughTheSplitSerializer()
            throws Exception {
        MySqlBinlogSplit checkpoint =
                SplitSchemas.checkpoint(
                        start(BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4)),
                        AT,
                        new TableSchemas.State("utf8mb4", Map.of(), List.of()));
        MySqlSplitSerializer serializer = MySqlSplitSerializer.INSTANCE;
        MySqlBinlogSplit stored =
                serializer
                        .deserialize(serializer.getVersion(), serializer.serialize(checkpoint))
                        .asBinlogSplit();

        assertThat(SplitSchemas.holdsEveryFollowedTable(stored.getStartingOffset())).isTrue();
        assertThat(BinlogPosition.fromBinlogOffset(stored.getStartingOffset())).isEqualTo(AT);
    }

    /** Checkpoints without the key: Sluice's count of rows events marks them. */
    @Test
    void anOffsetSluicesReaderWroteWithoutTheKeyHoldsEveryFollowedTable() {
        assertThat(SplitSchemas.holdsEveryFollowedTable(AT.toBinlogOffset())).isTrue();
    }

    @Test
    void aStartOrAnotherReadersCheckpointDoesNot() {
        assertThat(
                        SplitSchemas.holdsEveryFollowedTable(
                                BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4)))
                .as("a start at a file position")
                .isFalse();
        assertThat(SplitSchemas.holdsEveryFollowedTable(BinlogOffset.ofLatest()))
                .as("a start at the latest offset")
                .isFalse();
        assertThat(
                        SplitSchemas.holdsEveryFollowedTable(
                                BinlogOffset.builder()
                                        .setBinlogFilePosition("mysql-bin.000003", 1234)
                                        .setSkipEvents(4)
                                        .setSkipRows(1)
                                        .build()))
                .as("Flink CDC's reader's checkpoint")
                .isFalse();
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

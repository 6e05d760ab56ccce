package io.sluice.functions.normalize;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.HeartbeatTable;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.types.ChangeEventSerializer;
import io.sluice.functions.types.RoutedChangeSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeNormalizerTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .build();

    private static RowImage row(int id, String name) {
        return new RowImage.Builder().append(id).append(name).build();
    }

    private static ChangeEvent insert(int id, String file, long position, long executeTime) {
        return ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                .after(row(id, "x"))
                .binlog(file, position, 0)
                .executeTime(executeTime)
                .build();
    }

    /** An UPDATE of the primary key, which Normalize splits into a DELETE and an INSERT. */
    private static ChangeEvent keyChange() {
        return ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                .before(row(1, "a"))
                .after(row(2, "a"))
                .binlog("bin.000001", 500, 0)
                .build();
    }

    @Test
    void aStatementTakesOnePathAndRowsCarryTheirKeyHash() throws Exception {
        ChangeEvent alter = alter();
        ChangeEvent keyChange = keyChange();
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                harness(new ChangeNormalizer(true, null, 0))) {
            harness.processElement(alter, 0);
            harness.processElement(keyChange, 0);

            List<RoutedChange> out = harness.extractOutputValues();
            assertThat(out)
                    .extracting(c -> c.change().type())
                    .containsExactly(ChangeType.ALTER, ChangeType.DELETE, ChangeType.INSERT);
            assertThat(out.get(1).keyHash()).isNotEqualTo(out.get(2).keyHash());
            assertThat(out)
                    .allSatisfy(
                            c ->
                                    assertThat(c.keyHash())
                                            .isEqualTo(ChangeEventKeySelector.hashOf(c.change())));
        }
    }

    @Test
    void eachChangeIsRankedByTheStatementsItsSourceSubtaskHadRead() throws Exception {
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                harness(new ChangeNormalizer(false, null, 0))) {
            harness.processElement(insert(1, "bin.000001", 100, 0), 0);
            harness.processElement(alter(), 0);
            // The source's count comes right after the statement.
            harness.processWatermark(new Watermark(1));
            harness.processElement(keyChange(), 0);
            harness.processElement(alter(), 0);
            harness.processWatermark(new Watermark(2));
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            harness.processElement(insert(3, "bin.000001", 900, 0), 0);

            assertThat(harness.extractOutputValues())
                    .extracting(c -> c.change().type() + " " + c.rank())
                    .containsExactly(
                            "INSERT " + StatementRank.rowRank(Long.MIN_VALUE),
                            "ALTER " + StatementRank.statementRank(Long.MIN_VALUE),
                            // Both halves of a key change share its rank.
                            "DELETE " + StatementRank.rowRank(1),
                            "INSERT " + StatementRank.rowRank(1),
                            "ALTER " + StatementRank.statementRank(1),
                            "INSERT 0");
            assertThat(StatementRank.rowRank(Long.MIN_VALUE)).isEqualTo(1);
            assertThat(StatementRank.statementRank(1)).isEqualTo(4);
        }
    }

    @Test
    void withoutAKeyedExchangeRowsAreNotHashed() throws Exception {
        ChangeNormalizer chained = new ChangeNormalizer(false, null, 0);
        assertThat(chained.hashesKeys()).isFalse();
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                harness(chained)) {
            harness.processElement(keyChange(), 0);

            assertThat(harness.extractOutputValues())
                    .extracting(RoutedChange::keyHash)
                    .containsExactly(0, 0);
        }
    }

    private static OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness(
            ChangeNormalizer normalizer) throws Exception {
        OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(normalizer), new ChangeEventSerializer());
        harness.setup(new RoutedChangeSerializer());
        harness.open();
        return harness;
    }

    private static ChangeEvent alter() {
        return ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                .sql("ALTER TABLE items ADD c INT")
                .binlog("bin.000001", 400, 0)
                .build();
    }

    @Test
    void progressCountsRowsTransactionsSnapshotAndLag() {
        MetricListener metrics = new MetricListener();
        SourceMetrics progress = new SourceMetrics(metrics.getMetricGroup(), null, 0);
        long now = System.currentTimeMillis();

        progress.record(insert(1, "", 0, 0), now);
        progress.record(insert(2, "", 0, 0), now);
        assertThat(metrics.<Integer>getGauge("snapshotting").orElseThrow().getValue()).isEqualTo(1);
        assertThat(metrics.<Long>getGauge("lagMs").orElseThrow().getValue()).isZero();

        // Two rows of one transaction (same start position), then a second transaction.
        progress.record(insert(3, "bin.000001", 100, now - 60_000), now);
        progress.record(insert(4, "bin.000001", 100, now - 60_000), now);
        progress.record(insert(5, "bin.000001", 900, now - 30_000), now);

        assertThat(metrics.getCounter("rowsIn").orElseThrow().getCount()).isEqualTo(5);
        assertThat(metrics.getCounter("snapshotRows").orElseThrow().getCount()).isEqualTo(2);
        assertThat(metrics.getCounter("transactions").orElseThrow().getCount()).isEqualTo(2);
        assertThat(metrics.getMeter("transactionsPerSecond")).isPresent();
        // A subtask that only read chunks: snapshotting ends after a quiet spell, too.
        SourceMetrics chunksOnly =
                new SourceMetrics(new MetricListener().getMetricGroup(), null, 0);
        chunksOnly.record(insert(6, "", 0, 0), now);
        assertThat(chunksOnly.snapshotting(now + 1_000)).isEqualTo(1);
        assertThat(chunksOnly.snapshotting(now + SourceMetrics.SNAPSHOT_QUIET_MS)).isZero();
        assertThat(metrics.<Integer>getGauge("snapshotting").orElseThrow().getValue()).isZero();
        assertThat(metrics.<Long>getGauge("lagMs").orElseThrow().getValue())
                .isGreaterThanOrEqualTo(30_000);
    }

    @Test
    void heartbeatRowsMoveTheLagAndAreDropped() throws Exception {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.HEARTBEAT_TABLE, "shop.beat");
        HeartbeatTable heartbeat =
                HeartbeatTable.from(OptionSection.unprefixed(config)).orElseThrow();
        TableSchema beatSchema =
                TableSchema.builder("shop", "beat")
                        .column("id", "int(11)", Types.INTEGER, true)
                        .column("ts", "datetime(3)", Types.TIMESTAMP, false)
                        .build();
        long now = System.currentTimeMillis();
        ChangeEvent beat =
                ChangeEvent.builder(beatSchema, ChangeType.UPDATE)
                        .before(new RowImage.Builder().append(1).append("a").build())
                        .after(new RowImage.Builder().append(1).append("b").build())
                        .binlog("bin.000001", 900, 0)
                        .executeTime(now - 1_000)
                        .build();
        // The source's enumerator writes the table; Normalize only reads it back.
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new ChangeNormalizer(false, heartbeat, 0)),
                        2,
                        2,
                        1)) {
            harness.setup(new RoutedChangeSerializer());
            harness.open();
            harness.processElement(insert(1, "bin.000001", 100, now - 600_000), 0);
            harness.processElement(beat, 0);
            assertThat(harness.extractOutputValues())
                    .extracting(c -> c.change().table())
                    .containsExactly("items");
        }

        MetricListener metrics = new MetricListener();
        SourceMetrics progress = new SourceMetrics(metrics.getMetricGroup(), heartbeat, 0);
        assertThat(progress.take(insert(1, "bin.000001", 100, now - 600_000), now)).isTrue();
        assertThat(progress.lagMs()).isGreaterThanOrEqualTo(600_000);
        assertThat(progress.take(beat, now)).as("a heartbeat row goes no further").isFalse();
        // Below the row's 600 s: only the heartbeat can have moved it.
        assertThat(progress.lagMs()).isGreaterThanOrEqualTo(1_000L).isLessThan(600_000L);
        assertThat(metrics.getCounter("heartbeats").orElseThrow().getCount()).isEqualTo(1);
        assertThat(metrics.getCounter("rowsIn").orElseThrow().getCount()).isEqualTo(1);
    }

    @Test
    void heartbeatTableNamesAreChecked() {
        Configuration config = new Configuration();
        assertThat(HeartbeatTable.from(OptionSection.unprefixed(config))).isEmpty();
        config.set(MySqlSourceOptions.HEARTBEAT_TABLE, "shop.beat`; DROP");
        assertThatThrownBy(() -> HeartbeatTable.from(OptionSection.unprefixed(config)))
                .hasMessageContaining("'heartbeat-table'")
                .hasMessageContaining("letters, digits")
                .hasMessageContaining("'shop.beat`; DROP'");
        config.set(MySqlSourceOptions.HEARTBEAT_TABLE, "beat");
        assertThatThrownBy(() -> HeartbeatTable.from(OptionSection.unprefixed(config)))
                .hasMessageContaining("'beat'");
    }
}

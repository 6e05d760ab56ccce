package io.sluice.functions.normalize;

import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.route.RoutedChange;
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

    @Test
    void statementsGoToEveryRouteSubtaskAndRowsCarryTheirKeyHash() throws Exception {
        ChangeEvent alter =
                ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                        .sql("ALTER TABLE items ADD c INT")
                        .binlog("bin.000001", 400, 0)
                        .build();
        ChangeEvent keyChange =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(row(1, "a"))
                        .after(row(2, "a"))
                        .binlog("bin.000001", 500, 0)
                        .build();
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new StreamFlatMap<>(new ChangeNormalizer(3)),
                        new ChangeEventSerializer())) {
            harness.setup(new RoutedChangeSerializer());
            harness.open();
            harness.processElement(alter, 0);
            harness.processElement(keyChange, 0);

            List<RoutedChange> out = harness.extractOutputValues();
            assertThat(out).hasSize(5);
            assertThat(out.subList(0, 3)).extracting(RoutedChange::target).containsExactly(0, 1, 2);
            assertThat(out.subList(0, 3)).allSatisfy(c -> assertThat(c.copies()).isEqualTo(3));
            assertThat(out.subList(3, 5))
                    .extracting(c -> c.change().type())
                    .containsExactly(ChangeType.DELETE, ChangeType.INSERT);
            assertThat(out.subList(3, 5))
                    .allSatisfy(c -> assertThat(c.target()).isEqualTo(RoutedChange.NO_TARGET));
            assertThat(out.get(3).keyHash()).isNotEqualTo(out.get(4).keyHash());
        }
    }

    @Test
    void progressCountsRowsTransactionsSnapshotAndLag() {
        MetricListener metrics = new MetricListener();
        SourceProgress progress = new SourceProgress(metrics.getMetricGroup());
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
        SourceProgress chunksOnly = new SourceProgress(new MetricListener().getMetricGroup());
        chunksOnly.record(insert(6, "", 0, 0), now);
        assertThat(chunksOnly.snapshotting(now + 1_000)).isEqualTo(1);
        assertThat(chunksOnly.snapshotting(now + SourceProgress.SNAPSHOT_QUIET_MS)).isZero();
        assertThat(metrics.<Integer>getGauge("snapshotting").orElseThrow().getValue()).isZero();
        assertThat(metrics.<Long>getGauge("lagMs").orElseThrow().getValue())
                .isGreaterThanOrEqualTo(30_000);
    }
}

package io.sluice.serializers.bench;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BenchmarkRowsTest {

    @Test
    void wideRowsAreSixtyColumnsOfAboutOnePointTwoKilobytes() {
        List<ChangeEvent> rows = BenchmarkRows.wideInserts(100, 1);

        double meanBytes = rows.stream().mapToInt(c -> c.after().utf8().length).average().orElse(0);
        assertThat(rows.get(0).schema().columnCount()).isEqualTo(60);
        assertThat(meanBytes).isBetween(1000.0, 1400.0);
    }

    @Test
    void mixedDmlMixesAllThreeRowTypes() {
        List<ChangeEvent> rows = BenchmarkRows.mixedDml(300, 1);

        assertThat(rows)
                .extracting(ChangeEvent::type)
                .contains(ChangeType.INSERT, ChangeType.UPDATE, ChangeType.DELETE);
        assertThat(rows.get(0).schema().columnCount()).isEqualTo(10);
    }
}

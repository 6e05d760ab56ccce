package io.sluice.tools.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The round-by-round ratios pair each round with the same round of the baseline. */
class ReportTest {

    @Test
    void ratiosPairRoundsInOrderAndStopAtTheShorterList() {
        assertThat(Report.roundRatios(List.of(90.0, 120.0, 110.0), List.of(120.0, 160.0)))
                .containsExactly(0.75, 0.75);
    }

    @Test
    void theMedianOfAnOddCountIsTheMiddleOneAndOfAnEvenCountTheMeanOfTwo() {
        assertThat(Report.median(List.of(0.9, 0.7, 0.8))).isCloseTo(0.8, within(1e-9));
        assertThat(Report.median(List.of(0.9, 0.7, 0.8, 0.6))).isCloseTo(0.75, within(1e-9));
        assertThat(Report.median(List.of(1.94))).isCloseTo(1.94, within(1e-9));
    }
}

package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Statement times are found by file and position, and do not pile up. */
class StatementTimesTest {

    @Test
    void findingAStatementForgetsTheOnesBeforeItButKeepsIt() {
        StatementTimes times = new StatementTimes();
        times.put("bin.1", 100, 1000L);
        times.put("bin.1", 200, 2000L);
        times.put("bin.2", 100, 3000L);

        assertThat(times.find("bin.1", 200)).isEqualTo(2000L);
        assertThat(times.find("bin.1", 200)).as("a second table of the statement").isEqualTo(2000L);
        assertThat(times.find("bin.1", 100)).isNull();
        assertThat(times.find("bin.2", 100)).isEqualTo(3000L);
        assertThat(times.size()).isEqualTo(1);
        assertThat(times.find("bin.3", 4)).isNull();
        assertThat(times.size()).as("a miss forgets nothing").isEqualTo(1);
    }

    @Test
    void keepsAtMostItsCapacity() {
        StatementTimes times = new StatementTimes();
        for (int i = 0; i <= StatementTimes.CAPACITY; i++) {
            times.put("bin.1", i, i);
        }
        assertThat(times.size()).isEqualTo(StatementTimes.CAPACITY);
        assertThat(times.find("bin.1", 0)).as("the eldest went first").isNull();
        assertThat(times.find("bin.1", StatementTimes.CAPACITY))
                .isEqualTo((long) StatementTimes.CAPACITY);
    }
}

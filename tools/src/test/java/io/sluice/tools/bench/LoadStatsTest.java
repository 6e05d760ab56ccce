package io.sluice.tools.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LoadStatsTest {

    @Test
    void pairsAReadWithTheCommitNotedBeforeIt() {
        LoadStats stats = new LoadStats(true);
        stats.insertCommitting("events", 1);
        stats.insertCommitted("events", 1, 1_000);

        stats.inserted("events/1", 1_030);

        assertThat(stats.latencies()).containsExactly(30L);
        assertThat(stats.unreadInserts()).isEmpty();
    }

    @Test
    void pairsAReadThatCameBeforeTheLoadNotedItsCommit() {
        LoadStats stats = new LoadStats(true);
        stats.insertCommitting("events", 1);

        stats.inserted("events/1", 1_000);
        stats.insertCommitted("events", 1, 1_002);

        assertThat(stats.latencies()).containsExactly(0L);
        assertThat(stats.unreadInserts()).isEmpty();
    }

    @Test
    void samplesEachInsertOnceWhateverElseOfItsRowIsRead() {
        LoadStats stats = new LoadStats(true);
        stats.insertCommitting("orders", 7);
        stats.inserted("orders/7", 10);
        stats.inserted("orders/7", 11);
        stats.insertCommitted("orders", 7, 9);
        stats.inserted("orders/7", 12);
        stats.inserted("customers/3", 13);

        assertThat(stats.latencies()).containsExactly(1L);
        assertThat(stats.unreadInserts()).isEmpty();
    }

    @Test
    void namesInsertsNeverRead() {
        LoadStats stats = new LoadStats(true);
        stats.insertCommitting("events", 1);
        stats.insertCommitting("events", 2);
        stats.insertCommitted("events", 1, 5);
        stats.insertCommitting("events", 3);
        stats.insertCommitted("events", 3, 5);
        stats.inserted("events/3", 6);

        assertThat(stats.unreadInserts()).containsExactlyInAnyOrder("events/1", "events/2");
        assertThat(stats.latencies()).containsExactly(1L);
    }
}

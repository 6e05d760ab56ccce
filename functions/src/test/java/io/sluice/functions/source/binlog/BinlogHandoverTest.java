package io.sluice.functions.source.binlog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reading thread's handover to the task thread: order, backpressure, failure, wake-ups. */
class BinlogHandoverTest {

    @Test
    void everyEntryOnceInOrderThroughFullBatches() throws Exception {
        BinlogHandover handover = new BinlogHandover(16);
        int entries = 10_000;
        Thread reader =
                new Thread(
                        () -> {
                            for (int i = 0; i < entries; i++) {
                                handover.put(null, BinlogPosition.at("bin.000001", i), null);
                            }
                        });
        reader.start();
        List<Long> got = new ArrayList<>();
        while (got.size() < entries) {
            handover.available().get(1, TimeUnit.MINUTES);
            BinlogHandover.Batch batch = handover.poll();
            if (batch == null) {
                continue;
            }
            assertThat(batch.size).isBetween(1, 16);
            for (int i = 0; i < batch.size; i++) {
                got.add(batch.positions[i].position());
            }
            handover.recycle(batch);
        }
        reader.join();
        for (int i = 0; i < entries; i++) {
            assertThat(got.get(i)).isEqualTo(i);
        }
        assertThat(handover.poll()).isNull();
    }

    @Test
    void aFailureComesAfterTheEntriesBeforeIt() throws Exception {
        BinlogHandover handover = new BinlogHandover(16);
        CompletableFuture<Void> waiting = handover.available();
        assertThat(waiting).isNotDone();
        handover.put(null, BinlogPosition.at("bin.000001", 4), null);
        assertThat(waiting).isDone();
        handover.fail(new IllegalStateException("lost"));
        BinlogHandover.Batch batch = handover.poll();
        assertThat(batch.size).isEqualTo(1);
        handover.recycle(batch);
        assertThat(handover.available()).isDone();
        assertThatThrownBy(handover::poll)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("lost");
    }

    @Test
    void closeLetsAWaitingReaderGo() throws Exception {
        BinlogHandover handover = new BinlogHandover(1);
        handover.put(null, BinlogPosition.at("bin.000001", 4), null);
        BinlogHandover.Batch held = handover.poll();
        handover.put(null, BinlogPosition.at("bin.000001", 5), null);
        Thread blocked =
                new Thread(() -> handover.put(null, BinlogPosition.at("bin.000001", 6), null));
        blocked.start();
        handover.close();
        blocked.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(blocked.isAlive()).isFalse();
        handover.recycle(held);
        assertThat(handover.poll().positions[0].position()).isEqualTo(5);
    }
}

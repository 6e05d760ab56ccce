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
                got.add(batch.after(i).position());
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
    void addedChangesWaitForTheFlushAndKeepTheirPositions() throws Exception {
        BinlogHandover handover = new BinlogHandover(4);
        BinlogPosition transaction = BinlogPosition.of("bin.000001", 100, 0, 0, "0-1-5", 1);
        CompletableFuture<Void> waiting = handover.available();
        handover.add(null, transaction, 0, 1);
        handover.add(null, transaction, 0, 2);
        assertThat(waiting).as("staged, not handed over").isNotDone();
        assertThat(handover.poll()).isNull();
        handover.add(null, transaction, 1, 0);
        handover.flush();
        assertThat(waiting).isDone();
        BinlogHandover.Batch batch = handover.poll();
        assertThat(batch.size).isEqualTo(3);
        assertThat(batch.after(0)).isEqualTo(transaction.withCounts(0, 1));
        assertThat(batch.after(2)).isEqualTo(transaction.withCounts(1, 0));
        handover.recycle(batch);

        // More staged than a batch holds: handed over as they fill it, in order.
        Thread reader =
                new Thread(
                        () -> {
                            for (int i = 0; i < 10; i++) {
                                handover.add(null, transaction, i, 0);
                            }
                            handover.flush();
                        });
        reader.start();
        List<Long> events = new ArrayList<>();
        while (events.size() < 10) {
            handover.available().get(1, TimeUnit.MINUTES);
            BinlogHandover.Batch next = handover.poll();
            if (next == null) {
                continue;
            }
            for (int i = 0; i < next.size; i++) {
                events.add(next.after(i).events());
            }
            handover.recycle(next);
        }
        reader.join();
        assertThat(events).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void aFailureComesAfterTheEntriesBeforeIt() throws Exception {
        BinlogHandover handover = new BinlogHandover(16);
        CompletableFuture<Void> waiting = handover.available();
        assertThat(waiting).isNotDone();
        handover.put(null, BinlogPosition.at("bin.000001", 4), null);
        assertThat(waiting).isDone();
        handover.add(null, BinlogPosition.at("bin.000001", 5), 0, 1);
        handover.fail(new IllegalStateException("lost"));
        BinlogHandover.Batch batch = handover.poll();
        assertThat(batch.size).as("the staged change too").isEqualTo(2);
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
        assertThat(handover.poll().after(0).position()).isEqualTo(5);
    }
}

package io.sluice.tools.bench;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/** Threads of one role fall into one group, whatever their subtask, client id or number. */
class ResourceMeterTest {

    @Test
    void subtaskIndexesAndAttemptsAreDropped() {
        assertThat(ResourceMeter.group("Route -> Encode canal-flat (2/2)#0"))
                .isEqualTo(ResourceMeter.group("Route -> Encode canal-flat (1/2)#3"))
                .isEqualTo("Route -> Encode canal-flat");
    }

    @Test
    void clientIdsAndNumbersAreDropped() {
        assertThat(ResourceMeter.group("kafka-producer-network-thread | producer-r7-1"))
                .isEqualTo("kafka-producer-network-thread");
        assertThat(ResourceMeter.group("data-plane-kafka-request-handler-3"))
                .isEqualTo(ResourceMeter.group("data-plane-kafka-request-handler-12"))
                .isEqualTo("data-plane-kafka-request-handler-#");
        assertThat(ResourceMeter.group("blc-127.0.0.1:40123")).isEqualTo("blc-#.#.#.#:#");
    }

    @Test
    void theThreadThatUsedTheMostCpuIsTheBusiest() throws Exception {
        CountDownLatch burnt = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread burner =
                new Thread(
                        () -> {
                            burn(300_000_000L);
                            burnt.countDown();
                            // Alive until the meter's last sample, so all its CPU is counted.
                            awaitQuietly(stopped);
                        },
                        "burner-7");
        ResourceMeter.Resources resources;
        try (ResourceMeter meter = new ResourceMeter(Optional.empty())) {
            meter.start();
            burner.start();
            burnt.await();
            resources = meter.stop();
        } finally {
            stopped.countDown();
            burner.join();
        }
        assertThat(resources.busiestThread().group()).isEqualTo("burner-#");
        assertThat(resources.busiestThread().cpuSeconds()).isGreaterThanOrEqualTo(0.3);
        assertThat(resources.cpuByGroup().get("burner-#"))
                .isEqualTo(resources.busiestThread().cpuSeconds());
    }

    /** Spins until this thread has used {@code nanos} of CPU. */
    private static void burn(long nanos) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + nanos;
        while (threads.getCurrentThreadCpuTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

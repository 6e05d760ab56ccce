package io.sluice.it.bench;

import org.junit.jupiter.api.Test;

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
}

package io.sluice.it.server;

import java.time.Duration;
import java.util.List;

/** A test broker's committed message values of a topic, for tests that run on either broker. */
public interface CommittedMessages {

    /**
     * The committed values of {@code topic} (Kafka: read_committed; RocketMQ: what consumers see),
     * once at least {@code count} arrived or {@code timeout} passed.
     */
    List<byte[]> committedValues(String topic, int count, Duration timeout);
}

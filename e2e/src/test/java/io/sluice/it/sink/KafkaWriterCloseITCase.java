package io.sluice.it.sink;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.runtime.operators.sink.SinkWriterOperatorFactory;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.Waits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cancelled task closes its Kafka writer on an interrupted thread. Every producer the writer
 * opened must still close: a producer left open keeps its network thread, and through it the job's
 * class loader, for as long as the TaskManager lives (a leak per cancelled job on a session
 * cluster).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaWriterCloseITCase {

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void anInterruptedCloseStillClosesEveryProducer() throws Exception {
        String topic = "writer-close-" + System.nanoTime();
        String prefix = "writer-close-" + System.nanoTime();
        KAFKA.server().createTopic(topic, 1);
        Configuration job = new Configuration();
        job.setString("sink.kafka.bootstrap-servers", KAFKA.server().bootstrapServers());
        job.setString("sink.kafka.delivery-guarantee", "exactly-once");
        job.setString("sink.kafka.transactional-id-prefix", prefix);
        Sink<SinkMessage> sink = SinkFactory.sink(job);

        OneInputStreamOperatorTestHarness<SinkMessage, CommittableMessage<Object>> harness =
                new OneInputStreamOperatorTestHarness<>(new SinkWriterOperatorFactory<>(sink));
        harness.open();
        // A record in the open transaction: closing must abort it at the broker, and wait.
        harness.processElement(
                new StreamRecord<>(
                        new SinkMessage(
                                topic, 0, null, "row".getBytes(StandardCharsets.UTF_8), 0L)));
        assertThat(producerThreads(prefix)).as("the writer's producers").isNotEmpty();

        Thread.currentThread().interrupt(); // as Flink interrupts a task it cancels
        Exception closing = null;
        try {
            harness.close();
        } catch (Exception e) {
            closing = e;
        } finally {
            Thread.interrupted();
        }

        // Closed with a zero timeout, a producer's network thread ends soon after, not at once.
        Waits.until(
                "the writer's producer threads to end",
                WAIT,
                () -> {
                    List<String> alive = producerThreads(prefix);
                    if (!alive.isEmpty()) {
                        throw new IllegalStateException("still alive after close: " + alive);
                    }
                    return true;
                });
        assertThat(closing).as("closing the writer of a cancelled task").isNull();
    }

    private static List<String> producerThreads(String transactionalIdPrefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(
                        name ->
                                name.startsWith("kafka-producer-network-thread")
                                        && name.contains(transactionalIdPrefix))
                .toList();
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.OperatorIOMetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.MetricsGroupTestUtils;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittableSerializer;
import io.sluice.functions.sink.rocketmq.internal.FakeQueues.Outcome;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The writer against in-memory queues. Exactly-once: each checkpoint interval's messages become one
 * committable, nothing is sent, and reused buffers carry nothing over. At-least-once: sends when a
 * batch filled and on flush; a failed send fails the call that made it, counted; a cancelled one is
 * not counted.
 */
class RocketMqWriterTest {

    private static final String TOPIC = "orders";

    private final FakeQueues queues = new FakeQueues(2).topic(TOPIC, 4);
    private final RocketMqCommittableSerializer serializer = new RocketMqCommittableSerializer();

    @Test
    void exactlyOnceHandsEachIntervalToTheCheckpointAndSendsNothing() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.EXACTLY_ONCE, 2);
        writer.write(message(1, "k1", "t1", "a"));
        writer.write(message(0, null, null, "b"));
        writer.write(message(1, "k2", "t1", "c"));
        assertThat(writer.gauge("pendingMessages")).isEqualTo(3);
        assertThat(writer.gauge("pendingBytes")).isEqualTo(3L);
        writer.flush();

        RocketMqCommittable first = writer.prepareOne();
        // Queues in the order they were first written to, each its messages in arrival order.
        assertThat(first.queues()).extracting(b -> b.queue()).containsExactly(1, 0);
        assertThat(first.queues().get(0).messages())
                .containsExactly(entry("k1", "t1", "a"), entry("k2", "t1", "c"));
        assertThat(first.queues().get(1).messages()).containsExactly(entry(null, null, "b"));
        assertThat(first.batch()).isZero();
        assertThat(roundTrip(first)).isEqualTo(first);
        assertThat(roundTrip(first).queues()).isEqualTo(first.queues());
        assertThat(writer.gauge("pendingMessages")).isEqualTo(0);

        // An empty interval hands nothing over; the next committable continues the run.
        assertThat(writer.writer.prepareCommit()).isEmpty();
        writer.write(message(2, "k3", "t2", "d"));
        RocketMqCommittable second = writer.prepareOne();
        assertThat(second.run()).isEqualTo(first.run());
        assertThat(second.batch()).isOne();

        assertThat(queues.sendersOpened).isZero();
        assertThat(writer.io.getNumRecordsOutCounter().getCount()).isEqualTo(4);
        assertThat(writer.io.getNumBytesOutCounter().getCount()).isEqualTo(4);
        assertThat(writer.count("sluice", "numCommittablesPrepared")).isEqualTo(2);
    }

    @Test
    void reusedBuffersCarryNoOldMessagesIntoTheNextCommittable() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.EXACTLY_ONCE, 2);
        String long1 = "x".repeat(3000);
        for (int i = 0; i < 5; i++) {
            writer.write(message(0, "key" + i, "t", long1 + i));
        }
        writer.write(message(3, "only", "t", "once"));
        RocketMqCommittable first = writer.prepareOne();
        byte[] firstBytes = serializer.serialize(first).clone();

        writer.write(message(0, "k", "t", "short"));
        RocketMqCommittable second = writer.prepareOne();
        // Queue 3 stayed idle; queue 0 holds only what came after the first checkpoint.
        assertThat(second.queues()).hasSize(1);
        assertThat(second.queues().get(0).messages()).containsExactly(entry("k", "t", "short"));
        assertThat(roundTrip(second).queues().get(0).messages())
                .containsExactly(entry("k", "t", "short"));
        // The committable handed over earlier is untouched by the reuse.
        assertThat(serializer.serialize(first)).isEqualTo(firstBytes);
        assertThat(first.queues().get(0).messages()).hasSize(5);

        // A burst far larger than the next interval: its buffer is let go, the data intact.
        writer.write(message(0, "big", "t", "y".repeat(2 << 20)));
        assertThat(writer.prepareOne().queues().get(0).messages().get(0).body()).hasSize(2 << 20);
        writer.write(message(0, "k", "t", "after"));
        assertThat(writer.prepareOne().queues().get(0).messages())
                .containsExactly(entry("k", "t", "after"));
    }

    @Test
    void aMessageForAnyQueueGoesToItsKeysQueue() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.EXACTLY_ONCE, 2);
        byte[] key = bytes("[\"db\",\"t\",7]");
        writer.write(new SinkMessage(TOPIC, SinkMessage.ANY_PARTITION, key, bytes("v"), 0));
        writer.write(new SinkMessage(TOPIC, SinkMessage.ANY_PARTITION, null, bytes("w"), 0));
        RocketMqCommittable committable = writer.prepareOne();
        assertThat(committable.queues())
                .extracting(b -> b.queue())
                .containsExactly(Math.floorMod(Arrays.hashCode(key), 4), 0);
        assertThat(queues.sendersOpened).isOne();
    }

    @Test
    void atLeastOnceSendsWhenABatchFilledAndOnFlush() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 3);
        writer.write(message(0, "k0", "t", "a"));
        writer.write(message(1, "k1", "t", "b"));
        assertThat(queues.batchesSent).isZero();
        writer.write(message(0, "k2", "t", "c"));
        assertThat(queues.bodies(TOPIC, 0)).containsExactly("a", "c");
        assertThat(queues.bodies(TOPIC, 1)).containsExactly("b");

        writer.write(message(1, "k3", "t", "d"));
        writer.flush();
        assertThat(queues.bodies(TOPIC, 1)).containsExactly("b", "d");
        Message sent = queues.stored(TOPIC, 1).get(1);
        assertThat(sent.getKeys()).isEqualTo("k3");
        assertThat(sent.getTags()).isEqualTo("t");
        assertThat(sent.getUserProperty(Position.PROPERTY)).isNull();
        // Nothing waits for a checkpoint.
        assertThat(writer.writer.prepareCommit()).isEmpty();
        writer.flush();
        assertThat(queues.batchesSent).isEqualTo(3);

        // Flink 1.20 reports numRecordsSend as numRecordsOut: each message once.
        assertThat(writer.io.getNumRecordsOutCounter().getCount()).isEqualTo(4);
        assertThat(writer.metrics.getNumRecordsSendCounter().getCount()).isEqualTo(4);
        assertThat(writer.io.getNumBytesOutCounter().getCount()).isEqualTo(4);
        assertThat(writer.count("numRecordsOutErrors")).isZero();
    }

    @Test
    void aFailedSendFailsTheCallThatMadeItAndCountsWhatWasNotStored() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 5);
        // Batches of 2: the first is stored, the second refused.
        queues.plan(Outcome.STORED, Outcome.REFUSED);
        for (int i = 0; i < 4; i++) {
            writer.write(message(0, "k", "t", "m" + i));
        }
        assertThatThrownBy(() -> writer.write(message(0, "k", "t", "m4")))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("refused a batch to");
        assertThat(queues.bodies(TOPIC, 0)).containsExactly("m0", "m1");
        assertThat(writer.count("numRecordsOutErrors")).isEqualTo(3);
        assertThat(writer.metrics.getNumRecordsSendErrorsCounter().getCount()).isEqualTo(3);

        Writer flushing = new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 5);
        queues.plan(Outcome.REFUSED);
        flushing.write(message(2, "k", "t", "n0"));
        assertThatThrownBy(flushing::flush).isInstanceOf(IOException.class);
        assertThat(flushing.count("numRecordsOutErrors")).isOne();
    }

    @Test
    void anInterruptedSendIsACancellationNotASendError() throws Exception {
        Writer writer = new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 5);
        queues.plan(Outcome.INTERRUPTED);
        writer.write(message(0, "k", "t", "m"));
        assertThatThrownBy(writer::flush).isInstanceOf(InterruptedException.class);
        assertThat(writer.count("numRecordsOutErrors")).isZero();
    }

    @Test
    void closeClosesTheSenderItOpened() throws Exception {
        new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 5).writer.close();
        assertThat(queues.sendersOpened).isZero();

        Writer writer = new Writer(DeliveryGuarantee.AT_LEAST_ONCE, 5);
        writer.write(message(0, "k", "t", "m"));
        writer.flush();
        writer.writer.close();
        assertThat(queues.sendersClosed).isOne();
    }

    // ---------------------------------------------------------------------------------------

    /** A writer on {@link #queues}, with its metrics at hand. */
    private final class Writer {
        private final MetricListener listener = new MetricListener();
        private final OperatorIOMetricGroup io =
                UnregisteredMetricGroups.createUnregisteredOperatorMetricGroup().getIOMetricGroup();
        private final SinkWriterMetricGroup metrics =
                MetricsGroupTestUtils.mockWriterMetricGroup(listener.getMetricGroup(), io);
        private final RocketMqWriter writer;

        Writer(DeliveryGuarantee guarantee, int batchMaxMessages) {
            ClientSettings settings =
                    new ClientSettings(
                            "unused:9876", "test", Duration.ofSeconds(1), batchMaxMessages, 1024);
            writer = new RocketMqWriter(settings, guarantee, queues::openSender, metrics);
        }

        void write(SinkMessage message) throws IOException, InterruptedException {
            writer.write(message, null);
        }

        void flush() throws IOException, InterruptedException {
            writer.flush(false);
        }

        RocketMqCommittable prepareOne() throws IOException, InterruptedException {
            Collection<RocketMqCommittable> committables = writer.prepareCommit();
            assertThat(committables).hasSize(1);
            return committables.iterator().next();
        }

        long count(String... name) {
            Counter counter = listener.getCounter(name).orElseThrow();
            return counter.getCount();
        }

        Object gauge(String name) {
            return listener.getGauge("sluice", name).orElseThrow().getValue();
        }
    }

    private RocketMqCommittable roundTrip(RocketMqCommittable committable) throws IOException {
        return serializer.deserialize(
                serializer.getVersion(), serializer.serialize(committable).clone());
    }

    private static SinkMessage message(int queue, String key, String tag, String body) {
        return new SinkMessage(TOPIC, queue, key == null ? null : bytes(key), bytes(body), 0, tag);
    }

    private static Entry entry(String key, String tag, String body) {
        return new Entry(key == null ? null : bytes(key), tag, bytes(body));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

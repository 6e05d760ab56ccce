package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.api.connector.sink2.mocks.MockCommitRequest;
import org.apache.flink.metrics.testutils.MetricListener;

import io.sluice.functions.sink.rocketmq.RocketMqCommittable;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import io.sluice.functions.sink.rocketmq.internal.FakeQueues.Outcome;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The committer against in-memory queues: each queue's messages in order, stamped with their
 * position; and after a failure, a restored committer (a new instance on the same queues, as after
 * a job restart) or a retry skips exactly what the queue's tail shows is there.
 */
class RocketMqCommitterTest {

    private static final String TOPIC = "orders";
    private static final long RUN = 0x2aL;

    /** Four messages per batch send, so a commit of more is several sends. */
    private final FakeQueues queues = new FakeQueues(4).topic(TOPIC, 2);

    @Test
    void sendsEachQueueInOrderStampedWithItsPosition() throws Exception {
        Committer first = new Committer();
        first.commit(committable(7, batch(1, "a", 6), batch(0, "b", 3)));

        assertThat(queues.bodies(TOPIC, 1)).containsExactly("a0", "a1", "a2", "a3", "a4", "a5");
        assertThat(queues.bodies(TOPIC, 0)).containsExactly("b0", "b1", "b2");
        assertThat(positions(1))
                .containsExactly("2a:7:0", "2a:7:1", "2a:7:2", "2a:7:3", "2a:7:4", "2a:7:5");
        Message message = queues.stored(TOPIC, 1).get(0);
        assertThat(message.getKeys()).isEqualTo("key-a0");
        assertThat(message.getTags()).isEqualTo("table");
        assertThat(message.getTopic()).isEqualTo(TOPIC);
        assertThat(first.count("numRecordsSend")).isEqualTo(9);
        assertThat(first.count("numBytesSend")).isEqualTo(9 * 2);
        assertThat(first.count("numQueueTailReads")).isEqualTo(2);
        assertThat(first.count("numRecordsAlreadySent")).isZero();

        // The next committable follows; the committer knows the tails by now.
        first.commit(committable(8, batch(1, "c", 2)));
        assertThat(queues.bodies(TOPIC, 1)).endsWith("a5", "c0", "c1");
        assertThat(positions(1)).endsWith("2a:8:0", "2a:8:1");
        assertThat(first.count("numQueueTailReads")).isEqualTo(2);
        assertThat(queues.sendersOpened).isOne();
        assertThat(queues.readersOpened).isOne();
    }

    @Test
    void aReplayAfterFailuresInTheMiddleOfABatchSendsEachMessageOnce() throws Exception {
        RocketMqCommittable committable = committable(3, batch(1, "m", 12));
        // The second of three batches is refused: the queue holds the first four.
        queues.plan(Outcome.STORED, Outcome.REFUSED);
        Committer failing = new Committer();
        assertThatThrownBy(() -> failing.commit(committable))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Committing RocketMqCommittable{run=2a, batch=3")
                .hasMessageContaining("failed; the job restarts")
                .hasRootCauseMessage("refused a batch to " + FakeQueues.queueOf(TOPIC, 1));
        assertThat(failing.count("numRecordsSendErrors")).isEqualTo(8);
        assertThat(failing.count("numRecordsSend")).isEqualTo(4);

        // The job restarts; the restored committable's replay fails after one more batch.
        queues.plan(Outcome.STORED, Outcome.REFUSED);
        Committer replaying = new Committer();
        assertThatThrownBy(() -> replaying.commit(committable)).isInstanceOf(IOException.class);
        assertThat(replaying.count("numRecordsAlreadySent")).isEqualTo(4);
        assertThat(replaying.count("numRecordsSend")).isEqualTo(4);

        Committer replayed = new Committer();
        replayed.commit(committable);
        assertThat(replayed.count("numRecordsAlreadySent")).isEqualTo(8);
        assertThat(replayed.count("numRecordsSend")).isEqualTo(4);
        assertThat(queues.bodies(TOPIC, 1)).containsExactlyElementsOf(bodies("m", 12));
        assertThat(positions(1)).doesNotHaveDuplicates();
    }

    @Test
    void aRetryReadsTheTailAgainAsTheBrokerMayHaveKeptTheFailedBatch() throws Exception {
        RocketMqCommittable committable = committable(0, batch(0, "m", 10));
        queues.plan(Outcome.STORED, Outcome.STORED_THEN_FAILED);
        Committer committer = new Committer();
        assertThatThrownBy(() -> committer.commit(committable)).isInstanceOf(IOException.class);
        assertThat(queues.bodies(TOPIC, 0)).hasSize(8);

        // The same committer tries again: the broker holds 8, not the 4 it heard of.
        committer.commit(committable);
        assertThat(queues.bodies(TOPIC, 0)).containsExactlyElementsOf(bodies("m", 10));
        assertThat(committer.count("numQueueTailReads")).isEqualTo(2);
        assertThat(committer.count("numRecordsAlreadySent")).isEqualTo(8);
    }

    @Test
    void aCommittableALaterOneOfItsRunFollowedIsSkippedWhole() throws Exception {
        RocketMqCommittable older = committable(4, batch(0, "old", 3));
        new Committer().commit(committable(5, batch(0, "new", 1)));

        Committer restored = new Committer();
        restored.commit(older);
        assertThat(queues.bodies(TOPIC, 0)).containsExactly("new0");
        assertThat(restored.count("numRecordsAlreadySent")).isEqualTo(3);
        assertThat(restored.count("numRecordsSend")).isZero();
    }

    @Test
    void aTailOfAnotherRunOrProducerSkipsNothing() throws Exception {
        // Another writer run sent a later batch number: never taken for this run's data.
        Message otherRun = new Message(TOPIC, "t", bytes("other"));
        otherRun.putUserProperty(Position.PROPERTY, new Position(RUN + 1, 99, 50).format());
        queues.put(TOPIC, 0, otherRun);
        queues.put(TOPIC, 1, new Message(TOPIC, "t", bytes("foreign")));

        Committer committer = new Committer();
        committer.commit(committable(0, batch(0, "m", 2), batch(1, "n", 2)));
        assertThat(queues.bodies(TOPIC, 0)).containsExactly("other", "m0", "m1");
        assertThat(queues.bodies(TOPIC, 1)).containsExactly("foreign", "n0", "n1");
        assertThat(committer.count("numRecordsAlreadySent")).isZero();
    }

    @Test
    void anInterruptedSendIsACancellationNotASendError() throws Exception {
        RocketMqCommittable committable = committable(0, batch(0, "m", 6));
        queues.plan(Outcome.STORED, Outcome.INTERRUPTED);
        Committer committer = new Committer();
        assertThatThrownBy(() -> committer.commit(committable))
                .isInstanceOf(InterruptedException.class);
        assertThat(committer.count("numRecordsSendErrors")).isZero();

        committer.commit(committable);
        assertThat(queues.bodies(TOPIC, 0)).containsExactlyElementsOf(bodies("m", 6));
        assertThat(committer.count("numQueueTailReads")).isEqualTo(2);
    }

    @Test
    void aQueueTheTopicDoesNotHaveIsAClearError() {
        Committer committer = new Committer();
        assertThatThrownBy(() -> committer.commit(committable(0, batch(2, "m", 1))))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "Topic 'orders' has 2 queues, but a message is routed to queue 2. Keep"
                                + " route.partition-counts in line with the topic.");
        assertThat(queues.batchesSent).isZero();
    }

    @Test
    void opensItsClientsWhenFirstNeededAndClosesThem() throws Exception {
        Committer idle = new Committer();
        idle.close();
        assertThat(queues.sendersOpened).isZero();
        assertThat(queues.readersOpened).isZero();

        Committer used = new Committer();
        used.commit(committable(0, batch(0, "m", 1)));
        used.close();
        assertThat(queues.sendersClosed).isOne();
        assertThat(queues.readersClosed).isOne();
    }

    // ---------------------------------------------------------------------------------------

    /** A committer on {@link #queues}, with its metrics at hand. */
    private final class Committer {
        private final MetricListener metrics = new MetricListener();
        private final RocketMqCommitter committer =
                new RocketMqCommitter(
                        queues::openSender, queues::openTailReader, metrics.getMetricGroup());

        void commit(RocketMqCommittable committable) throws IOException, InterruptedException {
            MockCommitRequest<RocketMqCommittable> request = new MockCommitRequest<>(committable);
            committer.commit(List.of(request));
            // The committer fails the job instead of asking Flink to retry or drop.
            assertThat(request.getNumberOfRetries()).isZero();
            assertThat(request.getFailedWithUnknownReason()).isNull();
        }

        long count(String name) {
            return metrics.getCounter("sluice", name).orElseThrow().getCount();
        }

        void close() {
            committer.close();
        }
    }

    private List<String> positions(int queue) {
        return queues.stored(TOPIC, queue).stream()
                .map(m -> m.getUserProperty(Position.PROPERTY))
                .collect(Collectors.toList());
    }

    private static RocketMqCommittable committable(long batch, QueueBatch... queues) {
        return new RocketMqCommittable(RUN, batch, List.of(queues));
    }

    /** {@code count} messages to {@code queue}: bodies {@code prefix0, prefix1, ...}. */
    private static QueueBatch batch(int queue, String prefix, int count) {
        List<Entry> entries = new ArrayList<>();
        for (String body : bodies(prefix, count)) {
            entries.add(new Entry(bytes("key-" + body), "table", bytes(body)));
        }
        return new QueueBatch(TOPIC, queue, entries);
    }

    private static List<String> bodies(String prefix, int count) {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            bodies.add(prefix + i);
        }
        return bodies;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The queues of a broker, in memory, behind the sink's own {@link QueueSender} and {@link
 * TailReader}: a sender stores each batch of {@link #batchSize} messages whole, unless the next
 * planned {@link Outcome} says otherwise; a tail reader reads the position on a queue's last
 * message. State outlives the senders and readers, as a broker outlives a restarted job.
 */
final class FakeQueues {

    static final String BROKER = "fake-broker";

    /** What becomes of one batch send. */
    enum Outcome {
        STORED,
        /** The broker refuses the batch: nothing stored, the send fails. */
        REFUSED,
        /** The broker stores the batch, but the client sees a failure (a timed-out reply). */
        STORED_THEN_FAILED,
        /** The task is cancelled during the send: nothing stored. */
        INTERRUPTED
    }

    private final Map<String, Integer> queueCounts = new HashMap<>();
    private final Map<MessageQueue, List<Message>> stored = new HashMap<>();
    private final Deque<Outcome> plan = new ArrayDeque<>();
    private final int batchSize;
    int sendersOpened;
    int sendersClosed;
    int readersOpened;
    int readersClosed;
    int batchesSent;

    FakeQueues(int batchSize) {
        this.batchSize = batchSize;
    }

    FakeQueues topic(String topic, int queues) {
        queueCounts.put(topic, queues);
        return this;
    }

    /** The outcomes of the next batch sends, in order; later ones are stored. */
    FakeQueues plan(Outcome... outcomes) {
        plan.addAll(List.of(outcomes));
        return this;
    }

    static MessageQueue queueOf(String topic, int index) {
        return new MessageQueue(topic, BROKER, index);
    }

    List<Message> stored(String topic, int index) {
        return stored.getOrDefault(queueOf(topic, index), List.of());
    }

    /** Bodies of a queue's messages, as text. */
    List<String> bodies(String topic, int index) {
        List<String> bodies = new ArrayList<>();
        stored(topic, index)
                .forEach(m -> bodies.add(new String(m.getBody(), StandardCharsets.UTF_8)));
        return bodies;
    }

    /** Stores a message another producer (or an earlier run) left in a queue. */
    void put(String topic, int index, Message message) {
        stored.computeIfAbsent(queueOf(topic, index), q -> new ArrayList<>()).add(message);
    }

    QueueSender openSender() {
        sendersOpened++;
        return new Sender();
    }

    TailReader openTailReader() {
        readersOpened++;
        return new Reader();
    }

    private final class Sender implements QueueSender {

        @Override
        public List<MessageQueue> queuesOf(String topic) throws IOException {
            Integer count = queueCounts.get(topic);
            if (count == null) {
                throw new IOException("Topic '" + topic + "' has no writable queues");
            }
            List<MessageQueue> queues = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                queues.add(queueOf(topic, i));
            }
            return queues;
        }

        @Override
        public void send(MessageQueue queue, List<Message> messages, Progress progress)
                throws IOException, InterruptedException {
            for (int from = 0; from < messages.size(); from += batchSize) {
                int to = Math.min(from + batchSize, messages.size());
                List<Message> batch = messages.subList(from, to);
                Outcome outcome = plan.isEmpty() ? Outcome.STORED : plan.poll();
                batchesSent++;
                switch (outcome) {
                    case REFUSED:
                        throw new IOException("refused a batch to " + queue);
                    case INTERRUPTED:
                        throw new InterruptedException("sending to " + queue + " was interrupted");
                    default:
                        stored.computeIfAbsent(queue, q -> new ArrayList<>()).addAll(batch);
                }
                if (outcome == Outcome.STORED_THEN_FAILED) {
                    throw new IOException("no reply for a batch to " + queue);
                }
                long bytes = 0;
                for (Message message : batch) {
                    bytes += message.getBody().length;
                }
                progress.stored(to, bytes, batch.size());
            }
        }

        @Override
        public void close() {
            sendersClosed++;
        }
    }

    private final class Reader implements TailReader {

        @Override
        public Position lastPosition(MessageQueue queue) {
            List<Message> messages = stored.get(queue);
            if (messages == null || messages.isEmpty()) {
                return null;
            }
            return Position.parse(
                    messages.get(messages.size() - 1).getUserProperty(Position.PROPERTY));
        }

        @Override
        public void close() {
            readersClosed++;
        }
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.function.SupplierWithException;

import io.sluice.functions.sink.rocketmq.RocketMqCommittable;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Sends each committable once its checkpoint completed: queue by queue, in order, synchronously.
 *
 * <p>Flink hands a committable to the committer again after a restore if the checkpoint holding it
 * completed but its commit may not have finished. So before its first send to a queue, the
 * committer reads that queue's last message: a message stamped with a position of the same writer
 * run at or after one about to be sent means that one is already there, and it is skipped. Sends to
 * a queue are sequential, so what a queue holds of a committable is always a prefix.
 *
 * <p>A failed send fails the commit (and so the job): which part of a batch the broker stored is
 * unknown, and only a fresh tail read after the restart can tell.
 */
@Internal
public final class RocketMqCommitter implements Committer<RocketMqCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqCommitter.class);

    private final SupplierWithException<QueueSender, IOException> senders;
    private final SupplierWithException<TailReader, IOException> tailReaders;
    private final Map<MessageQueue, Tail> tails = new HashMap<>();
    private final Counter sent;
    private final Counter sentBytes;
    private final Counter skipped;
    private final Counter tailReads;
    private final Counter sendErrors;
    private QueueSender sender;
    private TailReader tailReader;

    /**
     * @param senders opens the sender, on the first commit
     * @param tailReaders opens the tail reader, on the first send to a queue
     * @param metrics the committer's metric group; its own metrics go under {@code sluice}
     */
    public RocketMqCommitter(
            SupplierWithException<QueueSender, IOException> senders,
            SupplierWithException<TailReader, IOException> tailReaders,
            MetricGroup metrics) {
        this.senders = senders;
        this.tailReaders = tailReaders;
        MetricGroup sluice = metrics.addGroup("sluice");
        this.sent = sluice.counter("numRecordsSend");
        this.sentBytes = sluice.counter("numBytesSend");
        this.skipped = sluice.counter("numRecordsAlreadySent");
        this.tailReads = sluice.counter("numQueueTailReads");
        this.sendErrors = sluice.counter("numRecordsSendErrors");
    }

    @Override
    public void commit(Collection<CommitRequest<RocketMqCommittable>> requests)
            throws IOException, InterruptedException {
        for (CommitRequest<RocketMqCommittable> request : requests) {
            RocketMqCommittable committable = request.getCommittable();
            for (QueueBatch batch : committable.queues()) {
                commitQueue(committable, batch);
            }
        }
    }

    private void commitQueue(RocketMqCommittable committable, QueueBatch batch)
            throws IOException, InterruptedException {
        if (sender == null) {
            sender = senders.get();
        }
        MessageQueue queue = sender.queue(batch.topic(), batch.queue());
        Position last = tailOf(queue).position;
        List<Entry> entries = batch.messages();
        // Messages before the tail are a prefix: positions grow along the batch.
        int first = 0;
        while (first < entries.size()
                && last != null
                && new Position(committable.run(), committable.batch(), first).notAfter(last)) {
            first++;
        }
        skipped.inc(first);
        String stamp = Position.prefix(committable.run(), committable.batch());
        List<Message> toSend = new ArrayList<>(entries.size() - first);
        for (int i = first; i < entries.size(); i++) {
            Message message = Messages.of(batch.topic(), entries.get(i));
            message.putUserProperty(Position.PROPERTY, stamp + i);
            toSend.add(message);
        }
        int firstSent = first;
        if (toSend.isEmpty()) {
            return;
        }
        int[] stored = {0};
        try {
            sender.send(
                    queue,
                    toSend,
                    (storedSoFar, bytes, count) -> {
                        stored[0] = storedSoFar;
                        tails.put(
                                queue,
                                new Tail(
                                        new Position(
                                                committable.run(),
                                                committable.batch(),
                                                firstSent + storedSoFar - 1)));
                        sent.inc(count);
                        sentBytes.inc(bytes);
                    });
        } catch (InterruptedException e) {
            // A cancellation, not a send error; what the broker kept is unknown all the same.
            tails.remove(queue);
            throw e;
        } catch (IOException | RuntimeException e) {
            // Whether the broker kept part of the failed batch is unknown: read the tail again.
            tails.remove(queue);
            // The messages not known to be stored, as the writer counts them.
            sendErrors.inc(toSend.size() - stored[0]);
            throw new IOException(
                    "Committing " + committable + " to " + queue + " failed; the job restarts", e);
        }
    }

    private Tail tailOf(MessageQueue queue) throws IOException, InterruptedException {
        Tail tail = tails.get(queue);
        if (tail == null) {
            if (tailReader == null) {
                tailReader = tailReaders.get();
            }
            tail = new Tail(tailReader.lastPosition(queue));
            tailReads.inc();
            LOG.info("Tail of {} is at {}", queue, tail.position);
            tails.put(queue, tail);
        }
        return tail;
    }

    @Override
    public void close() {
        if (tailReader != null) {
            tailReader.close();
        }
        if (sender != null) {
            sender.close();
        }
    }

    /** The last position known in a queue; null position when none of ours is there. */
    private record Tail(Position position) {
        // Written out: the generated ones would keep the job's class loader alive in a
        // session cluster on Java 17 (JDK-8078641).
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Tail)) {
                return false;
            }
            Tail other = (Tail) o;
            return Objects.equals(position, other.position);
        }

        @Override
        public int hashCode() {
            return Objects.hash(position);
        }

        @Override
        public String toString() {
            return "Tail[position=" + position + "]";
        }
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.util.function.SupplierWithException;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Collects messages per queue, in arrival order. Exactly-once: each checkpoint's messages become
 * one committable (the write-ahead log entry) and nothing is sent here. At-least-once: the queues
 * are sent whenever enough piled up and on every checkpoint, and a failed send fails the write or
 * flush that made it.
 */
@Internal
public final class RocketMqWriter
        implements CommittingSinkWriter<SinkMessage, RocketMqCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqWriter.class);

    private static final SecureRandom RUNS = new SecureRandom();

    private final ClientSettings settings;
    private final boolean exactlyOnce;
    private final SupplierWithException<QueueSender, IOException> senders;
    private final long run = RUNS.nextLong();

    /** Exactly-once: the write-ahead log, encoded as the committable holds it. */
    private final Map<QueueKey, QueueLog> logs = new LinkedHashMap<>();

    private final TagBytes tags = new TagBytes();

    /** At-least-once: the messages still to send, as they came. */
    private final Map<QueueKey, List<Entry>> unsent = new LinkedHashMap<>();

    // Flink 1.20 reports these as numRecordsSend, numBytesSend and numRecordsSendErrors too (the
    // same counters): each is counted once.
    private final Counter recordsOut;
    private final Counter bytesOut;
    private final Counter recordsOutErrors;
    private final Counter batchesPrepared;
    private long nextBatch;
    private int pendingCount;
    private long pendingBytes;
    private QueueSender sender;

    /**
     * @param settings the batch limits of at-least-once sends
     * @param senders opens the sender, when the first message needs it
     */
    public RocketMqWriter(
            ClientSettings settings,
            DeliveryGuarantee guarantee,
            SupplierWithException<QueueSender, IOException> senders,
            SinkWriterMetricGroup metrics) {
        this.settings = settings;
        this.exactlyOnce = guarantee == DeliveryGuarantee.EXACTLY_ONCE;
        this.senders = senders;
        this.recordsOut = metrics.getIOMetricGroup().getNumRecordsOutCounter();
        this.bytesOut = metrics.getIOMetricGroup().getNumBytesOutCounter();
        this.recordsOutErrors = metrics.getNumRecordsOutErrorsCounter();
        MetricGroup sluice = metrics.addGroup("sluice");
        sluice.gauge("pendingMessages", () -> pendingCount);
        sluice.gauge("pendingBytes", () -> pendingBytes);
        this.batchesPrepared = sluice.counter("numCommittablesPrepared");
    }

    @Override
    public void write(SinkMessage message, Context context)
            throws IOException, InterruptedException {
        if (message.value() == null) {
            // The job refuses tombstones with RocketMQ before it starts; this is the last guard.
            throw new IllegalArgumentException(
                    "RocketMQ has no tombstones (a message needs a body), but got one for "
                            + message.topic()
                            + ": set 'format.debezium.tombstones' to false");
        }
        int queue = message.partition();
        if (queue == SinkMessage.ANY_PARTITION) {
            int queues = sender().queuesOf(message.topic()).size();
            queue =
                    message.key() == null
                            ? 0
                            : Math.floorMod(Arrays.hashCode(message.key()), queues);
        }
        QueueKey key = new QueueKey(message.topic(), queue);
        if (exactlyOnce) {
            QueueLog log = logs.computeIfAbsent(key, k -> new QueueLog());
            QueueBatch.writeEntry(
                    message.key(), tags.utf8(message.tag()), message.value(), log.bytes);
            log.count++;
        } else {
            unsent.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new Entry(message.key(), message.tag(), message.value()));
        }
        pendingCount++;
        pendingBytes += message.value().length;
        recordsOut.inc();
        bytesOut.inc(message.value().length);
        if (!exactlyOnce
                && (pendingCount >= settings.batchMaxMessages()
                        || pendingBytes >= settings.batchMaxBytes())) {
            sendPending();
        }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        if (!exactlyOnce) {
            sendPending();
        }
    }

    @Override
    public Collection<RocketMqCommittable> prepareCommit() {
        if (!exactlyOnce) {
            return List.of();
        }
        if (pendingCount == 0) {
            clearPending();
            return List.of();
        }
        List<QueueBatch> queues = new ArrayList<>(logs.size());
        logs.forEach(
                (key, log) -> {
                    if (log.count > 0) {
                        queues.add(log.batch(key));
                    }
                });
        RocketMqCommittable committable = new RocketMqCommittable(run, nextBatch++, queues);
        clearPending();
        batchesPrepared.inc();
        return List.of(committable);
    }

    private void sendPending() throws IOException, InterruptedException {
        for (Map.Entry<QueueKey, List<Entry>> queue : unsent.entrySet()) {
            String topic = queue.getKey().topic;
            List<Message> messages = new ArrayList<>(queue.getValue().size());
            queue.getValue().forEach(entry -> messages.add(Messages.of(topic, entry)));
            int[] stored = {0};
            try {
                sender().send(
                                sender().queue(topic, queue.getKey().queue),
                                messages,
                                (storedSoFar, bytes, count) -> stored[0] = storedSoFar);
            } catch (IOException | RuntimeException e) {
                int failed = messages.size() - stored[0];
                recordsOutErrors.inc(failed);
                // Logged here as well: a send that fails while the task is being cancelled is
                // counted, but Flink does not report the exception of a cancelled task. The
                // cancellation's own interrupt arrives as an InterruptedException: not counted.
                LOG.warn(
                        "{} of {} messages to {} were not sent", failed, messages.size(), topic, e);
                throw e;
            }
        }
        clearPending();
    }

    /**
     * Empties the pending messages. The queue logs keep their buffers for the next interval, so a
     * steady stream reuses the same arrays; a queue that stayed empty for a whole interval gives
     * its buffer up.
     */
    private void clearPending() {
        logs.values().removeIf(log -> log.count == 0);
        logs.values().forEach(QueueLog::clear);
        unsent.clear();
        pendingCount = 0;
        pendingBytes = 0;
    }

    private QueueSender sender() throws IOException {
        if (sender == null) {
            sender = senders.get();
        }
        return sender;
    }

    @Override
    public void close() {
        if (sender != null) {
            sender.close();
        }
    }

    private record QueueKey(String topic, int queue) {
        // Written out: the generated ones would keep the job's class loader alive in a
        // session cluster on Java 17 (JDK-8078641).
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof QueueKey)) {
                return false;
            }
            QueueKey other = (QueueKey) o;
            return Objects.equals(topic, other.topic) && queue == other.queue;
        }

        @Override
        public int hashCode() {
            // Per message: no varargs array, no boxed queue number.
            return 31 * topic.hashCode() + queue;
        }

        @Override
        public String toString() {
            return "QueueKey[topic=" + topic + ", queue=" + queue + "]";
        }
    }

    /** One queue's messages since the last committable, encoded as the committable holds them. */
    private static final class QueueLog {
        private static final int INITIAL = 4096;
        private DataOutputSerializer bytes = new DataOutputSerializer(INITIAL);
        private int count;

        /** A view of the log, valid until the log is cleared or written to. */
        QueueBatch batch(QueueKey key) {
            return new QueueBatch(
                    key.topic, key.queue, count, bytes.getSharedBuffer(), 0, bytes.length());
        }

        /** Keeps the buffer unless a burst left it far larger than the last interval needed. */
        void clear() {
            int used = bytes.length();
            if (bytes.getSharedBuffer().length > Math.max(4L * used, 1 << 20)) {
                bytes = new DataOutputSerializer(Math.max(used, INITIAL));
            } else {
                bytes.clear();
            }
            count = 0;
        }
    }

    /** UTF-8 of the tags; messages of one table come in runs, so the last tag is checked first. */
    private static final class TagBytes {
        private final Map<String, byte[]> known = new HashMap<>();
        private String last;
        private byte[] lastBytes;

        byte[] utf8(String tag) {
            if (tag == null) {
                return null;
            }
            if (!tag.equals(last)) {
                last = tag;
                lastBytes =
                        known.size() < 10_000
                                ? known.computeIfAbsent(
                                        tag, t -> t.getBytes(StandardCharsets.UTF_8))
                                : tag.getBytes(StandardCharsets.UTF_8);
            }
            return lastBytes;
        }
    }
}

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

import io.sluice.functions.sink.SinkMessage;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import io.sluice.functions.sink.rocketmq.RocketMqCommittable.QueueBatch;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    private final String role;
    private final long run = RUNS.nextLong();
    private final Map<QueueKey, List<Entry>> pending = new LinkedHashMap<>();
    private final Counter recordsOut;
    private final Counter bytesOut;
    private final Counter recordsOutErrors;
    private final Counter recordsSend;
    private final Counter bytesSend;
    private final Counter recordsSendErrors;
    private final Counter batchesPrepared;
    private long nextBatch;
    private int pendingCount;
    private long pendingBytes;
    private QueueSender sender;

    public RocketMqWriter(
            ClientSettings settings, DeliveryGuarantee guarantee, WriterInitContext context) {
        this.settings = settings;
        this.exactlyOnce = guarantee == DeliveryGuarantee.EXACTLY_ONCE;
        this.role = "writer-" + context.getTaskInfo().getIndexOfThisSubtask();
        SinkWriterMetricGroup metrics = context.metricGroup();
        this.recordsOut = metrics.getIOMetricGroup().getNumRecordsOutCounter();
        this.bytesOut = metrics.getIOMetricGroup().getNumBytesOutCounter();
        this.recordsOutErrors = metrics.getNumRecordsOutErrorsCounter();
        this.recordsSend = metrics.getNumRecordsSendCounter();
        this.bytesSend = metrics.getNumBytesSendCounter();
        this.recordsSendErrors = metrics.getNumRecordsSendErrorsCounter();
        MetricGroup sluice = metrics.addGroup("sluice");
        sluice.gauge("pendingMessages", () -> pendingCount);
        sluice.gauge("pendingBytes", () -> pendingBytes);
        this.batchesPrepared = sluice.counter("numCommittablesPrepared");
    }

    @Override
    public void write(SinkMessage message, Context context)
            throws IOException, InterruptedException {
        int queue = message.partition();
        if (queue == SinkMessage.ANY_PARTITION) {
            int queues = sender().queuesOf(message.topic()).size();
            queue =
                    message.key() == null
                            ? 0
                            : Math.floorMod(Arrays.hashCode(message.key()), queues);
        }
        pending.computeIfAbsent(new QueueKey(message.topic(), queue), k -> new ArrayList<>())
                .add(new Entry(message.key(), message.tag(), message.value()));
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
        if (!exactlyOnce || pending.isEmpty()) {
            return List.of();
        }
        List<QueueBatch> queues = new ArrayList<>(pending.size());
        pending.forEach(
                (key, entries) -> queues.add(new QueueBatch(key.topic, key.queue, entries)));
        clearPending();
        batchesPrepared.inc();
        return List.of(new RocketMqCommittable(run, nextBatch++, queues));
    }

    private void sendPending() throws IOException, InterruptedException {
        for (Map.Entry<QueueKey, List<Entry>> queue : pending.entrySet()) {
            String topic = queue.getKey().topic;
            List<Message> messages = new ArrayList<>(queue.getValue().size());
            queue.getValue().forEach(entry -> messages.add(Messages.of(topic, entry)));
            int[] stored = {0};
            try {
                sender().send(
                                sender().queue(topic, queue.getKey().queue),
                                messages,
                                (storedSoFar, bytes, count) -> {
                                    stored[0] = storedSoFar;
                                    recordsSend.inc(count);
                                    bytesSend.inc(bytes);
                                });
            } catch (IOException | RuntimeException e) {
                int failed = messages.size() - stored[0];
                recordsOutErrors.inc(failed);
                recordsSendErrors.inc(failed);
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

    private void clearPending() {
        pending.clear();
        pendingCount = 0;
        pendingBytes = 0;
    }

    private QueueSender sender() throws IOException {
        if (sender == null) {
            sender = new QueueSender(settings, role);
        }
        return sender;
    }

    @Override
    public void close() {
        if (sender != null) {
            sender.close();
        }
    }

    private record QueueKey(String topic, int queue) {}

    /** For logs: the random id of this writer's run. */
    public long run() {
        return run;
    }
}

package io.sluice.functions.order;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.serializers.progress.ProgressMarker;
import io.sluice.serializers.progress.ProgressMarkerEncoder;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The owner of a set of partitions ({@link StatementOrderOperator}) that also writes a progress
 * marker into each of them right before each checkpoint barrier, so into that checkpoint's
 * transaction.
 *
 * <p>Its second input is a broadcast of {@link ProgressNote}s: the source subtasks' positions (each
 * sent right before a barrier leaves the source's task) and the topics the route subtasks write.
 * With aligned checkpoints, when this owner is asked to prepare checkpoint n it has processed every
 * record that came before barrier n on every channel of both inputs: every message of every change
 * the source handed on up to the newest position it was told, each placed by its statement rank.
 * One owner writes each partition, so the marker it writes then follows every such message in that
 * partition and precedes every later one. Its watermark is that of the messages alone: the notes'
 * edge carries no statement counts that could hold the statements back.
 */
@Internal
public final class ProgressMarkingOwner extends StatementOrderOperator
        implements TwoInputStreamOperator<OrderedMessage, ProgressNote, SinkMessage> {

    private static final long serialVersionUID = 1L;

    private final MessageFormat format;
    private final PartitionCounts.Factory partitionCounts;
    @Nullable private final List<String> markedTopics;

    private transient PartitionCounts counts;
    private transient Set<String> topics;
    private transient Map<String, long[]> written;
    private transient ProgressNote position;
    private transient ListState<String> topicState;
    private transient Counter markers;

    /**
     * @param format the format of the job's messages, and so of its markers
     * @param partitionCounts how many partitions each topic has
     * @param markedTopics the only topics to mark, or null for every topic the job writes
     */
    public ProgressMarkingOwner(
            MessageFormat format,
            PartitionCounts.Factory partitionCounts,
            @Nullable List<String> markedTopics) {
        this.format = format;
        this.partitionCounts = partitionCounts;
        this.markedTopics = markedTopics == null ? null : new ArrayList<>(markedTopics);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        topics = new TreeSet<>();
        if (markedTopics != null) {
            topics.addAll(markedTopics);
            return;
        }
        // Learned topics survive a restore: their partitions get markers while idle.
        topicState =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("progress-topics", Types.STRING));
        for (String topic : topicState.get()) {
            topics.add(topic);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        counts = partitionCounts.create();
        written = new HashMap<>();
        markers = getMetricGroup().addGroup("sluice").counter("progressMarkers");
    }

    @Override
    public void processElement1(StreamRecord<OrderedMessage> record) {
        processElement(record);
    }

    @Override
    public void processElement2(StreamRecord<ProgressNote> record) {
        ProgressNote note = record.getValue();
        if (note.isTopic()) {
            if (markedTopics == null) {
                topics.add(note.topic);
            }
        } else if (note.isAfter(position)) {
            position = note;
        }
    }

    @Override
    public void processWatermark1(Watermark mark) throws Exception {
        processWatermark(mark);
    }

    /**
     * The notes' edge carries the source's statement counts too; only the messages' count. Both
     * watermark methods bypass Flink's combined watermark, whose part for the messages then stays
     * at its minimum, so idleness changes (handled by Flink alone) never move it.
     */
    @Override
    public void processWatermark2(Watermark mark) {}

    @Override
    protected void write(StreamRecord<SinkMessage> record) {
        SinkMessage message = record.getValue();
        long[] perPartition = written.get(message.topic());
        if (perPartition == null || perPartition.length <= message.partition()) {
            long[] grown = new long[message.partition() + 1];
            if (perPartition != null) {
                System.arraycopy(perPartition, 0, grown, 0, perPartition.length);
            }
            perPartition = grown;
            written.put(message.topic(), perPartition);
        }
        perPartition[message.partition()]++;
        super.write(record);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        if (position == null) {
            // No binlog position yet (the snapshot phase, or nothing read): nothing to promise.
            return;
        }
        int owners = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        int self = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        long buildTime = System.currentTimeMillis();
        for (String topic : topics) {
            long[] perPartition = written.get(topic);
            for (int partition = 0, n = counts.countOf(topic); partition < n; partition++) {
                if (PartitionOwnerPartitioner.ownerOf(topic, partition, owners) != self) {
                    continue;
                }
                long messages = 0;
                if (perPartition != null && partition < perPartition.length) {
                    messages = perPartition[partition];
                    perPartition[partition] = 0;
                }
                ProgressMarker marker =
                        new ProgressMarker(
                                checkpointId,
                                position.gtid,
                                position.binlogFile,
                                position.binlogPosition,
                                position.rowInEvent,
                                position.executeTime,
                                messages);
                byte[] value =
                        format == MessageFormat.CANAL_FLAT
                                ? ProgressMarkerEncoder.flat(marker, buildTime)
                                : ProgressMarkerEncoder.binary(marker);
                output.collect(
                        new StreamRecord<>(
                                new SinkMessage(
                                        topic, partition, null, value, position.executeTime)));
                markers.inc();
            }
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (topicState != null) {
            topicState.update(new ArrayList<>(topics));
        }
    }

    /** The {@code progressMarkers} counter's count, for tests. */
    @VisibleForTesting
    long markersWritten() {
        return markers.getCount();
    }

    @Override
    public void close() throws Exception {
        if (counts != null) {
            counts.close();
        }
        super.close();
    }
}

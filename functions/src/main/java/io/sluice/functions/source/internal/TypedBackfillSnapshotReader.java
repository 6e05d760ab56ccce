package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.debezium.DebeziumUtils;
import org.apache.flink.cdc.connectors.mysql.debezium.reader.SnapshotSplitReader;
import org.apache.flink.cdc.connectors.mysql.debezium.task.context.StatefulTaskContext;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSnapshotSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.util.FlinkRuntimeException;

import io.debezium.data.Envelope;
import io.debezium.pipeline.DataChangeEvent;
import io.debezium.relational.TableId;
import io.debezium.util.SchemaNameAdjuster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Flink CDC's snapshot split reader, whose backfill (the binlog changes between a chunk's low and
 * high watermarks, applied to the chunk's rows) takes a change into the chunk by comparing its
 * chunk key with the chunk's bounds by value ({@link ChunkKeyRange}). Flink CDC 3.5 compares a
 * key's Debezium value with a bound of another Java class as text, so a change to a table chunked
 * by a DATE, DATETIME, TIME, TIMESTAMP or binary key, made while the chunk is read, is lost or
 * repeated. Otherwise {@link #pollWithBuffer} is Flink CDC's, and the changes in range go through
 * Flink CDC's own {@link RecordUtils#upsertBinlog}.
 */
final class TypedBackfillSnapshotReader extends SnapshotSplitReader {

    private static final Logger LOG = LoggerFactory.getLogger(TypedBackfillSnapshotReader.class);

    /**
     * How long a close waits for the read task to end on its own before Flink CDC's close
     * disconnects: about what Flink CDC's close took before it disconnected (its last poll of
     * Debezium's queue, 500 ms at Debezium's default poll interval).
     */
    private static final Duration TASK_END_TIMEOUT = Duration.ofMillis(500);

    private final StatefulTaskContext context;
    private final ZoneId serverZone;
    private volatile MySqlSnapshotSplit split;

    /** Whether the binlog-end event of the current chunk came: its read task is ending. */
    private volatile boolean chunkRead;

    private final BiFunction<TableId, String, CollationOrder> collations;
    private final ChunkTimings timings;

    private TypedBackfillSnapshotReader(
            StatefulTaskContext context,
            int subtask,
            SnapshotPhaseHooks hooks,
            ZoneId zone,
            BiFunction<TableId, String, CollationOrder> collations,
            ChunkTimings timings) {
        super(context, subtask, hooks);
        this.context = context;
        this.serverZone = zone;
        this.collations = collations;
        this.timings = timings;
    }

    /**
     * A reader built as Flink CDC's {@code MySqlSplitReader} builds its own.
     *
     * @param collations the order of a string chunk key column; null from it compares in Java's
     *     order
     * @param timings where the reader notes each chunk's timing
     */
    static TypedBackfillSnapshotReader create(
            MySqlSourceConfig config,
            int subtask,
            SnapshotPhaseHooks hooks,
            BiFunction<TableId, String, CollationOrder> collations,
            ChunkTimings timings) {
        return new TypedBackfillSnapshotReader(
                new StatefulTaskContext(
                        config,
                        DebeziumUtils.createBinaryClient(config.getDbzConfiguration()),
                        DebeziumUtils.createMySqlConnection(config)),
                subtask,
                hooks,
                ZoneId.of(config.getServerTimeZone()),
                collations,
                timings);
    }

    @Override
    public void submitSplit(MySqlSplit next) {
        this.split = next.asSnapshotSplit();
        this.chunkRead = false;
        super.submitSplit(next);
    }

    /**
     * Once the chunk is read, lets its read task end on its own (for up to {@link
     * #TASK_END_TIMEOUT}) before Flink CDC's close disconnects the binlog client. A backfill's
     * binlog task waits, right after connecting, up to 5 s for the client's keep-alive thread to
     * appear; a close right after a short backfill disconnected the client first, the keep-alive
     * thread never appeared, and the task (and the close waiting for it) sat out the 5 s at every
     * chunk read under writes.
     */
    @Override
    public void close() {
        if (chunkRead) {
            ExecutorService task = getExecutorService();
            task.shutdown();
            try {
                if (!task.awaitTermination(TASK_END_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.debug(
                            "The read task of snapshot split {} did not end within {}; closing it",
                            split.splitId(),
                            TASK_END_TIMEOUT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        super.close();
    }

    /**
     * In: low watermark, the chunk's rows, high watermark, the binlog changes, binlog-end
     * watermark. Out: low watermark, the chunk's rows with the changes in range applied, high
     * watermark.
     */
    @Override
    public Iterator<SourceRecords> pollWithBuffer() throws InterruptedException {
        SchemaNameAdjuster names = context.getSchemaNameAdjuster();
        ChunkKeyRange range = ChunkKeyRange.of(split, names, serverZone, collations);
        boolean reachBinlogStart = false;
        boolean reachBinlogEnd = false;
        SourceRecord lowWatermark = null;
        SourceRecord highWatermark = null;
        Map<Struct, List<SourceRecord>> rows = new HashMap<>();
        long lowAt = 0;
        long highAt = 0;
        long polling = 0;
        while (!reachBinlogEnd) {
            checkReadException();
            long pollStart = System.nanoTime();
            List<DataChangeEvent> batch = context.getQueue().poll();
            long polled = System.nanoTime();
            polling += polled - pollStart;
            for (DataChangeEvent event : batch) {
                SourceRecord record = event.getRecord();
                if (lowWatermark == null) {
                    if (!RecordUtils.isLowWatermarkEvent(record)) {
                        throw new IllegalStateException(
                                "The first record should be low watermark signal event, but"
                                        + " actual is "
                                        + record);
                    }
                    lowWatermark = record;
                    lowAt = polled;
                    continue;
                }
                if (highWatermark == null && RecordUtils.isHighWatermarkEvent(record)) {
                    highWatermark = record;
                    highAt = polled;
                    reachBinlogStart = true;
                    continue;
                }
                if (reachBinlogStart && RecordUtils.isEndWatermarkEvent(record)) {
                    reachBinlogEnd = true;
                    break;
                }
                if (!reachBinlogStart) {
                    if (record.key() != null) {
                        rows.put((Struct) record.key(), Collections.singletonList(record));
                    } else {
                        rows.computeIfAbsent((Struct) record.value(), key -> new LinkedList<>())
                                .add(record);
                    }
                } else if (inRange(record, range)) {
                    warnIfMovedOut(record, range);
                    // Open bounds: Flink CDC's own range check passes it, as this one did.
                    RecordUtils.upsertBinlog(
                            rows, record, split.getSplitKeyType(), names, null, null);
                }
            }
        }
        hasNextElement.set(false);
        chunkRead = true;
        timings.read(lowAt, highAt, System.nanoTime(), rows.size(), polling);
        List<SourceRecord> normalized = new ArrayList<>();
        normalized.add(lowWatermark);
        normalized.addAll(
                RecordUtils.formatMessageTimestamp(
                        rows.values().stream()
                                .flatMap(Collection::stream)
                                .collect(Collectors.toList())));
        normalized.add(highWatermark);
        return Collections.singletonList(new SourceRecords(normalized)).iterator();
    }

    private static boolean inRange(SourceRecord record, ChunkKeyRange range) {
        return RecordUtils.isDataChangeRecord(record)
                && record.value() != null
                && range.contains(RecordUtils.getStructContainsChunkKey(record));
    }

    /** Flink CDC's warning, which its range check gives when its bounds are not open. */
    private static void warnIfMovedOut(SourceRecord record, ChunkKeyRange range) {
        Struct value = (Struct) record.value();
        if (record.key() == null
                && Envelope.Operation.forCode(value.getString(Envelope.FieldName.OPERATION))
                        == Envelope.Operation.UPDATE
                && !range.contains(value.getStruct(Envelope.FieldName.AFTER))) {
            LOG.warn(
                    "The updated chunk key is out of the split range. Cannot provide exactly-once"
                            + " semantics.");
        }
    }

    private void checkReadException() {
        Throwable failure =
                (Throwable) FlinkCdcFields.get(FlinkCdcFields.SNAPSHOT_READ_EXCEPTION, this);
        if (failure != null) {
            throw new FlinkRuntimeException(
                    String.format("Read split %s error due to %s.", split, failure.getMessage()),
                    failure);
        }
    }
}

package io.sluice.functions.source.internal;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlRecordEmitter;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitState;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.util.Collector;

/**
 * Flink CDC's record emitter, with the binlog split's resume position written once per batch
 * instead of once per row.
 *
 * <p>Flink CDC's emitter parses each binlog row's offset map into a new {@code BinlogOffset} and
 * stores it in the split state, so that a checkpoint resumes right after the last row emitted. A
 * checkpoint cannot fall inside one {@link #emitRecord} call (one batch polled from Debezium, up to
 * {@code max.batch.size} rows): the source reader emits a whole batch in one mailbox action. So
 * only the batch's last positioned record (a row or a heartbeat) needs its offset parsed; that was
 * a third of the source task's CPU; the fetch-delay gauge, which shows only its latest value, is
 * likewise set once, from the batch's last row. Each row's envelope fields are found by index
 * ({@link EnvelopeFields}), not by name. Any other record (a schema change, a snapshot split's
 * records) first stores the pending position, then goes to Flink CDC's own handling, so the split
 * state sees positions in binlog order as before.
 */
public final class BinlogBatchRecordEmitter<T> extends MySqlRecordEmitter<T> {

    private final DebeziumDeserializationSchema<T> deserializer;
    private final MySqlSourceReaderMetrics metrics;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();
    private final EnvelopeFields envelopes = new EnvelopeFields();

    public BinlogBatchRecordEmitter(
            DebeziumDeserializationSchema<T> deserializer,
            MySqlSourceReaderMetrics metrics,
            boolean includeSchemaChanges) {
        super(deserializer, metrics, includeSchemaChanges);
        this.deserializer = deserializer;
        this.metrics = metrics;
    }

    @Override
    public void emitRecord(SourceRecords records, SourceOutput<T> output, MySqlSplitState state)
            throws Exception {
        if (!state.isBinlogSplitState()) {
            super.emitRecord(records, output, state);
            return;
        }
        SourceRecord positioned = null;
        SourceRecord lastRow = null;
        for (SourceRecord record : records.getSourceRecordList()) {
            if (envelopes.isRow(record)) {
                positioned = record;
                lastRow = record;
                emitRow(record, output);
            } else if (RecordUtils.isHeartbeatEvent(record)) {
                positioned = record;
            } else {
                storePosition(state, positioned);
                positioned = null;
                processElement(record, output, state);
            }
        }
        storePosition(state, positioned);
        if (lastRow != null) {
            recordFetchDelay(lastRow, collector.timestamp);
        }
    }

    private void emitRow(SourceRecord record, SourceOutput<T> output) throws Exception {
        Long timestamp = envelopes.timestamp(record);
        collector.output = output;
        collector.timestamp = timestamp == null ? 0L : timestamp;
        deserializer.deserialize(record, collector);
    }

    /** The fetch-delay gauge shows only its latest value: the batch's last row sets it. */
    private void recordFetchDelay(SourceRecord row, long timestamp) {
        if (timestamp > 0L) {
            Long fetched = RecordUtils.getFetchTimestamp(row);
            if (fetched != null && fetched >= timestamp) {
                metrics.recordFetchDelay(fetched - timestamp);
            }
        }
    }

    private static void storePosition(MySqlSplitState state, SourceRecord positioned) {
        if (positioned != null) {
            state.asBinlogSplitState().setStartingOffset(RecordUtils.getBinlogPosition(positioned));
        }
    }

    /** Emits with the binlog event's time, as Flink CDC does, so the source's lag metric works. */
    private static final class TimestampedCollector<T> implements Collector<T> {
        private SourceOutput<T> output;
        private long timestamp;

        @Override
        public void collect(T record) {
            if (timestamp > 0L) {
                output.collect(record, timestamp);
            } else {
                output.collect(record);
            }
        }

        @Override
        public void close() {}
    }
}

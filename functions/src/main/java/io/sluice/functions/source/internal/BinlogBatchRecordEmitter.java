package io.sluice.functions.source.internal;

import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlRecordEmitter;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitState;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.util.Collector;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * state sees positions in binlog order as before; a schema change goes there with its statement's
 * binlog time ({@link StatementTimes}); so does a database statement ({@link DatabaseStatements}),
 * which Flink CDC's handling would skip, straight to the conversion.
 */
public final class BinlogBatchRecordEmitter<T> extends MySqlRecordEmitter<T> {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogBatchRecordEmitter.class);

    private final DebeziumDeserializationSchema<T> deserializer;
    private final MySqlSourceReaderMetrics metrics;
    private final TimestampedCollector<T> collector = new TimestampedCollector<>();
    private final EnvelopeFields envelopes = new EnvelopeFields();
    private final StatementTimes statementTimes;
    private final SourceProgress progress;
    private boolean warnedUnknownTime;

    public BinlogBatchRecordEmitter(
            DebeziumDeserializationSchema<T> deserializer,
            MySqlSourceReaderMetrics metrics,
            boolean includeSchemaChanges) {
        this(
                deserializer,
                metrics,
                includeSchemaChanges,
                new StatementTimes(),
                new SourceProgress());
    }

    /**
     * @param statementTimes the binlog times of the reader's statements, which schema-change
     *     records get as their {@code source.ts_ms} (see {@link BinlogStatementHook})
     * @param progress marked for every non-empty batch the reader emits, heartbeats included (see
     *     {@link StallWatchingSourceReader})
     */
    public BinlogBatchRecordEmitter(
            DebeziumDeserializationSchema<T> deserializer,
            MySqlSourceReaderMetrics metrics,
            boolean includeSchemaChanges,
            StatementTimes statementTimes,
            SourceProgress progress) {
        super(deserializer, metrics, includeSchemaChanges);
        this.deserializer = deserializer;
        this.metrics = metrics;
        this.statementTimes = statementTimes;
        this.progress = progress;
    }

    @Override
    public void emitRecord(SourceRecords records, SourceOutput<T> output, MySqlSplitState state)
            throws Exception {
        // The binlog reader hands over an empty batch whenever its poll times out: that shows
        // only that the fetcher loops, not that the server is heard from.
        if (!records.getSourceRecordList().isEmpty()) {
            progress.mark();
        }
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
            } else if (DatabaseStatements.is(record)) {
                // Positioned after the statement, as a schema-change record is.
                positioned = record;
                collector.output = output;
                collector.timestamp = 0L;
                deserializer.deserialize(withEventTime(record), collector);
            } else {
                storePosition(state, positioned);
                positioned = null;
                processElement(
                        RecordUtils.isSchemaChangeEvent(record) ? withEventTime(record) : record,
                        output,
                        state);
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

    /**
     * The schema-change record with its statement's binlog event time as {@code source.ts_ms},
     * where Debezium put the time it parsed the statement.
     */
    private SourceRecord withEventTime(SourceRecord record) {
        if (!(record.value() instanceof Struct)) {
            return record;
        }
        Struct value = (Struct) record.value();
        Field sourceField = value.schema().field("source");
        Struct source = sourceField == null ? null : value.getStruct("source");
        if (source == null || source.schema().field("ts_ms") == null) {
            return record;
        }
        Object file = source.get("file");
        Object pos = source.get("pos");
        Long time =
                file instanceof String && pos instanceof Number
                        ? statementTimes.find((String) file, ((Number) pos).longValue())
                        : null;
        if (time == null) {
            if (!warnedUnknownTime) {
                warnedUnknownTime = true;
                LOG.warn(
                        "The binlog time of the statement at {}:{} is unknown: its DDL message"
                                + " carries the time it was read instead (and so may later ones)",
                        file,
                        pos);
            }
            return record;
        }
        return record.newRecord(
                record.topic(),
                record.kafkaPartition(),
                record.keySchema(),
                record.key(),
                record.valueSchema(),
                with(value, sourceField, with(source, source.schema().field("ts_ms"), time)),
                record.timestamp());
    }

    /** A copy of {@code struct} with {@code field} set to {@code fieldValue}. */
    private static Struct with(Struct struct, Field field, Object fieldValue) {
        Struct copy = new Struct(struct.schema());
        for (Field each : struct.schema().fields()) {
            copy.put(each, each.equals(field) ? fieldValue : struct.get(each));
        }
        return copy;
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

package io.sluice.functions.source.internal;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlRecordEmitter;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplitState;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitState;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.Collector;

import io.debezium.data.Envelope;
import io.sluice.functions.source.DebeziumRecords;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch emitter must leave the binlog split in the state Flink CDC's own emitter leaves it in,
 * and emit the same values with the same timestamps, for every batch shape.
 */
class BinlogBatchRecordEmitterTest {

    private static final Schema ROW =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Value")
                    .optional()
                    .field("id", Schema.INT32_SCHEMA)
                    .build();

    private static final Envelope ENVELOPE =
            DebeziumRecords.envelope("srv.shop.items.Envelope", ROW);

    /** A second table; its row is labelled with a negated id. */
    private static final Schema OTHER_ROW =
            SchemaBuilder.struct()
                    .name("srv.shop.orders.Value")
                    .optional()
                    .field("id", Schema.INT32_SCHEMA)
                    .build();

    /**
     * The second table's envelope lists its fields in another order, so fields resolved for one
     * table's schema would misread the other's rows.
     */
    private static final Schema OTHER_ENVELOPE =
            SchemaBuilder.struct()
                    .name("srv.shop.orders.Envelope")
                    .field("op", Schema.STRING_SCHEMA)
                    .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
                    .field("after", OTHER_ROW)
                    .field("source", DebeziumRecords.SOURCE)
                    .build();

    @Test
    void rowsThenAHeartbeatLeaveTheHeartbeatsPosition() throws Exception {
        assertSameAsFlinkCdc(false, List.of(row(1, 100), row(2, 200), heartbeat(300)));
    }

    @Test
    void theLastRowOfEachBatchIsTheResumePosition() throws Exception {
        assertSameAsFlinkCdc(
                false,
                List.of(row(1, 100), row(2, 200)),
                List.of(row(3, 300)),
                List.of(heartbeat(400), row(4, 500), row(5, 600)));
    }

    @Test
    void aSchemaChangeAfterRowsIsTheResumePosition() throws Exception {
        // The rows' pending position must not overwrite the later statement's.
        BinlogOffset after = assertSameAsFlinkCdc(true, List.of(row(1, 100), ddl(200)));
        assertThat(after.getPosition()).isEqualTo(200);
    }

    @Test
    void rowsAroundASchemaChangeKeepBinlogOrder() throws Exception {
        assertSameAsFlinkCdc(true, List.of(row(1, 100), ddl(200), row(2, 300)), List.of(ddl(400)));
    }

    @Test
    void aSchemaChangeLeftOutOfTheOutputStillOrdersPositions() throws Exception {
        assertSameAsFlinkCdc(false, List.of(row(1, 100), ddl(200)), List.of(row(2, 300)));
    }

    @Test
    void rowsOfTwoTablesInterleavedKeepTheirTimestamps() throws Exception {
        // The envelope's fields are looked up per schema: alternating schemas must not mix them.
        assertSameAsFlinkCdc(
                false,
                List.of(row(1, 100), otherRow(2, 200), row(3, 300)),
                List.of(otherRow(4, 400), otherRow(5, 500), heartbeat(600), row(6, 700)));
    }

    @Test
    void rowsWithoutAnEventTimeAreEmittedWithoutATimestamp() throws Exception {
        Emitted ours =
                run(
                        metrics -> new BinlogBatchRecordEmitter<>(LABEL, metrics, false),
                        List.of(row(9, 700, 0)));
        assertThat(ours.values).containsExactly("row 9 @-");
    }

    @Test
    void aSchemaChangeCarriesItsStatementsBinlogTime() throws Exception {
        StatementTimes times = new StatementTimes();
        times.put("bin.1", 150, 1_600_000_000_000L); // a statement that made no record
        times.put("bin.1", 200, 1_600_000_001_000L);
        times.put("bin.1", 400, 1_600_000_002_000L);
        Emitted ours =
                run(
                        metrics ->
                                new BinlogBatchRecordEmitter<>(
                                        LABEL, metrics, true, times, new SourceProgress()),
                        List.of(row(1, 100), ddl(200), ddl(200)),
                        List.of(ddl(400), ddl(500)));
        assertThat(ours.values)
                .containsExactly(
                        "row 1 @1700000000100",
                        // One statement, two tables: both records get its time.
                        "ddl at 200 of 1600000001000 @1600000001000",
                        "ddl at 200 of 1600000001000 @1600000001000",
                        "ddl at 400 of 1600000002000 @1600000002000",
                        // Unknown: left as Debezium made it.
                        "ddl at 500 of 1700000000500 @1700000000500");
        assertThat(times.find("bin.1", 150)).as("read statements are forgotten").isNull();
    }

    @Test
    void everyBatchIsProgressHeartbeatsIncluded() throws Exception {
        SourceProgress progress = new SourceProgress();
        long before = progress.lastNanos();
        run(
                metrics ->
                        new BinlogBatchRecordEmitter<>(
                                LABEL, metrics, false, new StatementTimes(), progress),
                List.of());
        assertThat(progress.lastNanos()).as("an empty batch").isEqualTo(before);
        run(
                metrics ->
                        new BinlogBatchRecordEmitter<>(
                                LABEL, metrics, false, new StatementTimes(), progress),
                List.of(heartbeat(600)));
        assertThat(progress.lastNanos()).as("a heartbeat-only batch").isGreaterThan(before);
    }

    /** Runs both emitters over the batches; returns the resume position they agree on. */
    @SafeVarargs
    private static BinlogOffset assertSameAsFlinkCdc(
            boolean includeSchemaChanges, List<SourceRecord>... batches) throws Exception {
        Emitted theirs =
                run(
                        metrics -> new MySqlRecordEmitter<>(LABEL, metrics, includeSchemaChanges),
                        batches);
        Emitted ours =
                run(
                        metrics ->
                                new BinlogBatchRecordEmitter<>(
                                        LABEL, metrics, includeSchemaChanges),
                        batches);

        assertThat(ours.values).isEqualTo(theirs.values).isNotEmpty();
        assertThat(ours.positions).isEqualTo(theirs.positions);
        assertThat(ours.fetchDelays).isEqualTo(theirs.fetchDelays);
        return ours.positions.get(ours.positions.size() - 1);
    }

    @SafeVarargs
    private static Emitted run(
            Function<MySqlSourceReaderMetrics, MySqlRecordEmitter<String>> emitters,
            List<SourceRecord>... batches)
            throws Exception {
        MySqlSplitState state =
                new MySqlBinlogSplitState(
                        new MySqlBinlogSplit(
                                "binlog-split",
                                BinlogOffset.ofBinlogFilePosition("bin.1", 4),
                                BinlogOffset.ofNonStopping(),
                                new ArrayList<>(),
                                new HashMap<>(),
                                0));
        MySqlSourceReaderMetrics metrics =
                new MySqlSourceReaderMetrics(new UnregisteredMetricsGroup());
        MySqlRecordEmitter<String> emitter = emitters.apply(metrics);
        Emitted emitted = new Emitted();
        for (List<SourceRecord> batch : batches) {
            emitter.emitRecord(new SourceRecords(batch), emitted, state);
            // What a checkpoint taken now would store.
            emitted.positions.add(state.asBinlogSplitState().getStartingOffset());
            emitted.fetchDelays.add(metrics.getFetchDelay());
        }
        return emitted;
    }

    private static SourceRecord row(int id, long pos) {
        return row(id, pos, 1_700_000_000_000L + pos);
    }

    /** A row whose binlog event has time {@code tsMs} (0: none, as in snapshot reads). */
    private static SourceRecord row(int id, long pos, long tsMs) {
        Struct value =
                ENVELOPE.create(
                        new Struct(ROW).put("id", id),
                        source(tsMs, pos),
                        Instant.ofEpochMilli(tsMs + 5));
        return record("srv.shop.items", value, pos);
    }

    private static SourceRecord otherRow(int id, long pos) {
        long tsMs = 1_700_000_000_000L + pos;
        Struct value =
                new Struct(OTHER_ENVELOPE)
                        .put("op", "c")
                        .put("ts_ms", tsMs + 7)
                        .put("after", new Struct(OTHER_ROW).put("id", -id))
                        .put("source", source(tsMs, pos));
        return record("srv.shop.orders", value, pos);
    }

    /** A change record of {@code value} at binlog position {@code pos}, without a key. */
    private static SourceRecord record(String topic, Struct value, long pos) {
        return new SourceRecord(
                Map.of(), offset(pos), topic, null, null, null, value.schema(), value);
    }

    private static SourceRecord heartbeat(long pos) {
        return DebeziumRecords.heartbeat(offset(pos));
    }

    private static SourceRecord ddl(long pos) {
        return DebeziumRecords.schemaChange(
                source(1_700_000_000_000L + pos, pos), "ALTER TABLE items ADD c INT", offset(pos));
    }

    private static Struct source(long tsMs, long pos) {
        return DebeziumRecords.source(tsMs, "bin.1", pos, 0, null, null);
    }

    private static Map<String, Object> offset(long pos) {
        Map<String, Object> offset = new HashMap<>();
        offset.put("file", "bin.1");
        offset.put("pos", pos);
        offset.put("event", 1L);
        offset.put("row", 1);
        offset.put("ts_sec", 1_700_000_000L);
        return offset;
    }

    /** Labels each record: its row id or statement, and the timestamp it was emitted with. */
    private static final DebeziumDeserializationSchema<String> LABEL =
            new DebeziumDeserializationSchema<>() {
                @Override
                public void deserialize(SourceRecord record, Collector<String> out) {
                    Struct value = (Struct) record.value();
                    if (value.schema().field("historyRecord") != null) {
                        Struct source = value.getStruct("source");
                        out.collect(
                                "ddl at "
                                        + source.getInt64("pos")
                                        + " of "
                                        + source.getInt64("ts_ms"));
                    } else {
                        out.collect("row " + value.getStruct("after").getInt32("id"));
                    }
                }

                @Override
                public TypeInformation<String> getProducedType() {
                    return Types.STRING;
                }
            };

    /**
     * What an emitter put out: labels with timestamps; after each batch, position and fetch delay.
     */
    private static final class Emitted implements SourceOutput<String> {
        final List<String> values = new ArrayList<>();
        final List<BinlogOffset> positions = new ArrayList<>();
        final List<Long> fetchDelays = new ArrayList<>();

        @Override
        public void collect(String record) {
            values.add(record + " @-");
        }

        @Override
        public void collect(String record, long timestamp) {
            values.add(record + " @" + timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}
    }
}

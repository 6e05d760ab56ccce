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
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch emitter must leave the binlog split in the state Flink CDC's own emitter leaves it in,
 * and emit the same values with the same timestamps, for every batch shape.
 */
class BinlogBatchRecordEmitterTest {

    private static final Schema SOURCE =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.Source")
                    .field("ts_ms", Schema.INT64_SCHEMA)
                    .field("db", Schema.STRING_SCHEMA)
                    .field("table", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("file", Schema.STRING_SCHEMA)
                    .field("pos", Schema.INT64_SCHEMA)
                    .build();

    private static final Schema ROW =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Value")
                    .optional()
                    .field("id", Schema.INT32_SCHEMA)
                    .build();

    private static final Envelope ENVELOPE =
            Envelope.defineSchema()
                    .withName("srv.shop.items.Envelope")
                    .withRecord(ROW)
                    .withSource(SOURCE)
                    .build();

    private static final Schema HEARTBEAT =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.common.Heartbeat")
                    .field("ts_ms", Schema.INT64_SCHEMA)
                    .build();

    private static final Schema SCHEMA_CHANGE_KEY =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.SchemaChangeKey")
                    .field("databaseName", Schema.STRING_SCHEMA)
                    .build();

    private static final Schema SCHEMA_CHANGE_VALUE =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.SchemaChangeValue")
                    .field("source", SOURCE)
                    .field("historyRecord", Schema.OPTIONAL_STRING_SCHEMA)
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
    void rowsWithoutAnEventTimeAreEmittedWithoutATimestamp() throws Exception {
        Emitted ours =
                run(
                        new BinlogBatchRecordEmitter<>(LABEL, metrics(), false),
                        List.of(snapshotTimeRow()));
        assertThat(ours.values).containsExactly("row 9 @-");
    }

    /** Runs both emitters over the batches; returns the resume position they agree on. */
    @SafeVarargs
    private static BinlogOffset assertSameAsFlinkCdc(
            boolean includeSchemaChanges, List<SourceRecord>... batches) throws Exception {
        Emitted theirs =
                run(new MySqlRecordEmitter<>(LABEL, metrics(), includeSchemaChanges), batches);
        Emitted ours =
                run(
                        new BinlogBatchRecordEmitter<>(LABEL, metrics(), includeSchemaChanges),
                        batches);

        assertThat(ours.values).isEqualTo(theirs.values).isNotEmpty();
        assertThat(ours.positions).isEqualTo(theirs.positions);
        return ours.positions.get(ours.positions.size() - 1);
    }

    @SafeVarargs
    private static Emitted run(MySqlRecordEmitter<String> emitter, List<SourceRecord>... batches)
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
        Emitted emitted = new Emitted();
        for (List<SourceRecord> batch : batches) {
            emitter.emitRecord(new SourceRecords(batch), emitted, state);
            // What a checkpoint taken now would store.
            emitted.positions.add(state.asBinlogSplitState().getStartingOffset());
        }
        return emitted;
    }

    private static MySqlSourceReaderMetrics metrics() {
        return new MySqlSourceReaderMetrics(new UnregisteredMetricsGroup());
    }

    private static SourceRecord row(int id, long pos) {
        Struct value =
                ENVELOPE.create(
                        new Struct(ROW).put("id", id),
                        source(1_700_000_000_000L + pos, pos),
                        Instant.ofEpochMilli(1_700_000_000_000L + pos + 5));
        return new SourceRecord(
                Map.of(),
                offset(pos),
                "srv.shop.items",
                null,
                null,
                null,
                ENVELOPE.schema(),
                value);
    }

    private static SourceRecord snapshotTimeRow() {
        Struct value =
                ENVELOPE.create(
                        new Struct(ROW).put("id", 9), source(0, 700), Instant.ofEpochMilli(5));
        return new SourceRecord(
                Map.of(),
                offset(700),
                "srv.shop.items",
                null,
                null,
                null,
                ENVELOPE.schema(),
                value);
    }

    private static SourceRecord heartbeat(long pos) {
        return new SourceRecord(
                Map.of(),
                offset(pos),
                "hb",
                null,
                null,
                null,
                HEARTBEAT,
                new Struct(HEARTBEAT).put("ts_ms", 1L));
    }

    private static SourceRecord ddl(long pos) {
        Struct value =
                new Struct(SCHEMA_CHANGE_VALUE)
                        .put("source", source(1_700_000_000_000L + pos, pos))
                        .put(
                                "historyRecord",
                                "{\"source\":{\"file\":\"bin.1\",\"pos\":"
                                        + pos
                                        + "},\"databaseName\":\"shop\",\"ddl\":\"ALTER TABLE items"
                                        + " ADD c INT\",\"tableChanges\":[]}");
        return new SourceRecord(
                Map.of(),
                offset(pos),
                "srv",
                0,
                SCHEMA_CHANGE_KEY,
                new Struct(SCHEMA_CHANGE_KEY).put("databaseName", "shop"),
                SCHEMA_CHANGE_VALUE,
                value);
    }

    private static Struct source(long tsMs, long pos) {
        return new Struct(SOURCE)
                .put("ts_ms", tsMs)
                .put("db", "shop")
                .put("table", "items")
                .put("file", "bin.1")
                .put("pos", pos);
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
                        out.collect("ddl at " + value.getStruct("source").getInt64("pos"));
                    } else {
                        out.collect("row " + value.getStruct("after").getInt32("id"));
                    }
                }

                @Override
                public TypeInformation<String> getProducedType() {
                    return Types.STRING;
                }
            };

    /** What an emitter put out: labels with their timestamps, and each batch's resume position. */
    private static final class Emitted implements SourceOutput<String> {
        final List<String> values = new ArrayList<>();
        final List<BinlogOffset> positions = new ArrayList<>();

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

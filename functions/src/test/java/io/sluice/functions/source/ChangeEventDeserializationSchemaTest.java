package io.sluice.functions.source;

import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Decimal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.apache.flink.util.InstantiationUtil;

import io.debezium.data.Envelope;
import io.sluice.functions.source.internal.ChangeRecordConverter;
import io.sluice.functions.source.internal.TimestampMicrosConverter;
import io.sluice.functions.types.ChangeEventTypeInfo;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.slf4j.event.Level.WARN;

/** The whole conversion on hand-built records shaped like Flink CDC 3.5's (Debezium 1.9). */
class ChangeEventDeserializationSchemaTest {

    private static final Schema KEY =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Key")
                    .field("id", Schema.INT32_SCHEMA)
                    .build();

    private static final Schema ROW =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Value")
                    .optional()
                    .field("id", typed(SchemaBuilder.int32(), "INT", "11", null))
                    .field(
                            "name",
                            typed(
                                    SchemaBuilder.string().optional().defaultValue("dflt"),
                                    "VARCHAR",
                                    "8",
                                    null))
                    .field("price", typed(Decimal.builder(2).optional(), "DECIMAL", "10", "2"))
                    .build();

    private static final Envelope ENVELOPE =
            DebeziumRecords.envelope("srv.shop.items.Envelope", ROW);

    private static final Instant NOW = Instant.ofEpochMilli(5L);

    /** What the conversion warns about, per test. */
    @RegisterExtension
    final LoggerAuditingExtension converterLog =
            new LoggerAuditingExtension(ChangeRecordConverter.class, WARN);

    private final ChangeEventDeserializationSchema schema =
            new ChangeEventDeserializationSchema(ZoneOffset.UTC);

    @Test
    void snapshotReadIsAnInsertWithoutBinlogCoordinates() {
        ChangeEvent event =
                single(
                        record(
                                ENVELOPE.read(
                                        row(1, "fig", "10.00"), source(0, "", 0, 0, null), NOW)));

        assertThat(event.type()).isEqualTo(ChangeType.INSERT);
        assertThat(event.database()).isEqualTo("shop");
        assertThat(event.table()).isEqualTo("items");
        assertThat(event.before()).isNull();
        assertThat(texts(event.after())).containsExactly("1", "fig", "10.00");
        assertThat(event.executeTime()).isZero();
        assertThat(event.binlogFile()).isEmpty();
        assertThat(event.binlogPosition()).isZero();
        TableSchema table = event.schema();
        assertThat(table.mysqlType(0)).isEqualTo("int(11)");
        assertThat(table.mysqlType(1)).isEqualTo("varchar(8)");
        assertThat(table.mysqlType(2)).isEqualTo("decimal(10,2)");
        assertThat(new int[] {table.sqlType(0), table.sqlType(1), table.sqlType(2)})
                .containsExactly(Types.INTEGER, Types.VARCHAR, Types.DECIMAL);
        assertThat(table.keyNames()).containsExactly("id");
    }

    @Test
    void binlogChangesCarryTheirCoordinates() {
        ChangeEvent insert =
                single(
                        record(
                                ENVELOPE.create(
                                        row(2, "kiwi", "0.99"),
                                        source(1_700_000_000_000L, "bin.000003", 4711, 2, "uuid:7"),
                                        NOW)));

        assertThat(insert.type()).isEqualTo(ChangeType.INSERT);
        assertThat(insert.executeTime()).isEqualTo(1_700_000_000_000L);
        assertThat(insert.binlogFile()).isEqualTo("bin.000003");
        assertThat(insert.binlogPosition()).isEqualTo(4711);
        assertThat(insert.rowInEvent()).isEqualTo(2);
        assertThat(insert.serverId()).isEqualTo(1);
        assertThat(insert.gtid()).isEqualTo("uuid:7");
        assertThat(insert.transactionId()).isEqualTo("uuid:7");
    }

    @Test
    void negativeMariaDbPositionFallsBackToTheResumeOffset() {
        Struct value =
                ENVELOPE.create(row(2, "kiwi", "0.99"), source(1L, "bin.1", -294, 0, null), NOW);
        SourceRecord record =
                new SourceRecord(
                        Map.of(),
                        Map.of("file", "bin.1", "pos", 5723L),
                        "topic",
                        null,
                        KEY,
                        new Struct(KEY).put("id", 2),
                        ENVELOPE.schema(),
                        value);

        assertThat(single(record).binlogPosition()).isEqualTo(5723);
    }

    @Test
    void updateAndDeleteCarryTheirImages() {
        ChangeEvent update =
                single(
                        record(
                                ENVELOPE.update(
                                        row(1, "fig", "10.00"),
                                        row(1, "fig", "10.50"),
                                        source(1L, "b", 1, 0, null),
                                        NOW)));
        ChangeEvent delete =
                single(
                        record(
                                ENVELOPE.delete(
                                        row(1, "fig", "10.50"), source(1L, "b", 1, 0, null), NOW)));

        assertThat(update.type()).isEqualTo(ChangeType.UPDATE);
        assertThat(texts(update.before())).containsExactly("1", "fig", "10.00");
        assertThat(texts(update.after())).containsExactly("1", "fig", "10.50");
        assertThat(update.isUpdated(2)).isTrue();
        assertThat(update.isUpdated(1)).isFalse();
        assertThat(delete.type()).isEqualTo(ChangeType.DELETE);
        assertThat(texts(delete.before())).containsExactly("1", "fig", "10.50");
        assertThat(delete.after()).isNull();
    }

    @Test
    void nullStaysNullInAColumnWithADefault() {
        ChangeEvent event =
                single(
                        record(
                                ENVELOPE.create(
                                        row(3, null, null), source(1L, "b", 1, 0, null), NOW)));

        assertThat(texts(event.after())).containsExactly("3", null, null);
    }

    @Test
    void derivesTheTableOnceAndSharesItsSchema() {
        ChangeRecordConverter converter = new ChangeRecordConverter(ZoneOffset.UTC);
        ChangeEvent first =
                converter.convert(
                        record(
                                ENVELOPE.create(
                                        row(1, "a", "1.00"), source(1L, "b", 1, 0, null), NOW)));
        ChangeEvent second =
                converter.convert(
                        record(
                                ENVELOPE.create(
                                        row(2, "b", "2.00"), source(1L, "b", 2, 0, null), NOW)));
        // A new envelope object for the same table version (Flink CDC builds one per split).
        Envelope again = DebeziumRecords.envelope("srv.shop.items.Envelope", ROW);
        ChangeEvent third =
                converter.convert(
                        record(
                                again.create(row(3, "c", "3.00"), source(1L, "b", 3, 0, null), NOW),
                                again));

        assertThat(second.schema()).isSameAs(first.schema());
        assertThat(third.schema()).isSameAs(first.schema());
        assertThat(converter.cachedPlans()).isEqualTo(2);
    }

    @Test
    void aValueThatCannotBeRenderedNamesColumnTypeAndClass() {
        Schema labelled =
                SchemaBuilder.struct()
                        .name("srv.shop.items.Value")
                        .optional()
                        .field(
                                "kind",
                                typed(io.debezium.data.Enum.builder("a,b"), "ENUM", "1", null))
                        .build();
        Envelope envelope = DebeziumRecords.envelope("e", labelled);
        Struct row = new Struct(labelled).put("kind", "zz");

        assertThatThrownBy(
                        () ->
                                single(
                                        record(
                                                envelope.create(
                                                        row, source(1L, "b", 1, 0, null), NOW),
                                                envelope)))
                .isInstanceOf(ChangeEventConversionException.class)
                .hasMessageContaining("shop.items.kind")
                .hasMessageContaining("enum('a','b')")
                .hasMessageContaining("java.lang.String")
                .hasMessageContaining("'zz' is not one of the labels");
    }

    @Test
    void aSchemaTheSourceShouldNotProduceIsRefused() {
        Schema loose =
                SchemaBuilder.struct()
                        .name("srv.shop.loose.Value")
                        .optional()
                        .field("id", typed(SchemaBuilder.string(), "INT", "11", null))
                        .build();
        Envelope envelope = DebeziumRecords.envelope("e", loose);
        Struct row = new Struct(loose).put("id", "not a number");

        assertThatThrownBy(
                        () ->
                                single(
                                        record(
                                                envelope.create(
                                                        row, source(1L, "b", 1, 0, null), NOW),
                                                envelope)))
                .isInstanceOf(ChangeEventConversionException.class)
                .hasMessageContaining("shop.items.id")
                .hasMessageContaining("int(11)")
                .hasMessageContaining("Connect schema STRING");
    }

    @Test
    void aTypeSluiceCannotRenderFailsTheJobOnce() {
        Schema odd =
                SchemaBuilder.struct()
                        .name("srv.shop.odd.Value")
                        .optional()
                        .field("u", typed(SchemaBuilder.bytes(), "VECTOR", null, null))
                        .build();
        Envelope envelope = DebeziumRecords.envelope("e", odd);
        Struct row = new Struct(odd).put("u", new byte[16]);

        // Non-recoverable: a restart would meet the same column.
        assertThatThrownBy(
                        () ->
                                single(
                                        record(
                                                envelope.create(
                                                        row, source(1L, "b", 1, 0, null), NOW),
                                                envelope)))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("shop.items.u (declared vector)")
                .hasMessageContaining("type vector is not supported")
                .hasMessageContaining("Leave the table out of the captured tables");
    }

    @Test
    void aColumnWithoutDeclaredTypeIsRefused() {
        Schema untyped =
                SchemaBuilder.struct()
                        .name("v")
                        .optional()
                        .field("id", Schema.INT32_SCHEMA)
                        .build();
        Envelope envelope = DebeziumRecords.envelope("e", untyped);

        assertThatThrownBy(
                        () ->
                                single(
                                        record(
                                                envelope.create(
                                                        new Struct(untyped).put("id", 1),
                                                        source(1L, "b", 1, 0, null),
                                                        NOW),
                                                envelope)))
                .isInstanceOf(ChangeEventConversionException.class)
                .hasMessageContaining("shop.items.id")
                .hasMessageContaining("column.propagate.source.type");
    }

    @Test
    void schemaChangeBecomesATypedStatement() {
        String ddl = "ALTER TABLE items ADD INDEX i_name (name)";
        SourceRecord record =
                DebeziumRecords.schemaChange(
                        source(1_700_000_000_000L, "bin.1", 9931, 0, null), ddl, Map.of());

        ChangeEvent event = single(record);

        assertThat(event.type()).isEqualTo(ChangeType.CINDEX);
        assertThat(event.isDdl()).isTrue();
        assertThat(event.sql()).isEqualTo(ddl);
        assertThat(event.database()).isEqualTo("shop");
        assertThat(event.table()).isEqualTo("items");
        assertThat(event.schema().columnCount()).isZero();
        assertThat(event.binlogFile()).isEqualTo("bin.1");
        assertThat(event.binlogPosition()).isEqualTo(9931);
        assertThat(event.executeTime()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void heartbeatsAndTombstonesProduceNothing() {
        List<ChangeEvent> out = new ArrayList<>();
        schema.deserialize(DebeziumRecords.heartbeat(Map.of()), new ListCollector<>(out));
        schema.deserialize(
                new SourceRecord(
                        Map.of(),
                        Map.of(),
                        "t",
                        null,
                        KEY,
                        new Struct(KEY).put("id", 1),
                        null,
                        null),
                new ListCollector<>(out));

        assertThat(out).isEmpty();
    }

    @Test
    void isSerializableAndProducesChangeEvents() throws Exception {
        ChangeEventDeserializationSchema copy =
                InstantiationUtil.clone(schema, getClass().getClassLoader());

        assertThat(copy.getProducedType()).isInstanceOf(ChangeEventTypeInfo.class);
        assertThat(
                        single(
                                        copy,
                                        record(
                                                ENVELOPE.create(
                                                        row(1, "a", "1.00"),
                                                        source(1L, "b", 1, 0, null),
                                                        NOW)))
                                .after())
                .isNotNull();
        assertThat(ChangeEventDeserializationSchema.debeziumProperties())
                .containsEntry("column.propagate.source.type", ".*")
                .containsEntry("time.precision.mode", "adaptive_time_microseconds")
                .containsEntry("converters", TimestampMicrosConverter.NAME)
                .containsEntry(
                        TimestampMicrosConverter.NAME + ".type",
                        TimestampMicrosConverter.class.getName());
    }

    private static SchemaBuilder typed(
            SchemaBuilder builder, String type, String length, String scale) {
        builder.parameter("__debezium.source.column.type", type);
        if (length != null) {
            builder.parameter("__debezium.source.column.length", length);
        }
        if (scale != null) {
            builder.parameter("__debezium.source.column.scale", scale);
        }
        return builder;
    }

    @Test
    void warnsOnceWhenASnapshottedTableIsChunkedByATimestamp() {
        Schema micros = SchemaBuilder.int64().name(TimestampMicrosConverter.SCHEMA_NAME).build();
        Schema key = SchemaBuilder.struct().name("srv.shop.items.Key").field("ts", micros).build();
        Schema valueTs =
                typed(
                                SchemaBuilder.int64().name(TimestampMicrosConverter.SCHEMA_NAME),
                                "TIMESTAMP",
                                null,
                                null)
                        .build();
        Schema row =
                SchemaBuilder.struct()
                        .name("srv.shop.items.Value")
                        .optional()
                        .field("ts", valueTs)
                        .build();
        Envelope envelope = DebeziumRecords.envelope("srv.shop.items.Envelope", row);
        Struct image = new Struct(row).put("ts", 1_709_251_199_000_000L);
        Struct tsKey = new Struct(key).put("ts", 1_709_251_199_000_000L);
        SourceRecord snapshot =
                record(tsKey, envelope.read(image, source(0, "", 0, 0, null), NOW), envelope);
        SourceRecord binlog =
                record(tsKey, envelope.create(image, source(1L, "b", 1, 0, null), NOW), envelope);

        single(new ChangeEventDeserializationSchema(ZoneOffset.UTC), binlog);
        assertThat(converterLog.getMessages()).isEmpty();
        ChangeEventDeserializationSchema snapshotting =
                new ChangeEventDeserializationSchema(ZoneOffset.UTC);
        single(snapshotting, snapshot);
        single(snapshotting, snapshot);
        assertThat(converterLog.getMessages())
                .singleElement()
                .asString()
                .contains("shop.items")
                .contains("TIMESTAMP");
    }

    private static Struct row(int id, String name, String price) {
        return new Struct(ROW)
                .put("id", id)
                .put("name", name)
                .put("price", price == null ? null : new BigDecimal(price));
    }

    private static Struct source(long tsMs, String file, long pos, int row, String gtid) {
        return DebeziumRecords.source(tsMs, file, pos, row, gtid, null);
    }

    private static SourceRecord record(Struct value) {
        return record(value, ENVELOPE);
    }

    private static SourceRecord record(Struct value, Envelope envelope) {
        return record(new Struct(KEY).put("id", 1), value, envelope);
    }

    private static SourceRecord record(Struct key, Struct value, Envelope envelope) {
        return new SourceRecord(
                Map.of(),
                Map.of(),
                "srv.shop.items",
                null,
                key.schema(),
                key,
                envelope.schema(),
                value);
    }

    private ChangeEvent single(SourceRecord record) {
        return single(schema, record);
    }

    private static ChangeEvent single(
            ChangeEventDeserializationSchema schema, SourceRecord record) {
        List<ChangeEvent> out = new ArrayList<>();
        schema.deserialize(record, new ListCollector<>(out));
        assertThat(out).hasSize(1);
        return out.get(0);
    }

    private static List<String> texts(io.sluice.serializers.event.RowImage image) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < image.columnCount(); i++) {
            texts.add(image.text(i));
        }
        return texts;
    }
}

package io.sluice.functions.source;

import org.apache.flink.api.common.functions.util.ListCollector;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;

import io.debezium.data.Envelope;
import io.sluice.functions.source.internal.ChangeRecordConverter;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statement texts from MySQL rows-query events, on records shaped as Debezium 1.9 writes them with
 * {@code include.query=true}: {@code source.query} holds the latest rows-query text, one String
 * instance per event, on every row until the transaction commits.
 */
class ChangeEventQueryConversionTest {

    private static final Schema KEY =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Key")
                    .field("id", Schema.INT32_SCHEMA)
                    .build();

    private static final Schema ROW =
            SchemaBuilder.struct()
                    .name("srv.shop.items.Value")
                    .optional()
                    .field(
                            "id",
                            SchemaBuilder.int32()
                                    .parameter("__debezium.source.column.type", "INT")
                                    .build())
                    .build();

    private static final Envelope ENVELOPE =
            DebeziumRecords.envelope("srv.shop.items.Envelope", ROW);

    private static final String INSERT_TWO = "INSERT INTO items VALUES (1), (2)";

    @Test
    void theFirstRowOfEachStatementCarriesItsText() {
        String update = "UPDATE items SET id = id + 10 -- 中文";
        List<SourceRecord> transaction =
                List.of(
                        insert(1, 100, 0, INSERT_TWO),
                        insert(2, 100, 1, INSERT_TWO),
                        // One statement over two rows events: the second starts at row 0 again.
                        update(1, 200, 0, update),
                        update(2, 200, 1, update),
                        update(3, 300, 0, update));

        List<ChangeEvent> events =
                convert(new ChangeRecordConverter(ZoneOffset.UTC, true), transaction);

        assertThat(events)
                .extracting(ChangeEvent::query)
                .containsExactly(INSERT_TWO, "", update, "", "");
        assertThat(events).allSatisfy(event -> assertThat(event.isRow()).isTrue());
    }

    @Test
    void twoStatementsWithTheSameTextEachCarryIt() {
        // Each rows-query event is read into a String of its own, even with equal text.
        String first = new String(INSERT_TWO);
        String second = new String(INSERT_TWO);

        List<ChangeEvent> events =
                convert(
                        new ChangeRecordConverter(ZoneOffset.UTC, true),
                        List.of(
                                insert(1, 100, 0, first),
                                insert(2, 100, 1, first),
                                insert(1, 200, 0, second)));

        assertThat(events)
                .extracting(ChangeEvent::query)
                .containsExactly(INSERT_TWO, "", INSERT_TWO);
    }

    @Test
    void rowsWithoutRowsQueryEventsAndSnapshotReadsCarryNothing() {
        Struct read = ENVELOPE.read(row(5), source(0, "", 0, 0, INSERT_TWO), Instant.EPOCH);

        List<ChangeEvent> events =
                convert(
                        new ChangeRecordConverter(ZoneOffset.UTC, true),
                        List.of(record(read), insert(1, 100, 0, null), insert(2, 100, 1, null)));

        assertThat(events).extracting(ChangeEvent::query).containsOnly("");
    }

    @Test
    void aRestoreInsideARowsEventDoesNotRepeatTheStatement() {
        // A new converter (after a restore) whose first row is row 1 of its event.
        List<ChangeEvent> events =
                convert(
                        new ChangeRecordConverter(ZoneOffset.UTC, true),
                        List.of(insert(2, 100, 1, INSERT_TWO), insert(3, 200, 0, "DELETE x")));

        assertThat(events).extracting(ChangeEvent::query).containsExactly("", "DELETE x");
    }

    @Test
    void queriesLeftOutByDefault() {
        List<SourceRecord> records =
                List.of(insert(1, 100, 0, INSERT_TWO), insert(2, 100, 1, INSERT_TWO));
        List<ChangeEvent> events = new ArrayList<>();
        ChangeEventDeserializationSchema schema =
                new ChangeEventDeserializationSchema(ZoneOffset.UTC);
        for (SourceRecord record : records) {
            schema.deserialize(record, new ListCollector<>(events));
        }

        assertThat(events).hasSize(2).extracting(ChangeEvent::query).containsOnly("");
        assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeType.INSERT);
    }

    @Test
    void theDeserializerPassesTheOptionOn() {
        List<ChangeEvent> events = new ArrayList<>();
        new ChangeEventDeserializationSchema(ZoneOffset.UTC, true)
                .deserialize(insert(1, 100, 0, INSERT_TWO), new ListCollector<>(events));

        assertThat(events).singleElement().extracting(ChangeEvent::query).isEqualTo(INSERT_TWO);
    }

    private static List<ChangeEvent> convert(
            ChangeRecordConverter converter, List<SourceRecord> records) {
        List<ChangeEvent> events = new ArrayList<>();
        for (SourceRecord record : records) {
            events.add(converter.convert(record));
        }
        return events;
    }

    private static SourceRecord insert(int id, long pos, int row, String query) {
        return record(
                ENVELOPE.create(row(id), source(1L, "bin.000001", pos, row, query), Instant.EPOCH));
    }

    private static SourceRecord update(int id, long pos, int row, String query) {
        return record(
                ENVELOPE.update(
                        row(id),
                        row(id + 10),
                        source(1L, "bin.000001", pos, row, query),
                        Instant.EPOCH));
    }

    private static Struct row(int id) {
        return new Struct(ROW).put("id", id);
    }

    private static Struct source(long tsMs, String file, long pos, int row, String query) {
        return DebeziumRecords.source(tsMs, file, pos, row, null, query);
    }

    private static SourceRecord record(Struct value) {
        return new SourceRecord(
                Map.of(),
                Map.of(),
                "srv.shop.items",
                null,
                KEY,
                new Struct(KEY).put("id", 1),
                ENVELOPE.schema(),
                value);
    }
}

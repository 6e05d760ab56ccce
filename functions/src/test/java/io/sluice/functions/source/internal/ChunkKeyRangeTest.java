package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Decimal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;

import io.debezium.relational.TableId;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A change's chunk key, as Debezium gives it with Sluice's settings (measured in {@code
 * SnapshotBackfillKeyOrderITCase}: DATETIME(3) a {@code Long} of milliseconds named {@code
 * io.debezium.time.Timestamp}, DATE an {@code Integer} of days, TIME a {@code Long} of microseconds
 * ({@code MicroTime}), TIMESTAMP a {@code Long} of microseconds since the epoch (Sluice's
 * converter), BINARY a {@code ByteBuffer}), against the JDBC bounds of a first, a middle and a last
 * chunk: in range by value, where Flink CDC compares the two as text.
 */
class ChunkKeyRangeTest {

    private static final TableId TABLE = new TableId("db", null, "t");

    /** The zone the JDBC driver built {@link Date} and {@link Time} bounds in. */
    private static final ZoneId JVM = ZoneId.systemDefault();

    @Test
    void dateTimeMillis() {
        Schema schema = named(SchemaBuilder.int64(), "io.debezium.time.Timestamp");
        LocalDateTime low = LocalDateTime.of(2020, 1, 5, 14, 0, 0, 16_000_000);
        LocalDateTime high = LocalDateTime.of(2020, 2, 8, 4, 0, 0, 32_000_000);
        assertChunks(
                schema, low, high, millis(low.minusNanos(1_000_000)), millis(low), millis(high));
    }

    @Test
    void dateTimeMicros() {
        Schema schema = named(SchemaBuilder.int64(), "io.debezium.time.MicroTimestamp");
        LocalDateTime low = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);
        LocalDateTime high = LocalDateTime.of(2038, 1, 19, 3, 14, 8);
        long lowMicros = micros(low.toInstant(ZoneOffset.UTC));
        assertThat(lowMicros).isEqualTo(-1);
        assertChunks(
                schema,
                low,
                high,
                lowMicros - 1,
                lowMicros,
                micros(high.toInstant(ZoneOffset.UTC)));
    }

    @Test
    void date() {
        Schema schema = named(SchemaBuilder.int32(), "io.debezium.time.Date");
        LocalDate low = LocalDate.of(2000, 3, 18);
        LocalDate high = LocalDate.of(2001, 7, 23);
        assertChunks(
                schema,
                Date.valueOf(low),
                Date.valueOf(high),
                (int) low.minusDays(1).toEpochDay(),
                (int) low.toEpochDay(),
                (int) high.toEpochDay());
    }

    @Test
    void time() {
        Schema schema = named(SchemaBuilder.int64(), "io.debezium.time.MicroTime");
        LocalTime low = LocalTime.of(3, 33, 31);
        LocalTime high = LocalTime.of(10, 0);
        assertChunks(
                schema,
                Time.valueOf(low),
                Time.valueOf(high),
                low.toNanoOfDay() / 1000 - 1,
                low.toNanoOfDay() / 1000,
                high.toNanoOfDay() / 1000);
    }

    @Test
    void timestampMicros() {
        Schema schema = named(SchemaBuilder.int64(), TimestampMicrosConverter.SCHEMA_NAME);
        Instant low = Instant.parse("2024-04-01T00:52:00Z");
        Instant high = Instant.parse("2024-04-02T03:00:00Z");
        assertChunks(
                schema,
                Timestamp.from(low),
                Timestamp.from(high),
                micros(low) - 1,
                micros(low),
                micros(high));
    }

    @Test
    void zonedTimestampText() {
        Schema schema = named(SchemaBuilder.string(), "io.debezium.time.ZonedTimestamp");
        Instant low = Instant.parse("2024-04-01T00:52:00Z");
        Instant high = Instant.parse("2024-04-02T03:00:00Z");
        assertChunks(
                schema,
                Timestamp.from(low),
                Timestamp.from(high),
                "2024-04-01T00:51:59.999999Z",
                "2024-04-01T02:52:00+02:00",
                "2024-04-02T03:00:00Z");
    }

    @Test
    void binaryAsUnsignedBytes() {
        Schema schema = SchemaBuilder.bytes().build();
        byte[] low = {0x40, 0, 0};
        byte[] high = {(byte) 0x80, 0, 0};
        assertChunks(
                schema,
                low,
                high,
                ByteBuffer.wrap(new byte[] {0x3f, (byte) 0xff, (byte) 0xff}),
                ByteBuffer.wrap(low.clone()),
                ByteBuffer.wrap(high.clone()));
        // A byte[] value, and a value read from a buffer's position.
        ChunkKeyRange middle = range(low, high);
        assertThat(middle.contains(row(schema, new byte[] {0x7f, 1}))).isTrue();
        ByteBuffer shifted = ByteBuffer.wrap(new byte[] {(byte) 0xff, 0x50});
        shifted.get();
        assertThat(middle.contains(row(schema, shifted))).isTrue();
    }

    @Test
    void numbersAndStringsAsBefore() {
        Schema number = SchemaBuilder.int64().build();
        assertChunks(number, 10, 20, 9L, 10L, 20L);
        assertChunks(
                Decimal.schema(2),
                new BigDecimal("1.5"),
                new BigDecimal("2.50"),
                new BigDecimal("1.49"),
                new BigDecimal("1.50"),
                new BigDecimal("2.50"));
        Schema text = SchemaBuilder.string().build();
        assertChunks(text, "b", "d", "a", "b", "d");
    }

    @Test
    void nullKeyIsInTheFirstChunk() {
        Schema schema = SchemaBuilder.int64().optional().build();
        assertThat(range(null, 10).contains(row(schema, null))).isTrue();
        assertThat(range(10, null).contains(row(schema, null))).isFalse();
    }

    @Test
    void aKeyOfAnotherKindFailsNamingTableColumnAndType() {
        Schema bits =
                SchemaBuilder.bytes()
                        .name("io.debezium.data.Bits")
                        .parameter("__debezium.source.column.type", "BIT")
                        .build();
        assertThatThrownBy(
                        () ->
                                range(new byte[] {1}, new byte[] {2})
                                        .contains(row(bits, new byte[] {1})))
                .hasMessageContaining("'k'")
                .hasMessageContaining("db.t")
                .hasMessageContaining("BIT")
                .hasMessageContaining("io.debezium.data.Bits");
        Schema text = SchemaBuilder.string().build();
        assertThatThrownBy(
                        () ->
                                range(LocalDateTime.of(2020, 1, 1, 0, 0), null)
                                        .contains(row(text, "2020-01-02 00:00:00")))
                .hasMessageContaining("'k'")
                .hasMessageContaining("db.t")
                .hasMessageContaining("java.lang.String");
        Schema flag = SchemaBuilder.bool().build();
        assertThatThrownBy(() -> range(Boolean.FALSE, Boolean.TRUE).contains(row(flag, true)))
                .hasMessageContaining("'k'")
                .hasMessageContaining("db.t")
                .hasMessageContaining("java.lang.Boolean");
    }

    @Test
    void oneChunkHoldsEveryKeyWithoutComparing() {
        Schema flag = SchemaBuilder.bool().build();
        assertThat(range(null, null).contains(row(flag, true))).isTrue();
    }

    /**
     * Chunks (open, low), [low, high), [high, open): {@code below} is just below {@code low},
     * {@code atLow} equals it, {@code atHigh} equals {@code high}.
     */
    private static void assertChunks(
            Schema schema, Object low, Object high, Object below, Object atLow, Object atHigh) {
        ChunkKeyRange first = range(null, low);
        ChunkKeyRange middle = range(low, high);
        ChunkKeyRange last = range(high, null);
        assertThat(first.contains(row(schema, below))).as("%s in the first chunk", below).isTrue();
        assertThat(middle.contains(row(schema, below))).as("%s in the middle", below).isFalse();
        assertThat(first.contains(row(schema, atLow))).as("%s in the first", atLow).isFalse();
        assertThat(middle.contains(row(schema, atLow))).as("%s in the middle", atLow).isTrue();
        assertThat(last.contains(row(schema, atLow))).as("%s in the last", atLow).isFalse();
        assertThat(middle.contains(row(schema, atHigh))).as("%s in the middle", atHigh).isFalse();
        assertThat(last.contains(row(schema, atHigh))).as("%s in the last", atHigh).isTrue();
    }

    private static ChunkKeyRange range(Object start, Object end) {
        return new ChunkKeyRange(TABLE, "k", "k", start, end, JVM, (table, column) -> null);
    }

    private static Struct row(Schema keySchema, Object value) {
        Schema schema = SchemaBuilder.struct().field("k", keySchema).build();
        return new Struct(schema).put("k", value);
    }

    private static Schema named(SchemaBuilder builder, String name) {
        return builder.name(name).build();
    }

    private static long millis(LocalDateTime wallClock) {
        return wallClock.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    private static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000;
    }
}

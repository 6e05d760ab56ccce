package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;
import org.apache.flink.cdc.connectors.mysql.source.utils.SerializerUtils;

import io.debezium.relational.TableId;
import io.sluice.functions.source.internal.CollationOrder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotHandOverTest {

    private static final String FILE = "mysql-bin.000003";
    private static final TableId ORDERS = new TableId("shop", null, "orders");
    private static final TableSchema ORDERS_SCHEMA =
            TableSchema.builder("shop", "orders")
                    .column("note", "varchar(10)", Types.VARCHAR, false)
                    .column("id", "bigint", Types.BIGINT, true)
                    .build();
    private static final TableSchema ITEMS_SCHEMA =
            TableSchema.builder("shop", "items").column("id", "bigint", Types.BIGINT, true).build();

    /** For tables without string chunk keys: asking for a collation is a fault. */
    private static final BiFunction<TableId, String, CollationOrder> NO_STRINGS =
            (id, column) -> {
                throw new AssertionError("A collation asked for " + id + "." + column);
            };

    /** ASCII letters compare case-insensitively (as in utf8mb4_general_ci), the rest by code. */
    private static final BiFunction<TableId, String, CollationOrder> CASE_INSENSITIVE =
            (id, column) -> {
                byte[][] weights = new byte[0x10000][];
                for (int cp = 0; cp < weights.length; cp++) {
                    int weight = cp < 0x80 ? Character.toUpperCase(cp) : cp;
                    weights[cp] = new byte[] {(byte) (weight >> 8), (byte) weight};
                }
                return CollationOrder.of(
                        "test_ci",
                        weights,
                        true,
                        codePoints -> {
                            throw new AssertionError("No supplementary characters here");
                        });
            };

    /** orders in three chunks, [-, 10) until 100, [10, 20) until 200, [20, -) until 300. */
    private static SnapshotHandOver orders() {
        return SnapshotHandOver.of(
                List.of(
                        chunk("orders:1", 10L, 20L, 200),
                        chunk("orders:2", 20L, null, 300),
                        chunk("orders:0", null, 10L, 100)),
                id -> id.equals(ORDERS) ? "id" : null,
                ZoneOffset.UTC,
                ZoneOffset.UTC,
                NO_STRINGS);
    }

    @Test
    void aChangeIsEmittedOnlyAfterItsChunksHighWatermark() {
        SnapshotHandOver handOver = orders();
        assertThat(emits(handOver, insert(15), after(150))).isFalse();
        assertThat(emits(handOver, insert(15), BinlogPosition.at(FILE, 200))).isFalse();
        assertThat(emits(handOver, insert(15), after(200))).isTrue();
        assertThat(emits(handOver, delete(10), after(150))).isFalse();
        assertThat(emits(handOver, delete(10), after(250))).isTrue();
    }

    @Test
    void theOpenFirstAndLastChunksTakeEveryKeyBeyondTheirBound() {
        SnapshotHandOver handOver = orders();
        assertThat(emits(handOver, insert(-1_000_000), after(50))).isFalse();
        assertThat(emits(handOver, insert(-1_000_000), after(150))).isTrue();
        assertThat(emits(handOver, insert(9), after(150))).isTrue();
        assertThat(emits(handOver, insert(1_000_000), after(250))).isFalse();
        assertThat(emits(handOver, insert(20), after(250))).isFalse();
        assertThat(emits(handOver, insert(19), after(250))).isTrue();
    }

    @Test
    void keysCompareAsNumbersNotAsText() {
        SnapshotHandOver handOver = orders();
        // As text "9" sorts after "20", in the last chunk, whose high watermark is not passed.
        assertThat(emits(handOver, insert(9), after(150))).isTrue();
        assertThat(emits(handOver, insert(100), after(150))).isFalse();
    }

    @Test
    void stringKeysCompareInTheirCollation() {
        SnapshotHandOver handOver =
                SnapshotHandOver.of(
                        List.of(
                                chunk("orders:0", null, "m", 100),
                                chunk("orders:1", "m", null, 200)),
                        id -> "note",
                        ZoneOffset.UTC,
                        ZoneOffset.UTC,
                        CASE_INSENSITIVE);
        assertThat(emits(handOver, insert("apple", 1), after(150))).isTrue();
        assertThat(emits(handOver, insert("pear", 1), after(150))).isFalse();
        assertThat(emits(handOver, insert("m", 1), after(150))).isFalse();
        // Case-insensitive: 'M' is the bound 'm', 'a' below it though Java sorts 'M' < 'a'.
        assertThat(emits(handOver, insert("M", 1), after(150))).isFalse();
        assertThat(emits(handOver, insert("Apple", 1), after(150))).isTrue();
        assertThat(emits(handOver, insert("PEAR", 1), after(150))).isFalse();
    }

    // The bounds below are of the Java types Flink CDC 3.5.0's splitter reads with
    // mysql-connector-j 8.0.33 (ResultSet.getObject), and pass through its checkpoint form.

    @Test
    void datetimeKeysCompareAsDateTimesZeroDatesFirst() {
        TableSchema schema = keyed("datetime(3)", Types.TIMESTAMP);
        SnapshotHandOver handOver =
                threeChunks(
                        LocalDateTime.parse("2024-01-01T10:00:03.123"),
                        LocalDateTime.parse("2024-01-01T10:00:05.123"),
                        ZoneOffset.UTC,
                        ZoneOffset.UTC);
        // Chunk [10:00:03.123, 10:00:05.123) is read at 200: not yet passed at 150.
        assertThat(emits(handOver, key(schema, "2024-01-01 10:00:03.123"), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, "2024-01-01 10:00:05.122"), after(150))).isFalse();
        // The first chunk, read at 100, is passed.
        assertThat(emits(handOver, key(schema, "2024-01-01 10:00:03.122"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "2023-12-31 23:59:59.999"), after(150))).isTrue();
        // The last chunk, read at 300, is not.
        assertThat(emits(handOver, key(schema, "2024-01-01 10:00:05.123"), after(250))).isFalse();
        assertThat(emits(handOver, key(schema, "9999-12-31 23:59:59.999"), after(250))).isFalse();
        // Zero and partly-zero dates sort below 2024-01-01, as in the server: the first chunk.
        assertThat(emits(handOver, key(schema, "0000-00-00 00:00:00.000"), after(50))).isFalse();
        assertThat(emits(handOver, key(schema, "0000-00-00 00:00:00.000"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "2024-00-00 00:00:00.000"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "2024-01-00 10:00:04.000"), after(150))).isTrue();
    }

    @Test
    void dateKeysAreTheDayTheDriverMeantInTheServerZone() {
        TableSchema schema = keyed("date", Types.DATE);
        ZoneId shanghai = ZoneId.of("Asia/Shanghai");
        // The driver builds a DATE as midnight in the connection's zone.
        SnapshotHandOver handOver =
                threeChunks(
                        new java.sql.Date(Instant.parse("2024-01-02T16:00:00Z").toEpochMilli()),
                        new java.sql.Date(Instant.parse("2024-01-04T16:00:00Z").toEpochMilli()),
                        shanghai,
                        ZoneOffset.UTC);
        assertThat(emits(handOver, key(schema, "2024-01-02"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "2024-01-03"), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, "2024-01-04"), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, "2024-01-04"), after(250))).isTrue();
        assertThat(emits(handOver, key(schema, "2024-01-05"), after(250))).isFalse();
        assertThat(emits(handOver, key(schema, "0000-00-00"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "0000-00-00"), after(50))).isFalse();
    }

    @Test
    void timestampKeysCompareAsInstantsWhateverTheTextsZone() {
        TableSchema schema = keyed("timestamp(6)", Types.TIMESTAMP);
        SnapshotHandOver handOver =
                threeChunks(
                        Timestamp.from(Instant.parse("2024-03-10T10:00:03.123456Z")),
                        Timestamp.from(Instant.parse("2024-03-10T10:00:05.123456Z")),
                        ZoneOffset.UTC,
                        ZoneId.of("Asia/Shanghai"));
        // The reader writes TIMESTAMP in source.timestamp-time-zone: 10:00 UTC is 18:00 there.
        assertThat(emits(handOver, key(schema, "2024-03-10 18:00:03.123456"), after(150)))
                .isFalse();
        assertThat(emits(handOver, key(schema, "2024-03-10 18:00:03.123455"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "2024-03-10 18:00:05.123456"), after(250)))
                .isFalse();
        assertThat(emits(handOver, key(schema, "2024-03-10 18:00:05.123455"), after(250))).isTrue();
        // The zero TIMESTAMP (the epoch) comes first.
        assertThat(emits(handOver, key(schema, "0000-00-00 00:00:00.000000"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "0000-00-00 00:00:00.000000"), after(50))).isFalse();
    }

    @Test
    void timeKeysCompareAsSignedDurations() {
        TableSchema schema = keyed("time(3)", Types.TIME);
        // The driver builds a TIME on 1970-01-01 in the connection's zone: 10:00:03.5 UTC.
        SnapshotHandOver handOver =
                threeChunks(
                        new java.sql.Time(36_003_500L),
                        new java.sql.Time(36_005_500L),
                        ZoneOffset.UTC,
                        ZoneOffset.UTC);
        assertThat(emits(handOver, key(schema, "10:00:03.500"), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, "10:00:03.499"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "-10:00:04.000"), after(150))).isTrue();
        assertThat(emits(handOver, key(schema, "-10:00:04.000"), after(50))).isFalse();
        assertThat(emits(handOver, key(schema, "100:00:00.000"), after(250))).isFalse();
        assertThat(emits(handOver, key(schema, "10:00:05.499"), after(250))).isTrue();
    }

    @Test
    void binaryKeysCompareAsUnsignedBytes() {
        TableSchema schema = keyed("binary(4)", Types.BINARY);
        SnapshotHandOver handOver =
                threeChunks(bytes(0x25, 0xff, 0, 0), bytes(0xb9, 0xff, 0, 0), null, null);
        // 0x80 is above 0x25 unsigned (as a signed byte it would be below).
        assertThat(emits(handOver, key(schema, bytes(0x80, 0, 0, 0)), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, bytes(0x25, 0xff, 0, 0)), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, bytes(0x25, 0xfe, 0xff, 0xff)), after(150)))
                .isTrue();
        assertThat(emits(handOver, key(schema, bytes(0xb9, 0xff, 0, 0)), after(250))).isFalse();
        assertThat(emits(handOver, key(schema, bytes(0xff, 0xff, 0xff, 0xff)), after(250)))
                .isFalse();
        assertThat(emits(handOver, key(schema, bytes(0, 0, 0, 0)), after(150))).isTrue();
    }

    @Test
    void emptyChunksAtAnEndHoldNoKey() {
        // Flink CDC's splitter compares byte[] bounds as text and can end with [x, x) chunks.
        TableSchema schema = keyed("varbinary(20)", Types.VARBINARY);
        byte[] last = bytes(0xf1, 0xbc);
        SnapshotHandOver handOver =
                SnapshotHandOver.of(
                        List.of(
                                chunk("orders:0", null, last, 100),
                                chunk("orders:3", last, null, 200),
                                chunk("orders:1", last, last, 110),
                                chunk("orders:2", last, last, 120)),
                        id -> "id",
                        ZoneOffset.UTC,
                        ZoneOffset.UTC,
                        NO_STRINGS);
        assertThat(emits(handOver, key(schema, last), after(150))).isFalse();
        assertThat(emits(handOver, key(schema, last), after(250))).isTrue();
        assertThat(emits(handOver, key(schema, bytes(0xf1)), after(150))).isTrue();
    }

    @Test
    void boundsOfAnotherTypeOrAColumnOfAnotherTypeAreNamed() {
        assertThatThrownBy(
                        () ->
                                SnapshotHandOver.of(
                                        List.of(
                                                chunk("orders:0", null, Boolean.TRUE, 100),
                                                chunk("orders:1", Boolean.TRUE, null, 200)),
                                        id -> "id",
                                        ZoneOffset.UTC,
                                        ZoneOffset.UTC,
                                        NO_STRINGS))
                .hasMessageContaining("shop.orders was chunked by column 'id'")
                .hasMessageContaining("java.lang.Boolean")
                .hasMessageContaining("take 'flink-cdc', or another chunk key column");
        // byte[] bounds of a BIT column (whose text is a number): named, not misread.
        SnapshotHandOver handOver =
                threeChunks(bytes(0x25), bytes(0xb9), ZoneOffset.UTC, ZoneOffset.UTC);
        assertThatThrownBy(() -> emits(handOver, key(keyed("bit(8)", Types.BIT), "37"), after(150)))
                .hasMessageContaining("chunk key column 'id' of shop.orders as bytes values")
                .hasMessageContaining("but the column is bit(8)");
        // A text that is no date.
        SnapshotHandOver dates =
                threeChunks(
                        LocalDateTime.parse("2024-01-01T10:00:03"),
                        LocalDateTime.parse("2024-01-01T10:00:05"),
                        ZoneOffset.UTC,
                        ZoneOffset.UTC);
        assertThatThrownBy(
                        () ->
                                emits(
                                        dates,
                                        key(keyed("datetime", Types.TIMESTAMP), "10:00:04"),
                                        after(150)))
                .hasMessageContaining(
                        "The chunk key column 'id' of shop.orders has the value '10:00:04'");
    }

    @Test
    void aTableWithoutChunksAndStatementsPass() {
        SnapshotHandOver handOver = orders();
        ChangeEvent item =
                ChangeEvent.builder(ITEMS_SCHEMA, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(5).build())
                        .build();
        assertThat(emits(handOver, item, after(50))).isTrue();
        ChangeEvent alter =
                ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.ALTER)
                        .sql("ALTER TABLE orders ADD c INT")
                        .build();
        assertThat(emits(handOver, alter, after(50))).isTrue();
    }

    @Test
    void aTablePastItsHighestHighWatermarkIsNoLongerChecked() {
        SnapshotHandOver handOver = orders();
        assertThat(emits(handOver, insert(25), after(250))).isFalse();
        assertThat(emits(handOver, insert(25), after(300))).isTrue();
        // A position the binlog cannot go back to shows the table is no longer looked at.
        assertThat(emits(handOver, insert(25), after(250))).isTrue();
    }

    @Test
    void anUpdateMovingItsRowBetweenChunksKeepsThePartTheSnapshotLacks() {
        SnapshotHandOver handOver = orders();
        ChangeEvent bothPassed = update(5, 15);
        assertThat(handOver.emitted(bothPassed, after(250))).isSameAs(bothPassed);
        assertThat(handOver.emitted(update(15, 25), after(150))).isNull();
        // The old key's chunk was read before the move, the new key's after it: the DELETE alone.
        ChangeEvent delete = handOver.emitted(update(15, 25), after(250));
        assertThat(delete.type()).isEqualTo(ChangeType.DELETE);
        assertThat(delete.before().text(1)).isEqualTo("15");
        // And the other way round: the INSERT alone.
        ChangeEvent insert = handOver.emitted(update(25, 5), after(150));
        assertThat(insert.type()).isEqualTo(ChangeType.INSERT);
        assertThat(insert.after().text(1)).isEqualTo("5");
        ChangeEvent sameKey = update(15, 15);
        assertThat(handOver.emitted(sameKey, after(250))).isSameAs(sameKey);
    }

    @Test
    void aBinlogRowWithoutTheChunkKeyColumnIsNamed() {
        SnapshotHandOver handOver =
                SnapshotHandOver.of(
                        List.of(
                                chunk("orders:0", null, 10L, 100),
                                chunk("orders:1", 10L, null, 200)),
                        id -> "code",
                        ZoneOffset.UTC,
                        ZoneOffset.UTC,
                        NO_STRINGS);
        assertThatThrownBy(() -> emits(handOver, insert(5), after(150)))
                .hasMessageContaining("shop.orders was chunked by column 'code'");
    }

    @Test
    void onMySqlATransactionIsInAChunkByItsGtidNotByItsPosition() {
        // SHOW MASTER STATUS can give a position past a transaction that the server has written
        // to its binlog but not yet committed: its GTID is not in the high watermark's set, the
        // chunk's SELECT did not see it, and the backfill (which compares GTID sets) left it out.
        String uuid = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
        SnapshotHandOver handOver =
                SnapshotHandOver.of(
                        List.of(
                                chunk("orders:0", null, 10L, gtidOffset(100, uuid + ":1-5")),
                                chunk("orders:1", 10L, null, gtidOffset(200, uuid + ":1-10"))),
                        id -> "id",
                        ZoneOffset.UTC,
                        ZoneOffset.UTC,
                        NO_STRINGS);

        assertThat(emits(handOver, insertOf(15, uuid + ":11"), after(150)))
                .as("written before the high watermark's position, committed after its set")
                .isTrue();
        assertThat(emits(handOver, insertOf(15, uuid + ":10"), after(150)))
                .as("in the high watermark's set")
                .isFalse();
        assertThat(emits(handOver, insertOf(5, uuid + ":6"), after(90))).isTrue();
        assertThat(emits(handOver, insertOf(5, uuid + ":4"), after(90))).isFalse();
        assertThat(
                        emits(
                                handOver,
                                insertOf(15, "3e11fa47-71ca-11e1-9e33-c80aa9429563:1"),
                                after(150)))
                .as("another server's transaction, in no set")
                .isTrue();
    }

    private static boolean emits(SnapshotHandOver handOver, ChangeEvent change, BinlogPosition at) {
        ChangeEvent emitted = handOver.emitted(change, at);
        assertThat(emitted == null || emitted == change)
                .as("%s whole or not at all", change)
                .isTrue();
        return emitted != null;
    }

    private static FinishedSnapshotSplitInfo chunk(
            String id, Object start, Object end, long highWatermark) {
        return chunk(id, start, end, BinlogOffset.ofBinlogFilePosition(FILE, highWatermark));
    }

    private static FinishedSnapshotSplitInfo chunk(
            String id, Object start, Object end, BinlogOffset highWatermark) {
        return new FinishedSnapshotSplitInfo(
                ORDERS,
                id,
                start == null ? null : new Object[] {start},
                end == null ? null : new Object[] {end},
                highWatermark);
    }

    private static BinlogOffset gtidOffset(long position, String gtids) {
        return BinlogOffset.builder()
                .setBinlogFilePosition(FILE, position)
                .setGtidSet(gtids)
                .build();
    }

    /** After the first row of the transaction at {@code position}. */
    private static BinlogPosition after(long position) {
        return BinlogPosition.of(FILE, position, 0, 1, "", 1);
    }

    private static ChangeEvent insert(long id) {
        return insert("x", id);
    }

    private static ChangeEvent insert(String note, long id) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.INSERT).after(row(note, id)).build();
    }

    private static ChangeEvent insertOf(long id, String gtid) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.INSERT)
                .after(row("x", id))
                .gtid(gtid)
                .build();
    }

    private static ChangeEvent delete(long id) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.DELETE).before(row("x", id)).build();
    }

    private static ChangeEvent update(long from, long to) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.UPDATE)
                .before(row("x", from))
                .after(row("x", to))
                .build();
    }

    /** A table keyed by {@code id} of {@code mysqlType} alone. */
    private static TableSchema keyed(String mysqlType, int sqlType) {
        return TableSchema.builder("shop", "orders").column("id", mysqlType, sqlType, true).build();
    }

    /**
     * orders in three chunks, [-, low) until 100, [low, high) until 200, [high, -) until 300, the
     * bounds as a checkpoint restores them; a null zone is UTC.
     */
    private static SnapshotHandOver threeChunks(
            Object low, Object high, ZoneId serverZone, ZoneId timestampZone) {
        return SnapshotHandOver.of(
                List.of(
                        chunk("orders:1", restored(low), restored(high), 200),
                        chunk("orders:2", restored(high), null, 300),
                        chunk("orders:0", null, restored(low), 100)),
                id -> "id",
                serverZone == null ? ZoneOffset.UTC : serverZone,
                timestampZone == null ? ZoneOffset.UTC : timestampZone,
                NO_STRINGS);
    }

    /** {@code bound} through Flink CDC's checkpoint form of split bounds. */
    private static Object restored(Object bound) {
        Object back =
                SerializerUtils.serializedStringToRow(
                        SerializerUtils.rowToSerializedString(new Object[] {bound}))[0];
        assertThat(back).hasSameClassAs(bound);
        return back;
    }

    private static ChangeEvent key(TableSchema schema, String text) {
        return ChangeEvent.builder(schema, ChangeType.INSERT)
                .after(new RowImage.Builder().append(text).build())
                .build();
    }

    /** A binary key as the reader writes it: one ISO-8859-1 character per byte. */
    private static ChangeEvent key(TableSchema schema, byte[] value) {
        return key(schema, new String(value, StandardCharsets.ISO_8859_1));
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    private static RowImage row(String note, long id) {
        return new RowImage.Builder().append(note).append(id).build();
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;

import io.debezium.relational.TableId;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;

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

    /** orders in three chunks, [-, 10) until 100, [10, 20) until 200, [20, -) until 300. */
    private static SnapshotHandOver orders() {
        return SnapshotHandOver.of(
                List.of(
                        chunk("orders:1", 10L, 20L, 200),
                        chunk("orders:2", 20L, null, 300),
                        chunk("orders:0", null, 10L, 100)),
                id -> id.equals(ORDERS) ? "id" : null);
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
    void stringKeysCompareAsStrings() {
        SnapshotHandOver handOver =
                SnapshotHandOver.of(
                        List.of(
                                chunk("orders:0", null, "m", 100),
                                chunk("orders:1", "m", null, 200)),
                        id -> "note");
        assertThat(emits(handOver, insert("apple", 1), after(150))).isTrue();
        assertThat(emits(handOver, insert("pear", 1), after(150))).isFalse();
        assertThat(emits(handOver, insert("m", 1), after(150))).isFalse();
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
                        id -> "code");
        assertThatThrownBy(() -> emits(handOver, insert(5), after(150)))
                .hasMessageContaining("shop.orders was chunked by column 'code'");
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
        return new FinishedSnapshotSplitInfo(
                ORDERS,
                id,
                start == null ? null : new Object[] {start},
                end == null ? null : new Object[] {end},
                BinlogOffset.ofBinlogFilePosition(FILE, highWatermark));
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

    private static ChangeEvent delete(long id) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.DELETE).before(row("x", id)).build();
    }

    private static ChangeEvent update(long from, long to) {
        return ChangeEvent.builder(ORDERS_SCHEMA, ChangeType.UPDATE)
                .before(row("x", from))
                .after(row("x", to))
                .build();
    }

    private static RowImage row(String note, long id) {
        return new RowImage.Builder().append(note).append(id).build();
    }
}

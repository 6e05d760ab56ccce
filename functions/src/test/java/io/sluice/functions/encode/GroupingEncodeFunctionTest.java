package io.sluice.functions.encode;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageGuard;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The grouping encoder in its operator, as one encoding subtask runs it: rows of one binlog event
 * share a message per partition, and nothing waits past an event change, a statement, a barrier, a
 * watermark, the end of the input or a quiet input.
 */
class GroupingEncodeFunctionTest {

    private static final TableSchema ORDERS =
            TableSchema.builder("shop", "orders")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("name", "varchar(64)", Types.VARCHAR, false)
                    .column("note", "text", Types.LONGVARCHAR, false)
                    .build();
    private static final String TOPIC = "orders";
    private static final long IDLE_MS = 20;

    @Test
    void rowsOfOneEventShareAMessagePerPartitionWithEachRowsOwnOld() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            // One UPDATE event, rows alternating between partitions 0 and 1.
            harness.add(update(100, 0, 1, "a", "A"), 0);
            harness.add(update(100, 1, 2, "b", "b"), 1);
            harness.add(update(100, 2, 3, "c", "C"), 0);
            harness.add(update(100, 3, 4, "d", "d"), 1);
            assertThat(harness.written()).as("the event may have more rows").isEmpty();

            // The next event writes the first one's groups.
            harness.add(insert(200, 0, 5), 0);

            List<SinkMessage> written = harness.written();
            assertThat(written).hasSize(2);
            FlatMessage p0 = flat(written.get(0));
            assertThat(written.get(0).partition()).isZero();
            assertThat(written.get(0).key()).as("several rows: no key").isNull();
            assertThat(p0.getType()).isEqualTo("UPDATE");
            assertThat(ids(p0)).containsExactly("1", "3");
            assertThat(p0.getOld()).containsExactly(Map.of("name", "a"), Map.of("name", "c"));
            FlatMessage p1 = flat(written.get(1));
            assertThat(written.get(1).partition()).isOne();
            assertThat(ids(p1)).containsExactly("2", "4");
            assertThat(p1.getOld()).containsExactly(Map.of("note", "b"), Map.of("note", "d"));

            // The second event's row waits, alone, until the barrier.
            harness.harness.prepareSnapshotPreBarrier(1);
            written = harness.written();
            assertThat(written).hasSize(3);
            assertThat(ids(flat(written.get(2)))).containsExactly("5");
            assertThat(written.get(2).key()).as("one row keeps its key").isEqualTo(key(5));
            assertThat(harness.function.isPending()).as("nothing left for the state").isFalse();
        }
    }

    @Test
    void eventsOfOneTransactionAtOnePositionAreToldApartByTheirRowIndex() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            // MariaDB: every rows event of a transaction carries the transaction's position.
            harness.add(insert(100, 0, 1), 0);
            harness.add(insert(100, 1, 2), 0);
            harness.add(insert(100, 0, 3), 0);
            harness.add(insert(100, 0, 4), 0);
            harness.add(insert(100, 1, 5), 0);
            harness.harness.prepareSnapshotPreBarrier(1);

            assertThat(harness.written())
                    .extracting(m -> ids(flat(m)))
                    .containsExactly(List.of("1", "2"), List.of("3"), List.of("4", "5"));
        }
    }

    @Test
    void theHalvesOfSplitKeyChangesStayInTheirEventAndInOrder() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            // UPDATE t SET id = id + 10 over rows 1 and 2: DELETE 1, INSERT 11, DELETE 2, INSERT
            // 12.
            harness.add(delete(100, 0, 1), 0);
            harness.add(insert(100, 0, 11), 0);
            harness.add(delete(100, 1, 2), 0);
            harness.add(insert(100, 1, 12), 0);
            harness.harness.prepareSnapshotPreBarrier(1);

            assertThat(harness.written())
                    .extracting(m -> flat(m).getType() + " " + ids(flat(m)))
                    .containsExactly("DELETE [1]", "INSERT [11]", "DELETE [2]", "INSERT [12]");
        }
    }

    @Test
    void binaryGroupIsOneEntryWithARowDataPerRow() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_BINARY, 1 << 20, null)) {
            for (int id = 1; id <= 3; id++) {
                harness.add(delete(100, id - 1, id), 0);
            }
            harness.harness.endInput();

            List<SinkMessage> written = harness.written();
            assertThat(written).hasSize(1);
            CanalEntry.Entry entry =
                    CanalMessageDeserializer.deserializer(written.get(0).value())
                            .getEntries()
                            .get(0);
            assertThat(entry.getHeader().getPropsList())
                    .anySatisfy(
                            p -> {
                                assertThat(p.getKey()).isEqualTo("rowsCount");
                                assertThat(p.getValue()).isEqualTo("3");
                            });
            CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            assertThat(change.getEventType()).isEqualTo(CanalEntry.EventType.DELETE);
            assertThat(change.getRowDatasList())
                    .extracting(r -> r.getBeforeColumns(0).getValue())
                    .containsExactly("1", "2", "3");
        }
    }

    @Test
    void aStatementWritesThePendingRowsFirst() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            harness.add(insert(100, 0, 1), 0);
            harness.add(insert(100, 1, 2), 0);
            ChangeEvent alter =
                    ChangeEvent.builder(ORDERS, ChangeType.ALTER)
                            .sql("ALTER TABLE orders ADD c INT")
                            .executeTime(1)
                            .binlog("mysql-bin.000001", 300, 0)
                            .build();
            harness.harness.processElement(new RoutedChange(alter, 0, 2, TOPIC, 0, null), 0);

            List<SinkMessage> written = harness.written();
            assertThat(written).hasSize(2);
            assertThat(ids(flat(written.get(0)))).containsExactly("1", "2");
            assertThat(flat(written.get(1)).getIsDdl()).isTrue();
            // Each message keeps its change's rank, which the partition's owner orders by.
            assertThat(harness.ordered()).extracting(OrderedMessage::rank).containsExactly(1L, 2L);
        }
    }

    @Test
    void snapshotRowsAreNotGrouped() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            for (int id = 1; id <= 3; id++) {
                ChangeEvent read =
                        ChangeEvent.builder(ORDERS, ChangeType.INSERT)
                                .after(row(id, "r", "n"))
                                .executeTime(1)
                                .build();
                harness.harness.processElement(new RoutedChange(read, 0, 1, TOPIC, 0, key(id)), 0);
            }
            assertThat(harness.written()).hasSize(3);
            assertThat(harness.function.isPending()).isFalse();
        }
    }

    @Test
    void aGroupStopsAtTheSizeBound() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1024, null)) {
            // About 400 bytes a row: two fit in 1 KiB, a third does not.
            for (int id = 1; id <= 5; id++) {
                harness.add(insertWithNote(100, id - 1, id, "x".repeat(400)), 0);
            }
            harness.harness.prepareSnapshotPreBarrier(1);

            List<List<String>> groups = new ArrayList<>();
            for (SinkMessage message : harness.written()) {
                groups.add(ids(flat(message)));
                assertThat(message.value().length).isLessThan(2048);
            }
            assertThat(groups).containsExactly(List.of("1", "2"), List.of("3", "4"), List.of("5"));
        }
    }

    @Test
    void aGroupAboveTheSinkLimitIsWrittenRowByRowEachUnderThePolicy() throws Exception {
        Configuration config = new Configuration();
        config.setString("sink.large-message.policy", "key-only");
        LargeMessageSettings large =
                LargeMessageSettings.from(
                        OptionSection.of(config, "sink."),
                        MessageFormat.CANAL_FLAT,
                        FixedLimits::new);
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, large)) {
            harness.add(insertWithNote(100, 0, 1, "small"), 0);
            harness.add(insertWithNote(100, 1, 2, "y".repeat(5_000)), 0);
            harness.add(insertWithNote(100, 2, 3, "z".repeat(1_500)), 0);
            harness.harness.prepareSnapshotPreBarrier(1);

            // Together above the 4 000-byte limit: one message per row, row 2 cut to its key.
            List<SinkMessage> written = harness.written();
            assertThat(written).hasSize(3);
            assertThat(written)
                    .extracting(SinkMessage::key)
                    .containsExactly(key(1), key(2), key(3));
            String marked = new String(written.get(1).value(), StandardCharsets.UTF_8);
            assertThat(marked).contains(LargeMessageGuard.MARKER);
            assertThat(flat(written.get(1)).getData().get(0)).containsOnlyKeys("id");
            assertThat(flat(written.get(2)).getData().get(0).get("note")).hasSize(1_500);
        }
    }

    @Test
    void aQuietInputWritesThePendingGroupAfterTheIdleTime() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            harness.harness.setProcessingTime(1_000);
            harness.add(insert(100, 0, 1), 0);
            // A row arrived before the timer fired: the event may go on, the timer waits again.
            harness.harness.setProcessingTime(1_000 + IDLE_MS / 2);
            harness.add(insert(100, 1, 2), 0);
            harness.harness.setProcessingTime(1_000 + IDLE_MS);
            assertThat(harness.written()).isEmpty();

            harness.harness.setProcessingTime(1_000 + 2 * IDLE_MS);
            List<SinkMessage> written = harness.written();
            assertThat(written).hasSize(1);
            assertThat(ids(flat(written.get(0)))).containsExactly("1", "2");
            assertThat(harness.function.isPending()).isFalse();
        }
    }

    @Test
    void aWatermarkWritesThePendingGroupBeforeItPasses() throws Exception {
        try (Harness harness = new Harness(MessageFormat.CANAL_FLAT, 1 << 20, null)) {
            harness.add(insert(100, 0, 1), 0);
            harness.harness.processWatermark(new Watermark(1));
            List<Object> output = new ArrayList<>(harness.harness.getOutput());
            assertThat(output).hasSize(2);
            assertThat(output.get(1)).isEqualTo(new Watermark(1));
        }
    }

    // ---- helpers ----

    /** The grouping encoder in its operator, one subtask of one, no key-change paths. */
    private static final class Harness implements AutoCloseable {
        final GroupingEncodeFunction<OrderedMessage> function;
        final OneInputStreamOperatorTestHarness<RoutedChange, OrderedMessage> harness;

        Harness(MessageFormat format, long maxBytes, LargeMessageSettings large) throws Exception {
            function =
                    new GroupingEncodeFunction<>(
                            format,
                            MessageOut.TO_OWNERS,
                            large,
                            null,
                            new GroupSettings(maxBytes, IDLE_MS));
            harness = new OneInputStreamOperatorTestHarness<>(function.operator(false));
            harness.setup(OrderedMessageSerializer.INSTANCE);
            harness.open();
        }

        void add(ChangeEvent row, int partition) throws Exception {
            int id = Integer.parseInt(row.data().text(0));
            harness.processElement(new RoutedChange(row, 0, 1, TOPIC, partition, key(id)), 0);
        }

        List<SinkMessage> written() {
            return ordered().stream().map(OrderedMessage::message).toList();
        }

        List<OrderedMessage> ordered() {
            return harness.extractOutputValues();
        }

        @Override
        public void close() throws Exception {
            harness.close();
        }
    }

    private static ChangeEvent.Builder change(ChangeType type, long position, int rowInEvent) {
        return ChangeEvent.builder(ORDERS, type)
                .executeTime(1_700_000_000_000L)
                .gtid("")
                .serverId(1)
                .binlog("mysql-bin.000001", position, rowInEvent);
    }

    private static ChangeEvent insert(long position, int rowInEvent, int id) {
        return insertWithNote(position, rowInEvent, id, "n");
    }

    private static ChangeEvent insertWithNote(long position, int rowInEvent, int id, String note) {
        return change(ChangeType.INSERT, position, rowInEvent).after(row(id, "r", note)).build();
    }

    /** Changes the name, or when it stays, the note (from the name's text to "n"). */
    private static ChangeEvent update(
            long position, int rowInEvent, int id, String name, String newName) {
        return change(ChangeType.UPDATE, position, rowInEvent)
                .before(row(id, name, name.equals(newName) ? name : "n"))
                .after(row(id, newName, "n"))
                .build();
    }

    private static ChangeEvent delete(long position, int rowInEvent, int id) {
        return change(ChangeType.DELETE, position, rowInEvent).before(row(id, "r", "n")).build();
    }

    private static RowImage row(int id, String name, String note) {
        return new RowImage.Builder().append(String.valueOf(id)).append(name).append(note).build();
    }

    private static byte[] key(int id) {
        return ("k" + id).getBytes(StandardCharsets.UTF_8);
    }

    private static FlatMessage flat(SinkMessage message) {
        return JSON.parseObject(message.value(), FlatMessage.class);
    }

    private static List<String> ids(FlatMessage message) {
        List<String> ids = new ArrayList<>();
        for (Map<String, String> row : message.getData()) {
            ids.add(row.get("id"));
        }
        return ids;
    }

    /** 4 000 bytes per topic, counting value and key. */
    private static final class FixedLimits implements MessageLimits {
        @Override
        public long limitOf(String topic) {
            return 4_000;
        }

        @Override
        public long sizeOf(byte[] key, byte[] value) {
            return value.length + (key == null ? 0 : key.length);
        }

        @Override
        public String describe(String topic) {
            return "test limit";
        }

        @Override
        public void close() {}
    }
}

package io.sluice.functions.table.internal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.GroupingEncodeOperator;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.normalize.StatementRank;
import io.sluice.functions.route.DdlPartitions;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.route.Routing;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the SQL door's encoder places rows and statements, and how it ranks them. */
class RowMessageEncodeFunctionTest {

    private static final int PARTITIONS = 3;

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    @Test
    void aStatementGoesToEveryPartitionRankedAfterTheRowsBeforeIt() throws Exception {
        List<OrderedMessage> out = encode(DdlPartitions.EVERY);

        assertThat(out).hasSize(2 + PARTITIONS);
        OrderedMessage before = out.get(0);
        OrderedMessage after = out.get(out.size() - 1);
        List<OrderedMessage> statements = out.subList(1, 1 + PARTITIONS);
        assertThat(statements).extracting(s -> s.message().partition()).containsExactly(0, 1, 2);
        assertThat(statements)
                .allSatisfy(
                        s -> {
                            assertThat(s.message().topic()).isEqualTo("sluice");
                            assertThat(s.message().key()).isNull();
                            assertThat(s.message().value())
                                    .isSameAs(statements.get(0).message().value());
                            assertThat(s.rank())
                                    .isEqualTo(StatementRank.statementRank(1))
                                    .isGreaterThan(before.rank())
                                    .isLessThan(after.rank());
                        });
    }

    @Test
    void canalsPlacementWritesTheStatementToPartitionZeroOnly() throws Exception {
        List<OrderedMessage> out = encode(DdlPartitions.ZERO);

        assertThat(out).hasSize(3);
        assertThat(out.get(1).message().partition()).isZero();
        assertThat(out.get(1).rank()).isEqualTo(StatementRank.statementRank(1));
    }

    @Test
    void groupedRowsOfOneEventShareAMessagePerPartitionBeforeTheWatermarkPasses() throws Exception {
        Configuration config = new Configuration();
        RowMessageEncodeFunction<OrderedMessage> function =
                new RowMessageEncodeFunction<>(
                        MessageFormat.CANAL_FLAT,
                        MessageOut.TO_OWNERS,
                        new Routing(
                                RouteOptions.router(OptionSection.unprefixed(config)),
                                PartitionOptions.rules(OptionSection.unprefixed(config)),
                                DdlPartitions.EVERY,
                                new Fixed()),
                        LargeMessageSettings.from(
                                OptionSection.unprefixed(config),
                                MessageFormat.CANAL_FLAT,
                                Unlimited::new),
                        FilterSettings.from(OptionSection.unprefixed(config)),
                        -1,
                        -1,
                        new GroupSettings(1 << 20, 20),
                        null);
        try (OneInputStreamOperatorTestHarness<RowData, OrderedMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new GroupingEncodeOperator<>(function, false))) {
            harness.setup(OrderedMessageSerializer.INSTANCE);
            harness.open();
            harness.processWatermark(new Watermark(1));
            for (int id = 1; id <= 9; id++) {
                harness.processElement(row(eventRow(id)), 0);
            }
            assertThat(harness.extractOutputValues()).isEmpty();
            harness.processWatermark(new Watermark(2));

            List<Object> output = new ArrayList<>(harness.getOutput());
            assertThat(output.get(output.size() - 1)).isEqualTo(new Watermark(2));
            List<OrderedMessage> messages = harness.extractOutputValues();
            assertThat(messages).hasSizeBetween(2, PARTITIONS);
            List<Integer> seen = new ArrayList<>();
            for (OrderedMessage message : messages) {
                FlatMessage flat = JSON.parseObject(message.message().value(), FlatMessage.class);
                List<Integer> ids = new ArrayList<>();
                flat.getData().forEach(r -> ids.add(Integer.parseInt(r.get("id"))));
                assertThat(ids).isSorted();
                assertThat(message.rank()).isEqualTo(StatementRank.rowRank(1));
                if (ids.size() > 1) {
                    assertThat(message.message().key()).isNull();
                }
                seen.addAll(ids);
            }
            assertThat(seen).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9);
        }
    }

    /** Row {@code id} of one rows event. */
    private static ChangeEvent eventRow(int id) {
        return ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                .after(new RowImage.Builder().append(id).build())
                .binlog("bin.000001", 500, id - 1)
                .build();
    }

    /** A row, a statement, a row, on a path that has passed one statement before. */
    private static List<OrderedMessage> encode(DdlPartitions ddl) throws Exception {
        Configuration config = new Configuration();
        RowMessageEncodeFunction<OrderedMessage> function =
                new RowMessageEncodeFunction<>(
                        MessageFormat.CANAL_FLAT,
                        MessageOut.TO_OWNERS,
                        new Routing(
                                RouteOptions.router(OptionSection.unprefixed(config)),
                                PartitionOptions.rules(OptionSection.unprefixed(config)),
                                ddl,
                                new Fixed()),
                        LargeMessageSettings.from(
                                OptionSection.unprefixed(config),
                                MessageFormat.CANAL_FLAT,
                                Unlimited::new),
                        FilterSettings.from(OptionSection.unprefixed(config)),
                        -1,
                        -1,
                        null,
                        null);
        try (OneInputStreamOperatorTestHarness<RowData, OrderedMessage> harness =
                new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(function))) {
            harness.setup(OrderedMessageSerializer.INSTANCE);
            harness.open();
            harness.processWatermark(new Watermark(1));
            harness.processElement(row(insert(7)), 0);
            harness.processElement(
                    row(
                            ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                                    .sql("ALTER TABLE items ADD c INT")
                                    .binlog("bin.000001", 900, 0)
                                    .build()),
                    0);
            harness.processWatermark(new Watermark(2));
            harness.processElement(row(insert(8)), 0);
            return harness.extractOutputValues();
        }
    }

    private static GenericRowData row(ChangeEvent change) {
        return GenericRowData.of(RawValueData.fromObject(change));
    }

    private static ChangeEvent insert(int id) {
        return ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                .after(new RowImage.Builder().append(id).build())
                .binlog("bin.000001", 100L * id, 0)
                .build();
    }

    /** {@link #PARTITIONS} partitions for every topic. */
    private static final class Fixed implements PartitionCounts.Factory, PartitionCounts {
        @Override
        public PartitionCounts create() {
            return this;
        }

        @Override
        public int countOf(String topic) {
            return PARTITIONS;
        }

        @Override
        public void close() {}
    }

    /** No message is too large here. */
    private static final class Unlimited implements MessageLimits {
        @Override
        public long limitOf(String topic) {
            return Long.MAX_VALUE;
        }

        @Override
        public long sizeOf(byte[] key, byte[] value) {
            return value.length;
        }

        @Override
        public String describe(String topic) {
            return "no limit";
        }

        @Override
        public void close() {}
    }
}

package io.sluice.functions.route;

import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.StatusWatermarkValve;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.ChangeEventEncodeFunction;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.normalize.ChangeNormalizer;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.functions.order.PartitionOwnerPartitioner;
import io.sluice.functions.order.StatementOrderOperator;
import io.sluice.functions.order.StatementWatermarks;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.functions.types.RoutedChangeSerializer;
import io.sluice.functions.types.SinkMessageSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement between rows, read by whichever source subtask holds the binlog, through the paths of
 * the job's shapes (Normalize, the keyed exchange or none, Route, Encode chained or fanned in) to
 * the partition owners: each partition gets the statement once (partition 0 only with {@link
 * DdlPartitions#ZERO}), after its rows that preceded it and before those that followed, and nothing
 * is left waiting. Each operator runs as the subtask it would be, in a test harness; the source's
 * watermarks come from {@link StatementWatermarks}, and each subtask combines its inputs'
 * watermarks and idleness as Flink does ({@link StatusWatermarkValve}). Every input is delivered as
 * at startup: first what each channel says before its first record (the idle sources), then every
 * channel whole, the highest first, so the first channel to pass a statement runs ahead of rows
 * still queued on the others.
 */
class StatementPathsTest {

    private static final int PARTITIONS = 3;
    private static final int OWNERS = 2;
    private static final int KEYS = 9;
    private static final Pattern TYPE = Pattern.compile("\"type\":\"(\\w+)\"");

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("v", "int(11)", Types.INTEGER, false)
                    .build();

    @ParameterizedTest(name = "source {0} (binlog on subtask {1}), route {2}, encode {3}, {4}")
    @CsvSource({
        // route and encode chained to the source
        "2, 0, 2, 2, EVERY",
        "2, 1, 2, 2, EVERY",
        "4, 3, 4, 4, EVERY",
        "2, 1, 2, 2, ZERO",
        // route chained to the source, encode behind an exchange
        "2, 1, 2, 3, EVERY",
        "2, 0, 2, 3, ZERO",
        // route behind the keyed exchange
        "2, 1, 3, 3, EVERY",
        "2, 1, 1, 1, EVERY",
        "1, 0, 3, 3, EVERY",
        "2, 1, 3, 2, EVERY",
        "2, 1, 3, 2, ZERO",
    })
    void eachPartitionGetsTheStatementOnceBetweenItsRows(
            int source, int binlog, int route, int encode, DdlPartitions ddl) throws Exception {
        List<ChangeEvent> binlogChanges = new ArrayList<>();
        for (int id = 1; id <= KEYS; id++) {
            binlogChanges.add(row(ChangeType.INSERT, id, 0));
        }
        binlogChanges.add(
                ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                        .sql("ALTER TABLE items ADD c INT")
                        .binlog("bin.000001", 900, 0)
                        .build());
        for (int id = 1; id <= KEYS; id++) {
            binlogChanges.add(row(ChangeType.UPDATE, id, 1));
        }

        List<SinkMessage> written = throughShape(binlogChanges, source, binlog, route, encode, ddl);

        Map<Integer, List<String>> types = new TreeMap<>();
        for (SinkMessage message : written) {
            types.computeIfAbsent(message.partition(), p -> new ArrayList<>()).add(typeOf(message));
        }
        assertThat(types).hasSize(PARTITIONS);
        int rows = 0;
        for (Map.Entry<Integer, List<String>> partition : types.entrySet()) {
            List<String> seen = partition.getValue();
            if (partition.getKey() >= ddl.of(PARTITIONS)) {
                // Canal's placement: no statement here.
                assertThat(seen)
                        .as("partition %d: no statement", partition.getKey())
                        .doesNotContain("ALTER")
                        .filteredOn("INSERT"::equals)
                        .hasSize(seen.size() / 2);
                rows += seen.size();
                continue;
            }
            int alter = seen.indexOf("ALTER");
            assertThat(seen)
                    .as("partition %d: the statement once", partition.getKey())
                    .filteredOn("ALTER"::equals)
                    .hasSize(1);
            assertThat(seen.subList(0, alter))
                    .as("partition %d: rows before the statement", partition.getKey())
                    .containsOnly("INSERT");
            assertThat(seen.subList(alter + 1, seen.size()))
                    .as("partition %d: rows after the statement", partition.getKey())
                    .containsOnly("UPDATE")
                    .hasSize(alter);
            rows += seen.size() - 1;
        }
        assertThat(rows).as("every row written, none left waiting").isEqualTo(2 * KEYS);
    }

    /** What the owners wrote for changes read by subtask {@code binlog} of {@code source}. */
    private static List<SinkMessage> throughShape(
            List<ChangeEvent> changes,
            int source,
            int binlog,
            int route,
            int encode,
            DdlPartitions ddl)
            throws Exception {
        boolean routeChained = source == route;
        boolean encodeFannedIn = encode != route;
        ChangePartitioner byKey = new ChangePartitioner();

        List<List<Object>> sources = new ArrayList<>();
        for (int subtask = 0; subtask < source; subtask++) {
            sources.add(sourceOutput(subtask == binlog ? changes : List.of()));
        }
        List<List<Object>> normalized =
                StatementPathsTest.<ChangeEvent, RoutedChange>stage(
                        sources,
                        source,
                        null,
                        subtask ->
                                new StatementPathOperator<>(
                                        new ChangeNormalizer(
                                                !routeChained || encodeFannedIn, null, 0),
                                        false),
                        new RoutedChangeSerializer());
        Configuration config = new Configuration();
        List<List<Object>> routed =
                StatementPathsTest.<RoutedChange, RoutedChange>stage(
                        normalized,
                        route,
                        routeChained ? null : byKey,
                        subtask ->
                                new ChangeRouteFunction(
                                                new Routing(
                                                        RouteOptions.router(
                                                                OptionSection.unprefixed(config)),
                                                        PartitionOptions.rules(
                                                                OptionSection.unprefixed(config)),
                                                        ddl,
                                                        new FixedPartitionCounts(PARTITIONS)),
                                                null)
                                        .operator(!routeChained),
                        new RoutedChangeSerializer());
        List<List<Object>> encoded =
                StatementPathsTest.<RoutedChange, OrderedMessage>stage(
                        routed,
                        encode,
                        encodeFannedIn ? byKey : null,
                        subtask ->
                                new ChangeEventEncodeFunction<>(
                                                MessageFormat.CANAL_FLAT,
                                                MessageOut.TO_OWNERS,
                                                null,
                                                null)
                                        .operator(routeChained && encodeFannedIn),
                        OrderedMessageSerializer.INSTANCE);
        Partitioner<OrderedMessage> toOwner = new PartitionOwnerPartitioner();
        List<List<Object>> owned =
                StatementPathsTest.<OrderedMessage, SinkMessage>stage(
                        encoded,
                        OWNERS,
                        toOwner,
                        subtask -> new StatementOrderOperator(),
                        SinkMessageSerializer.INSTANCE);
        List<SinkMessage> written = new ArrayList<>();
        for (List<Object> owner : owned) {
            for (Object element : owner) {
                if (element instanceof StreamRecord<?> record) {
                    written.add((SinkMessage) record.getValue());
                }
            }
        }
        return written;
    }

    /**
     * What a source subtask emits for {@code changes}: its records, its statement counts ({@link
     * StatementWatermarks}) and its idleness, which the first periodic emit announces.
     */
    private static List<Object> sourceOutput(List<ChangeEvent> changes) {
        List<Object> out = new ArrayList<>();
        WatermarkOutput output =
                new WatermarkOutput() {
                    private boolean idle;

                    @Override
                    public void emitWatermark(
                            org.apache.flink.api.common.eventtime.Watermark watermark) {
                        markActive();
                        out.add(new Watermark(watermark.getTimestamp()));
                    }

                    @Override
                    public void markIdle() {
                        if (!idle) {
                            idle = true;
                            out.add(WatermarkStatus.IDLE);
                        }
                    }

                    @Override
                    public void markActive() {
                        if (idle) {
                            idle = false;
                            out.add(WatermarkStatus.ACTIVE);
                        }
                    }
                };
        StatementWatermarks watermarks = new StatementWatermarks();
        watermarks.onPeriodicEmit(output);
        for (ChangeEvent change : changes) {
            out.add(new StreamRecord<>(change));
            watermarks.onEvent(change, 0, output);
        }
        return out;
    }

    /**
     * Runs {@code downstream} subtasks of an operator over what the {@code upstream} subtasks
     * emitted: chained (subtask i reads subtask i) when {@code partitioner} is null, else through
     * an exchange that sends each record where {@code partitioner} says and every watermark and
     * status to every subtask. Returns each subtask's output, before the operator is closed.
     */
    @SuppressWarnings("unchecked")
    private static <I, O> List<List<Object>> stage(
            List<List<Object>> upstream,
            int downstream,
            Partitioner<I> partitioner,
            IntFunction<OneInputStreamOperator<I, O>> operator,
            TypeSerializer<O> outSerializer)
            throws Exception {
        List<List<Object>> outputs = new ArrayList<>();
        for (int subtask = 0; subtask < downstream; subtask++) {
            List<List<Object>> channels = new ArrayList<>();
            if (partitioner == null) {
                channels.add(upstream.get(subtask));
            } else {
                for (List<Object> from : upstream) {
                    List<Object> channel = new ArrayList<>();
                    for (Object element : from) {
                        if (!(element instanceof StreamRecord<?> record)
                                || partitioner.partition((I) record.getValue(), downstream)
                                        == subtask) {
                            channel.add(element);
                        }
                    }
                    channels.add(channel);
                }
            }
            try (OneInputStreamOperatorTestHarness<I, O> harness =
                    new OneInputStreamOperatorTestHarness<>(
                            operator.apply(subtask), 128, downstream, subtask)) {
                harness.setup(outSerializer);
                harness.open();
                deliver(channels, harness);
                outputs.add(new ArrayList<>(harness.getOutput()));
            }
        }
        return outputs;
    }

    /** Startup first (each channel's leading statuses), then each channel whole, highest first. */
    @SuppressWarnings("unchecked")
    private static <I> void deliver(
            List<List<Object>> channels, OneInputStreamOperatorTestHarness<I, ?> harness)
            throws Exception {
        StatusWatermarkValve valve = new StatusWatermarkValve(channels.size());
        PushingAsyncDataInput.DataOutput<I> toOperator = new ValveOutput<>(harness);
        int[] started = new int[channels.size()];
        for (int c = 0; c < channels.size(); c++) {
            List<Object> channel = channels.get(c);
            while (started[c] < channel.size()
                    && channel.get(started[c]) instanceof WatermarkStatus status) {
                valve.inputWatermarkStatus(status, c, toOperator);
                started[c]++;
            }
        }
        for (int c = channels.size() - 1; c >= 0; c--) {
            List<Object> channel = channels.get(c);
            for (Object element : channel.subList(started[c], channel.size())) {
                if (element instanceof StreamRecord<?> record) {
                    // A record of its own: an operator may reuse the one it is handed.
                    harness.processElement(new StreamRecord<>((I) record.getValue()));
                } else if (element instanceof Watermark watermark) {
                    valve.inputWatermark(watermark, c, toOperator);
                } else {
                    valve.inputWatermarkStatus((WatermarkStatus) element, c, toOperator);
                }
            }
        }
    }

    /** Passes what the valve lets through on to the operator under test. */
    private static final class ValveOutput<I> implements PushingAsyncDataInput.DataOutput<I> {
        private final OneInputStreamOperatorTestHarness<I, ?> harness;

        ValveOutput(OneInputStreamOperatorTestHarness<I, ?> harness) {
            this.harness = harness;
        }

        @Override
        public void emitRecord(StreamRecord<I> record) throws Exception {
            harness.processElement(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) throws Exception {
            harness.processWatermark(watermark);
        }

        @Override
        public void emitWatermarkStatus(WatermarkStatus status) throws Exception {
            harness.processWatermarkStatus(status);
        }

        @Override
        public void emitLatencyMarker(LatencyMarker marker) {}

        @Override
        public void emitRecordAttributes(RecordAttributes attributes) {}
    }

    private static String typeOf(SinkMessage message) {
        Matcher matcher = TYPE.matcher(new String(message.value(), StandardCharsets.UTF_8));
        assertThat(matcher.find()).as("a flat message with a type").isTrue();
        return matcher.group(1);
    }

    private static ChangeEvent row(ChangeType type, int id, int v) {
        ChangeEvent.Builder builder = ChangeEvent.builder(ITEMS, type);
        if (type == ChangeType.UPDATE) {
            builder.before(new RowImage.Builder().append(id).append(v - 1).build());
        }
        return builder.after(new RowImage.Builder().append(id).append(v).build())
                .binlog("bin.000001", 100L * id + v * 1000L, 0)
                .build();
    }
}

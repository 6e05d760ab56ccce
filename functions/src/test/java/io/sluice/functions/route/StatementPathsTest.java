package io.sluice.functions.route;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.ChangeEventEncodeFunction;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageOut;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.normalize.ChangeNormalizer;
import io.sluice.functions.order.internal.StatementMerger;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.functions.types.RoutedChangeSerializer;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement between rows, read by whichever source subtask holds the binlog, through the paths of
 * the job's shapes (Normalize, the keyed exchange or none, Route, Encode chained or fanned in) to
 * the owner of the partitions: each partition gets the statement once (partition 0 only with {@link
 * DdlPartitions#ZERO}), after its rows that preceded it and before those that followed. Each
 * operator runs as the subtask it would be, in a test harness; every path is delivered whole, the
 * highest path first, so the owner holds the rows of paths that delivered their copy while lower
 * paths still carry earlier rows.
 */
class StatementPathsTest {

    private static final int PARTITIONS = 3;
    private static final int KEYS = 9;
    private static final Pattern TYPE = Pattern.compile("\"type\":\"(\\w+)\"");

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("v", "int(11)", Types.INTEGER, false)
                    .build();

    @ParameterizedTest(name = "source {0} (binlog on subtask {1}), route {2}, encode {3}, {4}")
    @CsvSource({
        // shape 2: route and encode chained to the source
        "2, 0, 2, 2, EVERY",
        "2, 1, 2, 2, EVERY",
        "4, 3, 4, 4, EVERY",
        "2, 1, 2, 2, ZERO",
        // route chained to the source, encode behind an exchange
        "2, 1, 2, 3, EVERY",
        // shape 3: route behind the keyed exchange
        "2, 1, 3, 3, EVERY",
        "2, 1, 1, 1, EVERY",
        "2, 1, 3, 2, EVERY",
        "2, 1, 3, 2, ZERO",
    })
    void theOwnerWritesTheStatementOncePerPartitionBetweenItsRows(
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
                // Canal's placement: no statement, so no order between different keys' rows.
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
        assertThat(rows).isEqualTo(2 * KEYS);
    }

    /** The owner's output for changes read by subtask {@code binlog} of {@code source}. */
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
        ChangePartitioner partitioner = new ChangePartitioner();

        List<RoutedChange> normalized =
                run(
                        new StreamFlatMap<>(
                                new ChangeNormalizer(
                                        routeChained ? 1 : route,
                                        !routeChained || encodeFannedIn,
                                        null,
                                        0)),
                        new RoutedChangeSerializer(),
                        source,
                        binlog,
                        changes);

        List<List<RoutedChange>> toRoute = paths(route);
        for (RoutedChange change : normalized) {
            int subtask = routeChained ? binlog : partitioner.partition(change, route);
            toRoute.get(subtask).add(change);
        }
        List<List<RoutedChange>> toEncode = paths(encode);
        Configuration config = new Configuration();
        for (int subtask = route - 1; subtask >= 0; subtask--) {
            List<RoutedChange> routed =
                    run(
                            new StreamFlatMap<>(
                                    new ChangeRouteFunction(
                                            new Routing(
                                                    RouteOptions.router(
                                                            OptionSection.unprefixed(config)),
                                                    PartitionOptions.rules(
                                                            OptionSection.unprefixed(config)),
                                                    ddl,
                                                    new FixedPartitionCounts(PARTITIONS)),
                                            route,
                                            !routeChained,
                                            encodeFannedIn ? encode : 0,
                                            null)),
                            new RoutedChangeSerializer(),
                            route,
                            subtask,
                            toRoute.get(subtask));
            for (RoutedChange change : routed) {
                int to = encodeFannedIn ? partitioner.partition(change, encode) : subtask;
                toEncode.get(to).add(change);
            }
        }

        StatementMerger owner = new StatementMerger();
        List<SinkMessage> written = new ArrayList<>();
        Collector<SinkMessage> out = collector(written);
        for (int subtask = encode - 1; subtask >= 0; subtask--) {
            List<OrderedMessage> encoded =
                    run(
                            new StreamMap<>(
                                    new ChangeEventEncodeFunction<>(
                                            MessageFormat.CANAL_FLAT,
                                            MessageOut.TO_OWNERS,
                                            encode,
                                            encodeFannedIn,
                                            null,
                                            null)),
                            OrderedMessageSerializer.INSTANCE,
                            encode,
                            subtask,
                            toEncode.get(subtask));
            for (OrderedMessage message : encoded) {
                owner.accept(message, out);
            }
        }
        assertThat(owner.isMerging()).as("nothing left pending").isFalse();
        return written;
    }

    /** Runs {@code operator} as subtask {@code subtask} of {@code parallelism} over {@code in}. */
    private static <I, O> List<O> run(
            OneInputStreamOperator<I, O> operator,
            TypeSerializer<O> outSerializer,
            int parallelism,
            int subtask,
            List<I> in)
            throws Exception {
        try (OneInputStreamOperatorTestHarness<I, O> harness =
                new OneInputStreamOperatorTestHarness<>(operator, 128, parallelism, subtask)) {
            harness.setup(outSerializer);
            harness.open();
            for (I element : in) {
                harness.processElement(element, 0);
            }
            return harness.extractOutputValues();
        }
    }

    private static <T> List<List<T>> paths(int count) {
        List<List<T>> paths = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            paths.add(new ArrayList<>());
        }
        return paths;
    }

    private static Collector<SinkMessage> collector(List<SinkMessage> into) {
        return new Collector<>() {
            @Override
            public void collect(SinkMessage record) {
                into.add(record);
            }

            @Override
            public void close() {}
        };
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

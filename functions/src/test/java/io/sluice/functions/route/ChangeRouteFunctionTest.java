package io.sluice.functions.route;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.normalize.ChangeEventKeySelector;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.functions.types.RoutedChangeSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a DML statement's QUERY goes: right before its first row, on that row's partition. */
class ChangeRouteFunctionTest {

    private static final int PARTITIONS = 4;
    private static final long RANK = 5;

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    @Test
    void aRowsQueryPrecedesItOnItsPartitionWithoutKey() throws Exception {
        ChangeEvent first = insert(7, "INSERT INTO items VALUES (7), (8)");
        ChangeEvent second = insert(8, "");

        List<RoutedChange> out = route(first, second);

        assertThat(out).hasSize(3);
        RoutedChange query = out.get(0);
        RoutedChange row = out.get(1);
        assertThat(query.change()).isEqualTo(ChangeEvent.queryOf(first));
        assertThat(query.change().isDdl()).isFalse();
        assertThat(query.topic()).isEqualTo(row.topic()).isEqualTo("sluice");
        assertThat(query.partition()).isEqualTo(row.partition());
        assertThat(query.keyHash()).isEqualTo(row.keyHash());
        assertThat(query.rank()).isEqualTo(row.rank()).isEqualTo(RANK);
        assertThat(query.key()).isNull();
        assertThat(row.change()).isSameAs(first);
        assertThat(row.key()).isNotNull();
        assertThat(out.get(2).change()).isSameAs(second);
    }

    @Test
    void rowsWithoutQueryAreRoutedAlone() throws Exception {
        List<RoutedChange> out = route(insert(1, ""), insert(2, ""));

        assertThat(out).extracting(r -> r.change().type()).containsOnly(ChangeType.INSERT);
        assertThat(out).hasSize(2);
    }

    private static List<RoutedChange> route(ChangeEvent... changes) throws Exception {
        Configuration config = new Configuration();
        ChangeRouteFunction function =
                new ChangeRouteFunction(
                        new Routing(
                                RouteOptions.router(OptionSection.unprefixed(config)),
                                PartitionOptions.rules(OptionSection.unprefixed(config)),
                                DdlPartitions.EVERY,
                                new FixedPartitionCounts(PARTITIONS)),
                        null);
        RoutedChangeSerializer serializer = new RoutedChangeSerializer();
        try (OneInputStreamOperatorTestHarness<RoutedChange, RoutedChange> harness =
                new OneInputStreamOperatorTestHarness<>(function.operator(false), serializer)) {
            harness.setup(serializer);
            harness.open();
            for (ChangeEvent change : changes) {
                harness.processElement(
                        RoutedChange.unrouted(change, ChangeEventKeySelector.hashOf(change), RANK),
                        0);
            }
            return harness.extractOutputValues();
        }
    }

    private static ChangeEvent insert(int id, String query) {
        return ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                .after(new RowImage.Builder().append(id).build())
                .query(query)
                .executeTime(1_700_000_000_000L)
                .binlog("mysql-bin.000001", 400, id == 7 ? 0 : 1)
                .serverId(1)
                .build();
    }
}

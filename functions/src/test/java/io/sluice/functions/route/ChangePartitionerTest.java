package io.sluice.functions.route;

import io.sluice.functions.normalize.ChangeEventKeySelector;
import io.sluice.functions.normalize.RoutedChange;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Every change of a row takes one path; a statement takes its table's. */
class ChangePartitionerTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    private final ChangePartitioner partitioner = new ChangePartitioner();

    @Test
    void aKeysChangesAlwaysTakeTheSamePathAndKeysSpreadOverAll() {
        Set<Integer> used = new HashSet<>();
        for (int hash = -500; hash < 500; hash++) {
            int first = partitioner.partition(row(hash), 4);
            for (int change = 0; change < 5; change++) {
                assertThat(partitioner.partition(row(hash), 4))
                        .as("change %d of the row hashed %d", change, hash)
                        .isEqualTo(first);
            }
            assertThat(first).isBetween(0, 3);
            used.add(first);
        }
        assertThat(used).as("keys spread over every subtask").containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aStatementTakesItsTablesPathOnce() {
        ChangeEvent alter =
                ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                        .sql("ALTER TABLE items ADD c INT")
                        .build();
        int tableHash = ChangeEventKeySelector.hashOf(alter);
        RoutedChange statement = RoutedChange.unrouted(alter, tableHash, 2);
        assertThat(partitioner.partition(statement, 3))
                .isEqualTo(partitioner.partition(row(tableHash), 3));
    }

    private static RoutedChange row(int keyHash) {
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(keyHash).build())
                        .build();
        return RoutedChange.unrouted(insert, keyHash, 1);
    }
}

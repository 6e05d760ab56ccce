package io.sluice.functions.route;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every change of a row takes one path; statement copies take the path they name. */
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
    void aStatementCopyGoesToTheSubtaskItNames() {
        for (int target = 0; target < 3; target++) {
            assertThat(partitioner.partition(copy(target), 3)).isEqualTo(target);
        }
    }

    @Test
    void aCopyForAMissingSubtaskIsRefused() {
        assertThatThrownBy(() -> partitioner.partition(copy(3), 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("A statement copy is meant for subtask 3 but there are only 3");
    }

    private static RoutedChange row(int keyHash) {
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(keyHash).build())
                        .build();
        return RoutedChange.unrouted(insert, keyHash, RoutedChange.NO_TARGET, 0);
    }

    private static RoutedChange copy(int target) {
        ChangeEvent alter =
                ChangeEvent.builder(ITEMS, ChangeType.ALTER)
                        .sql("ALTER TABLE items ADD c INT")
                        .build();
        return RoutedChange.unrouted(alter, 0, target, 3);
    }
}

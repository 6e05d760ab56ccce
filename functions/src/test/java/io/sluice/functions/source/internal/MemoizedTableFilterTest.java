package io.sluice.functions.source.internal;

import io.debezium.relational.TableId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Asks the wrapped filter once per table, answers as it does, and stays within its bound. */
class MemoizedTableFilterTest {

    private final List<TableId> asked = new ArrayList<>();

    private MemoizedTableFilter filter(int maxTables) {
        return new MemoizedTableFilter(
                table -> {
                    asked.add(table);
                    return table.table().startsWith("order");
                },
                maxTables);
    }

    private static TableId table(String name) {
        return new TableId("shop", null, name);
    }

    @Test
    void asksOncePerTableAndAnswersAsTheWrappedFilter() {
        MemoizedTableFilter filter = filter(10);
        for (int i = 0; i < 3; i++) {
            assertThat(filter.isIncluded(table("orders"))).isTrue();
            assertThat(filter.isIncluded(table("audit"))).isFalse();
        }
        // Each call above built a new TableId: equal tables share one answer.
        assertThat(asked).containsExactly(table("orders"), table("audit"));
        assertThat(filter.size()).isEqualTo(2);
    }

    @Test
    void tablesBeyondTheBoundAreAskedEveryTime() {
        MemoizedTableFilter filter = filter(1);
        filter.isIncluded(table("orders"));
        assertThat(filter.isIncluded(table("order_items"))).isTrue();
        assertThat(filter.isIncluded(table("order_items"))).isTrue();
        assertThat(filter.isIncluded(table("orders"))).isTrue();
        assertThat(asked)
                .containsExactly(table("orders"), table("order_items"), table("order_items"));
        assertThat(filter.size()).isEqualTo(1);
    }

    @Test
    void refusesABoundBelowOne() {
        assertThatThrownBy(() -> new MemoizedTableFilter(table -> true, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 table, not 0");
    }
}

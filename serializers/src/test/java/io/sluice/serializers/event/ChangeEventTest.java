package io.sluice.serializers.event;

import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeEventTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "bigint(20) unsigned", Types.BIGINT, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .column("price", "decimal(10,2)", Types.DECIMAL, false)
                    .build();

    @Test
    void updateKnowsWhichColumnsChanged() {
        ChangeEvent update =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(new RowImage.Builder().append(1).append("fig").appendNull().build())
                        .after(
                                new RowImage.Builder()
                                        .append(1)
                                        .append("fig")
                                        .append("1.00")
                                        .build())
                        .build();

        assertThat(update.isUpdated(0)).isFalse();
        assertThat(update.isUpdated(1)).isFalse();
        assertThat(update.isUpdated(2)).isTrue();
        assertThat(update.data()).isSameAs(update.after());
        assertThat(ITEMS.keyNames()).containsExactly("id");
    }

    @Test
    void imagesMustFitTheType() {
        RowImage row = new RowImage.Builder().append(1).append("fig").appendNull().build();

        assertThatThrownBy(() -> ChangeEvent.builder(ITEMS, ChangeType.DELETE).after(row).build())
                .hasMessageContaining("DELETE of shop.items needs a before image");
        assertThatThrownBy(
                        () ->
                                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                                        .after(new RowImage.Builder().append(1).build())
                                        .build())
                .hasMessageContaining("has 1 values but the table has 3 columns");
        assertThat(ChangeEvent.builder(ITEMS, ChangeType.DELETE).before(row).build().data())
                .isSameAs(row);
    }

    @Test
    void statementsCarryTheirText() {
        ChangeEvent ddl =
                ChangeEvent.builder(TableSchema.builder("shop", "items").build(), ChangeType.ALTER)
                        .sql("ALTER TABLE items ADD c INT")
                        .build();

        assertThat(ddl.isDdl()).isTrue();
        assertThat(ddl.sql()).startsWith("ALTER");
        assertThat(ddl.before()).isNull();
    }
}

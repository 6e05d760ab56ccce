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

    @Test
    void queryOfARowIsANonDdlStatementAtTheRowsPlace() {
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(1).append("fig").appendNull().build())
                        .query("INSERT INTO items VALUES (1, 'fig', NULL)")
                        .executeTime(1_700_000_000_000L)
                        .gtid("u:7")
                        .transactionId("u:7")
                        .binlog("mysql-bin.000003", 4_567, 0)
                        .serverId(9)
                        .build();

        ChangeEvent query = ChangeEvent.queryOf(insert);

        assertThat(insert.isDdl()).isFalse();
        assertThat(insert.isRow()).isTrue();
        assertThat(query.type()).isEqualTo(ChangeType.QUERY);
        assertThat(query.isDdl()).isFalse();
        assertThat(query.isRow()).isFalse();
        assertThat(query.sql()).isEqualTo("INSERT INTO items VALUES (1, 'fig', NULL)");
        assertThat(query.query()).isEmpty();
        assertThat(query.schema()).isSameAs(ITEMS);
        assertThat(query.before()).isNull();
        assertThat(query.after()).isNull();
        assertThat(query.executeTime()).isEqualTo(1_700_000_000_000L);
        assertThat(query.gtid()).isEqualTo("u:7");
        assertThat(query.transactionId()).isEqualTo("u:7");
        assertThat(query.binlogFile()).isEqualTo("mysql-bin.000003");
        assertThat(query.binlogPosition()).isEqualTo(4_567);
        assertThat(query.serverId()).isEqualTo(9);
        assertThat(query)
                .isNotEqualTo(
                        ChangeEvent.builder(ITEMS, ChangeType.QUERY)
                                .sql(query.sql())
                                .executeTime(1_700_000_000_000L)
                                .gtid("u:7")
                                .transactionId("u:7")
                                .binlog("mysql-bin.000003", 4_567, 0)
                                .serverId(9)
                                .build());
        assertThat(insert)
                .isNotEqualTo(
                        ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                                .after(insert.after())
                                .executeTime(1_700_000_000_000L)
                                .gtid("u:7")
                                .transactionId("u:7")
                                .binlog("mysql-bin.000003", 4_567, 0)
                                .serverId(9)
                                .build());
    }

    @Test
    void onlyAQueryMayBeEitherDdlOrNotAndOnlyRowsCarryQueries() {
        RowImage row = new RowImage.Builder().append(1).append("fig").appendNull().build();
        TableSchema items = TableSchema.builder("shop", "items").build();

        assertThatThrownBy(
                        () ->
                                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                                        .after(row)
                                        .ddl(true)
                                        .build())
                .hasMessageContaining("INSERT of shop.items is never DDL");
        assertThatThrownBy(() -> ChangeEvent.builder(items, ChangeType.ALTER).ddl(false).build())
                .hasMessageContaining("ALTER of shop.items is always DDL");
        assertThatThrownBy(
                        () ->
                                ChangeEvent.builder(items, ChangeType.ALTER)
                                        .query("UPDATE x")
                                        .build())
                .hasMessageContaining("cannot carry a row's query");
        assertThatThrownBy(
                        () ->
                                ChangeEvent.queryOf(
                                        ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                                                .after(row)
                                                .build()))
                .hasMessageContaining("carries no query");
        assertThat(ChangeEvent.builder(items, ChangeType.QUERY).build().isDdl()).isTrue();
    }
}

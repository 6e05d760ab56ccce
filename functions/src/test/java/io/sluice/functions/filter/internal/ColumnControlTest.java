package io.sluice.functions.filter.internal;

import org.apache.flink.runtime.execution.SuppressRestartsException;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;

import static io.sluice.functions.filter.internal.FilterTestData.insert;
import static io.sluice.functions.filter.internal.FilterTestData.row;
import static io.sluice.functions.filter.internal.FilterTestData.settings;
import static io.sluice.functions.filter.internal.FilterTestData.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Column plans: which columns a table's messages carry, masked how, and when a key is touched. */
class ColumnControlTest {

    private static final RowImage ROW = row("7", "a@b.c", "5551234", "12.50", "hi");

    @Test
    void includeKeepsTheListedColumnsAndTheKeyInTableOrder() {
        ColumnControl control =
                new ColumnControl(
                        settings(Map.of("filter.columns.include", "shop\\.users:note/EMAIL")));

        ChangeEvent out = control.apply(insert(ROW));

        assertThat(names(out.schema())).isEqualTo("id,email,note");
        assertThat(out.after()).isEqualTo(row("7", "a@b.c", "hi"));
        assertThat(out.schema().keyNames()).containsExactly("id");
    }

    @Test
    void excludeDropsTheListedColumnsCanalSyntaxAcrossItems() {
        ColumnControl control =
                new ColumnControl(
                        settings(
                                Map.of(
                                        "filter.columns.exclude",
                                        "shop.other:x,shop.users:phone/note")));

        ChangeEvent out = control.apply(insert(ROW));

        assertThat(names(out.schema())).isEqualTo("id,email,amount");
        assertThat(out.after()).isEqualTo(row("7", "a@b.c", "12.50"));
    }

    @Test
    void theSamePlanAndSchemaServeEveryRowOfATableVersion() {
        ColumnControl control =
                new ColumnControl(settings(Map.of("filter.columns.exclude", "shop.users:note")));

        assertThat(control.apply(insert(ROW)).schema())
                .isSameAs(control.apply(insert(ROW)).schema());
    }

    @Test
    void unmatchedTablesPassUnchanged() {
        ColumnControl control =
                new ColumnControl(settings(Map.of("filter.columns.exclude", "shop.other:note")));
        ChangeEvent in = insert(ROW);

        assertThat(control.apply(in)).isSameAs(in);
    }

    @Test
    void masksHashWithTheSaltTruncateAndReplaceAndKeepNull() throws Exception {
        ColumnControl control =
                new ColumnControl(
                        settings(
                                Map.of(
                                        "filter.columns.mask",
                                        "shop\\.users:email=hash,phone=truncate(3),"
                                                + "note=replace(***)",
                                        "filter.mask-salt",
                                        "pepper")));

        ChangeEvent out = control.apply(insert(row("7", "a@b.c", "5551234", "1", null)));

        String hash =
                HexFormat.of()
                        .formatHex(
                                MessageDigest.getInstance("SHA-256")
                                        .digest("peppera@b.c".getBytes(StandardCharsets.UTF_8)));
        assertThat(out.after()).isEqualTo(row("7", hash, "555", "1", null));
        assertThat(out.schema().mysqlType(1)).isEqualTo("char(64)");
        assertThat(out.schema().mysqlType(2)).isEqualTo("varchar(32)");
        assertThat(out.schema().mysqlType(4)).isEqualTo("varchar(3)");
        // Deterministic: the same value and salt hash alike in another operator instance.
        ColumnControl other =
                new ColumnControl(
                        settings(
                                Map.of(
                                        "filter.columns.mask",
                                        "shop.users:email=hash",
                                        "filter.mask-salt",
                                        "pepper")));
        assertThat(other.apply(insert(ROW)).after().text(1)).isEqualTo(hash);
    }

    @Test
    void truncateCountsCharactersNotBytes() {
        ColumnControl control =
                new ColumnControl(
                        settings(Map.of("filter.columns.mask", "shop.users:note=truncate(2)")));

        ChangeEvent out = control.apply(insert(row("7", "a", "b", "1", "żółw")));

        assertThat(out.after().text(4)).isEqualTo("żó");
    }

    @Test
    void excludingOrMaskingAKeyColumnFailsNamingTableColumnAndOption() {
        ColumnControl exclude =
                new ColumnControl(settings(Map.of("filter.columns.exclude", "shop.users:id")));
        ColumnControl mask =
                new ColumnControl(settings(Map.of("filter.columns.mask", "shop.users:ID=hash")));

        assertThatThrownBy(() -> exclude.apply(insert(ROW)))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessageContaining("'filter.columns.exclude'")
                .hasMessageContaining("column 'id' of shop.users")
                .hasMessageContaining("primary key");
        assertThatThrownBy(() -> mask.apply(insert(ROW)))
                .cause()
                .hasMessageContaining("'filter.columns.mask'")
                .hasMessageContaining("masks column 'id'");
    }

    @Test
    void aBadMaskFailsAtStartNamingTheItem() {
        assertThatThrownBy(() -> settings(Map.of("filter.columns.mask", "shop.users:email=blur")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'filter.columns.mask'")
                .hasMessageContaining("'email=blur'");
    }

    @Test
    void anUpdateIsEmptyWhenOnlyExcludedColumnsChanged() {
        ColumnControl control =
                new ColumnControl(settings(Map.of("filter.columns.exclude", "shop.users:note")));

        assertThat(control.isEmptyUpdate(update(ROW, row("7", "a@b.c", "5551234", "12.50", "x"))))
                .isTrue();
        assertThat(control.isEmptyUpdate(update(ROW, row("7", "z@b.c", "5551234", "12.50", "x"))))
                .isFalse();
    }

    private static String names(TableSchema schema) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < schema.columnCount(); i++) {
            out.append(i == 0 ? "" : ",").append(schema.name(i));
        }
        return out.toString();
    }
}

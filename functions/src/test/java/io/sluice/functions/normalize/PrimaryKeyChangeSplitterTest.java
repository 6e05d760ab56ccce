package io.sluice.functions.normalize;

import org.apache.flink.api.common.functions.util.ListCollector;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PrimaryKeyChangeSplitterTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .build();

    private static RowImage row(int id, String name) {
        return new RowImage.Builder().append(id).append(name).build();
    }

    private static List<ChangeEvent> split(ChangeEvent change) {
        List<ChangeEvent> out = new ArrayList<>();
        new PrimaryKeyChangeSplitter().flatMap(change, new ListCollector<>(out));
        return out;
    }

    @Test
    void keyChangeBecomesDeleteOfOldThenInsertOfNew() {
        ChangeEvent update =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(row(3, "fig"))
                        .after(row(40, "fig"))
                        .executeTime(1_700_000_000_000L)
                        .binlog("mysql-bin.000002", 777, 1)
                        .build();

        List<ChangeEvent> out = split(update);

        assertThat(out)
                .extracting(ChangeEvent::type)
                .containsExactly(ChangeType.DELETE, ChangeType.INSERT);
        assertThat(out.get(0).before()).isEqualTo(row(3, "fig"));
        assertThat(out.get(1).after()).isEqualTo(row(40, "fig"));
        assertThat(out)
                .allSatisfy(
                        c -> {
                            assertThat(c.executeTime()).isEqualTo(1_700_000_000_000L);
                            assertThat(c.binlogPosition()).isEqualTo(777);
                            assertThat(c.rowInEvent()).isEqualTo(1);
                        });
    }

    @Test
    void theStatementsQueryStaysWithTheDelete() {
        ChangeEvent update =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(row(3, "fig"))
                        .after(row(40, "fig"))
                        .query("UPDATE items SET id = 40 WHERE id = 3")
                        .build();

        List<ChangeEvent> out = split(update);

        assertThat(out)
                .extracting(ChangeEvent::query)
                .containsExactly("UPDATE items SET id = 40 WHERE id = 3", "");
    }

    @Test
    void everythingElsePassesThroughUntouched() {
        ChangeEvent update =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(row(3, "fig"))
                        .after(row(3, "ripe fig"))
                        .build();
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT).after(row(1, "a")).build();
        TableSchema noKey =
                TableSchema.builder("shop", "log").column("l", "text", Types.CLOB, false).build();
        ChangeEvent keyless =
                ChangeEvent.builder(noKey, ChangeType.UPDATE)
                        .before(new RowImage.Builder().append("a").build())
                        .after(new RowImage.Builder().append("b").build())
                        .build();

        assertThat(split(update)).containsExactly(update);
        assertThat(split(insert)).containsExactly(insert);
        assertThat(split(keyless)).containsExactly(keyless);
    }
}

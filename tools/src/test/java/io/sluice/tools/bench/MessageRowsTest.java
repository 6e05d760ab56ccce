package io.sluice.tools.bench;

import io.sluice.serializers.canal.CanalBinaryEncoder;
import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MessageRowsTest {

    private static final TableSchema T =
            TableSchema.builder("db", "t")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("v", "varchar(64)", Types.VARCHAR, false)
                    .build();

    @Test
    void countsTheRowsOfAMessageInBothFormats() {
        for (ChangeEncoder encoder : List.of(new CanalFlatEncoder(), new CanalBinaryEncoder())) {
            String format = encoder instanceof CanalFlatEncoder ? "canal-flat" : "canal-binary";
            for (int n : new int[] {1, 3, 40}) {
                List<ChangeEvent> rows = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    rows.add(update(i, "a{b}\"[c]\\", i % 2 == 0 ? "" : "}{"));
                }
                assertThat(MessageRows.of(format).applyAsInt(encoder.encode(rows, 7, 1)))
                        .as("%s, %d rows", format, n)
                        .isEqualTo(n);
            }
            ChangeEvent ddl =
                    ChangeEvent.builder(T, ChangeType.ALTER).sql("ALTER TABLE t ADD x INT").build();
            assertThat(MessageRows.of(format).applyAsInt(encoder.encode(List.of(ddl), 7, 1)))
                    .isOne();
        }
    }

    private static ChangeEvent update(int id, String before, String after) {
        return ChangeEvent.builder(T, ChangeType.UPDATE)
                .before(new RowImage.Builder().append(id).append(before).build())
                .after(new RowImage.Builder().append(id).append(after).build())
                .build();
    }
}

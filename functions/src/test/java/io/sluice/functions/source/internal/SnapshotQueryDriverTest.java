package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The chunk query's rewrite; {@code ChangeEventConversionITCase} runs it against both servers. */
class SnapshotQueryDriverTest {

    @Test
    void namesEveryColumnInPlaceOfTheStarAndKeepsTheRest() {
        String chunk = "SELECT * FROM `db`.`t` WHERE `id` >= ? AND NOT (`id` = ?) AND `id` <= ?";
        assertThat(SnapshotQueryDriver.named(List.of("id", "inv", "we`ird"), chunk))
                .isEqualTo(
                        "SELECT `id`, `inv`, `we``ird` FROM `db`.`t` WHERE `id` >= ? AND NOT"
                                + " (`id` = ?) AND `id` <= ?");
    }

    @Test
    void leavesEveryOtherQueryAlone() throws Exception {
        // No connection: a query that is not a chunk's is returned before any lookup.
        for (String sql :
                List.of(
                        "SELECT MIN(`id`), MAX(`id`) FROM `db`.`t`",
                        "SELECT * FROM information_schema.COLUMNS",
                        "SHOW MASTER STATUS",
                        "select * from `db`.`t`")) {
            assertThat(SnapshotQueryDriver.withColumns(null, sql)).isEqualTo(sql);
        }
    }
}

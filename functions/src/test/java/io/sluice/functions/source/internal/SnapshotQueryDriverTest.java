package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

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
    void selectsMariaDbInet6ColumnsAsTheirBytes() {
        String chunk = "SELECT * FROM `db`.`t` WHERE `id` >= ?";
        assertThat(SnapshotQueryDriver.named(List.of("id", "u", "i6"), Set.of("i6"), chunk))
                .isEqualTo(
                        "SELECT `id`, `u`, CAST(`i6` AS BINARY(16)) AS `i6` FROM `db`.`t` WHERE"
                                + " `id` >= ?");
    }

    @Test
    void declaresMariaDbUuidAndInetColumnsBinaryInTableDefinitions() {
        assertThat(
                        SnapshotQueryDriver.readable(
                                "CREATE TABLE `ids` (\n  `id` int(11) NOT NULL,\n  `u` uuid DEFAULT"
                                        + " NULL,\n  `i4` inet4 DEFAULT NULL,\n  `i6` inet6 NOT"
                                        + " NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB"))
                .isEqualTo(
                        "CREATE TABLE `ids` (\n  `id` int(11) NOT NULL,\n  `u` BINARY(16) DEFAULT"
                                + " NULL,\n  `i4` BINARY(4) DEFAULT NULL,\n  `i6` BINARY(16) NOT"
                                + " NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB");
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

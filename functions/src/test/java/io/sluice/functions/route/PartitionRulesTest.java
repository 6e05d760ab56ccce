package io.sluice.functions.route;

import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionRulesTest {

    private static final TableSchema T =
            TableSchema.builder("db", "t")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .build();

    private static final TableSchema NO_KEY =
            TableSchema.builder("db", "log").column("line", "text", Types.CLOB, false).build();

    private static RowImage row(String id, String name) {
        RowImage.Builder row = new RowImage.Builder().append(id);
        return (name == null ? row.appendNull() : row.append(name)).build();
    }

    private static int partitionOf(PartitionRules rules, TableSchema schema, RowImage row, int n) {
        return PartitionRules.partition(rules.hasherFor(schema).hash(row), n);
    }

    @Test
    void primaryKeyHashMatchesCanal() {
        // Canal: "db".hashCode() ^ "1".hashCode() = 3198 ^ 49 = 3151; 3151 % 3 = 1.
        PartitionRules rules = PartitionRules.create("db.t:$pk$", true, Unmatched.ZERO, "p");

        assertThat(rules.hasherFor(T).hash(row("1", "x"))).isEqualTo(3151);
        assertThat(partitionOf(rules, T, row("1", "x"), 3)).isEqualTo(1);
    }

    @Test
    void columnListXorsEveryColumnAndNullHashesAsEmpty() {
        PartitionRules rules = PartitionRules.create("db\\..*:ID^Name", false, Unmatched.ZERO, "p");

        assertThat(rules.hasherFor(T).hash(row("7", "fig")))
                .isEqualTo("7".hashCode() ^ "fig".hashCode());
        assertThat(rules.hasherFor(T).hash(row("7", null))).isEqualTo("7".hashCode());
    }

    @Test
    void tableModeHashesTheTableNameOnly() {
        PartitionRules rules = PartitionRules.create("db.t", true, Unmatched.ZERO, "p");

        assertThat(rules.hasherFor(T).hash(row("1", "a"))).isEqualTo("t".hashCode());
        assertThat(rules.hasherFor(T).hash(row("2", "b"))).isEqualTo("t".hashCode());
    }

    @Test
    void firstMatchingRuleWins() {
        PartitionRules rules =
                PartitionRules.create("db.t:name,db.t:$pk$", false, Unmatched.ZERO, "p");

        assertThat(rules.hasherFor(T).hash(row("1", "a"))).isEqualTo("a".hashCode());
    }

    @Test
    void unmatchedTablesFollowTheChosenStrategy() {
        RowImage row = row("5", "a");

        assertThat(
                        PartitionRules.create("other.x", true, Unmatched.ZERO, "p")
                                .hasherFor(T)
                                .hash(row))
                .isZero();
        assertThat(PartitionRules.create(null, true, Unmatched.TABLE, "p").hasherFor(T).hash(row))
                .isEqualTo("t".hashCode());
        assertThat(
                        PartitionRules.create(null, true, Unmatched.PRIMARY_KEY, "p")
                                .hasherFor(T)
                                .hash(row))
                .isEqualTo("db".hashCode() ^ "5".hashCode());
    }

    @Test
    void tablesWithoutPrimaryKeyStayInOnePartition() {
        PartitionRules rules = PartitionRules.create("db.log:$pk$", true, Unmatched.ZERO, "p");
        KeyHasher hasher = rules.hasherFor(NO_KEY);

        assertThat(hasher.hash(new RowImage.Builder().append("anything").build()))
                .isEqualTo("log".hashCode());
        assertThat(hasher.hash(new RowImage.Builder().append("else").build()))
                .isEqualTo("log".hashCode());
    }

    @Test
    void partitionIsNeverNegative() {
        assertThat(PartitionRules.partition(Integer.MIN_VALUE, 3)).isBetween(0, 2);
        assertThat(PartitionRules.partition(-7, 3)).isEqualTo(1);
    }

    @Test
    void unknownColumnNamesRuleColumnAndTable() {
        PartitionRules rules =
                PartitionRules.create("db.t:id^nmae", true, Unmatched.ZERO, "route.partition-hash");

        assertThatThrownBy(() -> rules.hasherFor(T))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'route.partition-hash'")
                .hasMessageContaining("rule 'db.t:id^nmae'")
                .hasMessageContaining("column 'nmae'")
                .hasMessageContaining("db.t");
    }

    @Test
    void emptyColumnAndBadRegexAreRefused() {
        assertThatThrownBy(() -> PartitionRules.create("db.t:id^", true, Unmatched.ZERO, "p"))
                .hasMessageContaining("empty column name in 'db.t:id^'");
        assertThatThrownBy(() -> PartitionRules.create("db\\.[t:$pk$", true, Unmatched.ZERO, "p"))
                .hasMessageContaining("invalid regular expression 'db\\.[t'");
    }
}

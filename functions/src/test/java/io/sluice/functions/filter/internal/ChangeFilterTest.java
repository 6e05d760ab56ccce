package io.sluice.functions.filter.internal;

import org.apache.flink.runtime.execution.SuppressRestartsException;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.sluice.functions.filter.internal.FilterTestData.USERS;
import static io.sluice.functions.filter.internal.FilterTestData.insert;
import static io.sluice.functions.filter.internal.FilterTestData.row;
import static io.sluice.functions.filter.internal.FilterTestData.settings;
import static io.sluice.functions.filter.internal.FilterTestData.update;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which changes are written: by kind, by row predicate, and empty updates. */
class ChangeFilterTest {

    private static final ChangeEvent DDL =
            ChangeEvent.builder(USERS, ChangeType.ALTER).sql("ALTER TABLE users ...").build();

    @Test
    void typesKeepOnlyTheListedKinds() {
        ChangeFilter filter = new ChangeFilter(settings(Map.of("filter.types", "insert;DELETE")));
        RowImage r = row("1", "e", "p", "1", "n");

        assertThat(filter.keeps(insert(r))).isTrue();
        assertThat(filter.keeps(update(r, r))).isFalse();
        assertThat(filter.keeps(DDL)).isFalse();
        assertThat(filter.keepsQueryOf(insert(r))).isFalse();
    }

    @Test
    void everythingPassesByDefault() {
        ChangeFilter filter = new ChangeFilter(settings(Map.of()));
        RowImage r = row("1", "e", "p", "1", "n");

        assertThat(filter.keeps(update(r, r))).isTrue();
        assertThat(filter.keeps(DDL)).isTrue();
        assertThat(filter.keepsQueryOf(insert(r))).isTrue();
    }

    @Test
    void predicatesCompareNumbersAsNumbersAndTextAsBytes() {
        assertThat(keeps("amount > 10", "9.99")).isFalse();
        assertThat(keeps("amount > 10", "10.01")).isTrue();
        assertThat(keeps("amount >= 10", "10.00")).isTrue();
        assertThat(keeps("amount = 10", "010.0")).isTrue();
        assertThat(keeps("amount < -1.5", "-2")).isTrue();
        assertThat(keeps("amount < -1.5", "-1.25")).isFalse();
        assertThat(keeps("amount != 0", "-0.00")).isFalse();
        assertThat(keeps("amount > 100", "99")).isFalse();
        assertThat(keeps("amount > '100'", "1000")).isTrue();
        assertThat(keeps("email = 'it''s'", "1", "it's")).isTrue();
        assertThat(keeps("email <> 'a'", "1", "a")).isFalse();
        assertThat(keeps("email < 'b'", "1", "abc")).isTrue();
    }

    @Test
    void nullFailsEveryComparisonButMeetsIsNull() {
        assertThat(keeps("amount > 0 or amount < 1", null)).isFalse();
        assertThat(keeps("amount is null", null)).isTrue();
        assertThat(keeps("amount is not null", null)).isFalse();
    }

    @Test
    void andBindsTighterThanOrAndParenthesesGroup() {
        assertThat(keeps("id = 1 or amount > 5 and email = 'x'", "1", "y")).isTrue();
        assertThat(keeps("(id = 1 or amount > 5) and email = 'x'", "1", "y")).isFalse();
    }

    @Test
    void deletesAreTestedOnTheirBeforeImage() {
        ChangeFilter filter = new ChangeFilter(settings(Map.of("filter.rows", "shop.*: id = 3")));
        ChangeEvent delete =
                ChangeEvent.builder(USERS, ChangeType.DELETE)
                        .before(row("3", "e", "p", "1", "n"))
                        .build();

        assertThat(filter.keeps(delete)).isTrue();
    }

    @Test
    void theFirstMatchingItemDecidesAndOtherTablesPass() {
        ChangeFilter filter =
                new ChangeFilter(
                        settings(
                                Map.of(
                                        "filter.rows",
                                        "shop\\.users: id = 1; shop\\..*: id = 2; other.t: x = 1")));

        assertThat(filter.keeps(insert(row("1", "e", "p", "1", "n")))).isTrue();
        assertThat(filter.keeps(insert(row("2", "e", "p", "1", "n")))).isFalse();
    }

    @Test
    void aBadPredicateFailsAtStartNamingPatternAndPosition() {
        assertThatThrownBy(
                        () ->
                                settings(
                                        Map.of(
                                                "filter.rows",
                                                "shop.users: id = 1; shop\\.orders: status = and")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'filter.rows'")
                .hasMessageContaining("table pattern 'shop\\.orders'")
                .hasMessageContaining("position 10 of 'status = and'");
        assertThatThrownBy(() -> settings(Map.of("filter.rows", "t: (a = 1")))
                .hasMessageContaining("position 7")
                .hasMessageContaining("expected ')'");
        assertThatThrownBy(() -> settings(Map.of("filter.rows", "t: a is nul")))
                .hasMessageContaining("position 6");
        assertThatThrownBy(() -> settings(Map.of("filter.rows", "t: a = 1 b = 2")))
                .hasMessageContaining("position 7");
    }

    @Test
    void aPredicateOnAMissingColumnFailsWhenTheTableIsFirstSeen() {
        ChangeFilter filter =
                new ChangeFilter(settings(Map.of("filter.rows", "shop.users: state = 'x'")));

        assertThatThrownBy(() -> filter.keeps(insert(row("1", "e", "p", "1", "n"))))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessageContaining("column 'state' at position 1")
                .hasMessageContaining("shop.users has no such column");
    }

    @Test
    void emptyUpdatesAreDroppedOnlyWhenAsked() {
        RowImage before = row("1", "e", "p", "1", "old");
        RowImage after = row("1", "e", "p", "1", "new");
        Map<String, String> exclude = Map.of("filter.columns.exclude", "shop.users:note");

        assertThat(new ChangeFilter(settings(exclude)).keeps(update(before, after))).isTrue();
        ChangeFilter dropping =
                new ChangeFilter(
                        settings(
                                Map.of(
                                        "filter.columns.exclude",
                                        "shop.users:note",
                                        "filter.drop-empty-updates",
                                        "true")));
        assertThat(dropping.keeps(update(before, after))).isFalse();
        assertThat(dropping.keeps(update(before, row("1", "e", "q", "1", "new")))).isTrue();
        // A table whose statement text would show cut columns gets no QUERY message.
        assertThat(dropping.keepsQueryOf(insert(after))).isFalse();
    }

    private static boolean keeps(String predicate, String amount) {
        return keeps(predicate, "1", "e", amount);
    }

    private static boolean keeps(String predicate, String id, String email) {
        return keeps(predicate, id, email, "7");
    }

    private static boolean keeps(String predicate, String id, String email, String amount) {
        ChangeFilter filter =
                new ChangeFilter(settings(Map.of("filter.rows", "shop.users: " + predicate)));
        return filter.keeps(insert(row(id, email, "p", amount, "n")));
    }
}

package io.sluice.functions.internal;

import io.sluice.functions.route.PartitionRules;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.route.TopicRouter;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every rule list splits as Canal 1.1.8 splits it, whichever option it is. */
class RuleListTest {

    private static final TableSchema T =
            TableSchema.builder("db", "t")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .build();

    @Test
    void commaAndSemicolonBothSeparateAndEmptyItemsAreDropped() {
        assertThat(RuleList.items("a.b:id,c.d;;e\\..*:x^y,"))
                .containsExactly("a.b:id", "c.d", "e\\..*:x^y");
        assertThat(RuleList.items(" ; , ")).isEmpty();
        assertThat(RuleList.items(null)).isEmpty();
    }

    @Test
    void itemsAreTrimmed() {
        assertThat(RuleList.items(" a.b:id , c.d ")).containsExactly("a.b:id", "c.d");
    }

    @Test
    void semicolonListsKeepTheirCommas() {
        assertThat(RuleList.itemsBySemicolon("db.t:a=hash,b=truncate(2); db.u:c=hash"))
                .containsExactly("db.t:a=hash,b=truncate(2)", "db.u:c=hash");
    }

    @Test
    void topicAndPartitionRulesReadTheSameListAlike() {
        // A space after a separator and an empty item: both rule lists see 'db.t' second.
        String list = "other.x:id, ;db.t:name";
        TopicRouter router =
                TopicRouter.create(list.replace(":id", "").replace(":name", ""), null, "f", "r");
        PartitionRules rules = PartitionRules.create(list, true, Unmatched.ZERO, "p");

        assertThat(router.topicOf("db", "t")).isEqualTo("db_t");
        RowImage row = new RowImage.Builder().append("1").append("fig").build();
        assertThat(rules.hasherFor(T).hash(row)).isEqualTo("db".hashCode() ^ "fig".hashCode());
    }

    @Test
    void aCommaInsideARegexCutsItAsCanalDoes() {
        assertThat(RuleList.items("db\\.t{1,3}")).containsExactly("db\\.t{1", "3}");
        assertThatThrownBy(() -> PartitionRules.create("db\\.t{1,3}:id", true, Unmatched.ZERO, "p"))
                .hasMessageContaining("'p'")
                .hasMessageContaining("db\\.t{1");
        assertThatThrownBy(() -> TopicRouter.create("db\\.t{1,3}", null, "f", "r"))
                .hasMessageContaining("'r'")
                .hasMessageContaining("db\\.t{1");
    }
}

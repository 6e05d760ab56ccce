package io.sluice.functions.route;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionCountRulesTest {

    @Test
    void firstMatchingItemGivesTheCount() {
        PartitionCountRules rules =
                PartitionCountRules.create("orders:6;shop_.*:3,.*:1", "route.partition-counts");

        assertThat(rules.countOf("orders")).isEqualTo(6);
        assertThat(rules.countOf("shop_items")).isEqualTo(3);
        assertThat(rules.countOf("anything")).isEqualTo(1);
    }

    @Test
    void unnamedTopicsAreLeftToTheBroker() {
        assertThat(PartitionCountRules.create("orders:6", "p").countOf("other"))
                .isEqualTo(PartitionCountRules.UNKNOWN);
        assertThat(PartitionCountRules.create("", "p").countOf("x"))
                .isEqualTo(PartitionCountRules.UNKNOWN);
    }

    @Test
    void badItemsNameOptionAndItem() {
        assertThatThrownBy(() -> PartitionCountRules.create("orders", "route.partition-counts"))
                .hasMessageContaining("'route.partition-counts'")
                .hasMessageContaining("'topicPattern:N'")
                .hasMessageContaining("'orders'");
        assertThatThrownBy(() -> PartitionCountRules.create("orders:zero", "p"))
                .hasMessageContaining("positive partition count in 'orders:zero'");
        assertThatThrownBy(() -> PartitionCountRules.create("orders:0", "p"))
                .hasMessageContaining("positive partition count in 'orders:0'");
    }
}

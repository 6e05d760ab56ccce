package io.sluice.functions.route;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Configured counts win; the broker is asked once per other topic, and its answer is kept. */
class BrokerPartitionCountsTest {

    @Test
    void configuredCountsFirstThenTheBrokerOncePerTopic() {
        Asking counts = new Asking(PartitionCountRules.create("orders:6, audit_.*:2", "test"));

        assertThat(counts.countOf("orders")).isEqualTo(6);
        assertThat(counts.countOf("audit_2026")).isEqualTo(2);
        assertThat(counts.countOf("customers")).isEqualTo(100);
        assertThat(counts.countOf("customers")).isEqualTo(100);
        assertThat(counts.countOf("items")).isEqualTo(101);

        assertThat(counts.asked).containsExactly("customers", "items");
    }

    /** A broker whose count grows with each question, so that a second question shows. */
    private static final class Asking extends BrokerPartitionCounts {
        private final List<String> asked = new ArrayList<>();

        Asking(PartitionCountRules configured) {
            super(configured);
        }

        @Override
        protected int lookUp(String topic) {
            asked.add(topic);
            return 100 + asked.size() - 1;
        }

        @Override
        public void close() {}
    }
}

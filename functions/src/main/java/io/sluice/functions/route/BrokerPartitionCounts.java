package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;

import java.util.HashMap;
import java.util.Map;

/**
 * Partition counts per topic: configured ones first, else the broker's, asked once when the topic
 * is first written and kept for the life of the subtask (a count that changed under a running job
 * would move keys between partitions). Each sink says how its broker is asked.
 */
@Internal
public abstract class BrokerPartitionCounts implements PartitionCounts {

    private final PartitionCountRules configured;
    private final Map<String, Integer> known = new HashMap<>();

    protected BrokerPartitionCounts(PartitionCountRules configured) {
        this.configured = configured;
    }

    @Override
    public final int countOf(String topic) {
        Integer count = known.get(topic);
        if (count == null) {
            count = configured.countOf(topic);
            if (count == PartitionCountRules.UNKNOWN) {
                count = lookUp(topic);
            }
            known.put(topic, count);
        }
        return count;
    }

    /** The broker's count of {@code topic}, a topic no rule configures; fails clearly. */
    protected abstract int lookUp(String topic);
}

package io.sluice.functions.route;

import io.sluice.functions.internal.NamePattern;
import io.sluice.functions.internal.RuleList;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Canal's {@code dynamicTopicPartitionNum}: items {@code topicPattern:N}, first match wins, the
 * pattern exact or a regex by Canal's rule. Topics no item names return -1: their count comes from
 * the broker.
 */
public final class PartitionCountRules implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Returned for topics whose count is not configured. */
    public static final int UNKNOWN = -1;

    private final List<NamePattern> patterns;
    private final List<Integer> counts;

    private PartitionCountRules(List<NamePattern> patterns, List<Integer> counts) {
        this.patterns = patterns;
        this.counts = counts;
    }

    public static PartitionCountRules create(String spec, String option) {
        List<NamePattern> patterns = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String item : RuleList.items(spec)) {
            int colon = item.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' takes 'topicPattern:N' items, but has '%s'",
                                option, item));
            }
            int count;
            try {
                count = Integer.parseInt(item.substring(colon + 1).trim());
            } catch (NumberFormatException e) {
                count = 0;
            }
            if (count <= 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' needs a positive partition count in '%s'",
                                option, item));
            }
            patterns.add(NamePattern.parse(item.substring(0, colon).trim(), option, item));
            counts.add(count);
        }
        return new PartitionCountRules(patterns, counts);
    }

    /** The configured count of {@code topic}, or {@link #UNKNOWN}. */
    public int countOf(String topic) {
        for (int i = 0; i < patterns.size(); i++) {
            if (patterns.get(i).matches(topic)) {
                return counts.get(i);
            }
        }
        return UNKNOWN;
    }
}

package io.sluice.functions.internal;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an option that lists rules into its items, the one way every such option is split.
 *
 * <p>Canal 1.1.8 splits each of its rule lists ({@code canal.mq.dynamicTopic}, {@code
 * partitionHash}, {@code dynamicTopicPartitionNum}, the field filters) alike: every ',' counts as a
 * ';', then the text is cut at each ';' and empty items are dropped. So a ',' inside a regular
 * expression ({@code t{1,3}}) cuts it there, in Canal as here; the pieces fail as patterns, naming
 * the item. Unlike Canal, items are trimmed: Canal trims a dynamicTopic item's parts but not a
 * partitionHash item, where a space after the ',' made the rule match nothing.
 */
@Internal
public final class RuleList {

    private RuleList() {}

    /** Items separated by ',' or ';', as Canal separates them. */
    public static List<String> items(String value) {
        return split(value, true);
    }

    /** Items separated by ';' only, for Sluice's own lists whose items hold ',' (column masks). */
    public static List<String> itemsBySemicolon(String value) {
        return split(value, false);
    }

    private static List<String> split(String value, boolean commaToo) {
        List<String> items = new ArrayList<>();
        if (value == null) {
            return items;
        }
        String text = commaToo ? value.replace(',', ';') : value;
        for (String item : text.split(";")) {
            item = item.trim();
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }
}

package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.internal.NamePattern;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** One item of {@code filter.rows}: a table pattern and the predicate its rows must meet. */
@Internal
final class RowRule implements Serializable {

    private static final long serialVersionUID = 1L;

    final String pattern;
    final NamePattern names;
    final Predicate.Node predicate;

    private RowRule(String pattern, NamePattern names, Predicate.Node predicate) {
        this.pattern = pattern;
        this.names = names;
        this.predicate = predicate;
    }

    /** Items {@code pattern: predicate} separated by ';' outside quoted literals. */
    static List<RowRule> parseAll(String value, String option) {
        List<RowRule> rules = new ArrayList<>();
        for (String item : splitItems(value)) {
            item = item.trim();
            if (item.isEmpty()) {
                continue;
            }
            int colon = item.indexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' item '%s' has no ':'; items are"
                                        + " 'tablePattern: predicate'",
                                option, item));
            }
            String pattern = item.substring(0, colon).trim();
            NamePattern names = NamePattern.parse(pattern, option, item);
            String text = item.substring(colon + 1).trim();
            rules.add(new RowRule(pattern, names, Predicate.parse(text, option, pattern)));
        }
        return rules;
    }

    private static List<String> splitItems(String value) {
        List<String> items = new ArrayList<>();
        boolean quoted = false;
        int from = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (c == ';' && !quoted) {
                items.add(value.substring(from, i));
                from = i + 1;
            }
        }
        items.add(value.substring(from));
        return items;
    }
}

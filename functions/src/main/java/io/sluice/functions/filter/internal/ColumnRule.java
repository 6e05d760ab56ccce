package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.internal.NamePattern;
import io.sluice.functions.internal.RuleList;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One item of a column option: a table pattern and its columns (lower-cased), each with a mask for
 * {@code filter.columns.mask}, or none for include and exclude lists.
 */
@Internal
final class ColumnRule implements Serializable {

    private static final long serialVersionUID = 1L;

    final String option;
    final String item;
    final NamePattern pattern;
    final Map<String, Mask> columns;

    private ColumnRule(String option, String item, NamePattern pattern, Map<String, Mask> columns) {
        this.option = option;
        this.item = item;
        this.pattern = pattern;
        this.columns = columns;
    }

    /** Canal's field-filter syntax: items {@code pattern:col1/col2} separated by ',' or ';'. */
    static List<ColumnRule> parseLists(String value, String option) {
        List<ColumnRule> rules = new ArrayList<>();
        for (String item : RuleList.items(value)) {
            int colon = colonOf(item, option);
            Map<String, Mask> columns = new LinkedHashMap<>();
            for (String column : item.substring(colon + 1).split("/", -1)) {
                columns.put(columnName(column, option, item), null);
            }
            rules.add(rule(option, item, colon, columns));
        }
        return rules;
    }

    /** Items {@code pattern:col=mask,col=mask} separated by ';' (columns also by '/'). */
    static List<ColumnRule> parseMasks(String value, String option) {
        List<ColumnRule> rules = new ArrayList<>();
        for (String item : RuleList.itemsBySemicolon(value)) {
            int colon = colonOf(item, option);
            Map<String, Mask> columns = new LinkedHashMap<>();
            for (String spec : item.substring(colon + 1).split("[,/]", -1)) {
                int eq = spec.indexOf('=');
                Mask mask = eq < 0 ? null : Mask.parse(spec.substring(eq + 1));
                if (mask == null) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option '%s' item '%s' has '%s'; each column must be"
                                            + " 'col=hash', 'col=truncate(N)' or 'col=replace(text)'",
                                    option, item, spec.trim()));
                }
                columns.put(columnName(spec.substring(0, eq), option, item), mask);
            }
            rules.add(rule(option, item, colon, columns));
        }
        return rules;
    }

    /** The first rule in {@code rules} whose pattern matches {@code qualified}, or null. */
    static ColumnRule first(List<ColumnRule> rules, String qualified) {
        for (ColumnRule rule : rules) {
            if (rule.pattern.matches(qualified)) {
                return rule;
            }
        }
        return null;
    }

    private static ColumnRule rule(
            String option, String item, int colon, Map<String, Mask> columns) {
        String name = item.substring(0, colon).trim();
        return new ColumnRule(option, item, NamePattern.parse(name, option, item), columns);
    }

    private static int colonOf(String item, String option) {
        int colon = item.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' item '%s' has no ':'; items are"
                                    + " 'tablePattern:columns'",
                            option, item));
        }
        return colon;
    }

    private static String columnName(String column, String option, String item) {
        String name = column.trim();
        if (name.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format("Option '%s' has an empty column name in '%s'", option, item));
        }
        return name.toLowerCase(Locale.ROOT);
    }
}

package io.sluice.functions.route;

import io.sluice.functions.internal.IdentityCache;
import io.sluice.functions.internal.NamePattern;
import io.sluice.functions.internal.RuleList;
import io.sluice.serializers.event.TableSchema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the topic of a table, with Canal's {@code dynamicTopic} rules first, then a template such
 * as {@code {database}_{table}}, then the default topic.
 *
 * <p>Canal's rules: items separated by {@code ,} or {@code ;}, each {@code pattern} or {@code
 * topic:pattern}. A first pass tests {@code schema.table} against exact names and regexes
 * containing {@code \.}; if nothing matched, a second pass tests the schema alone against exact
 * names and the other regexes. The first match wins. The topic is the explicit one, else the
 * matched name lower-cased; dots become underscores.
 *
 * <p>Not thread-safe: each operator instance holds its own router, which caches per table.
 */
public final class TopicRouter implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final int MAX_CACHED_SCHEMAS = 4096;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");
    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");

    private final List<Rule> rules;
    private final String template;
    private final String defaultTopic;
    private final String option;
    private transient Map<String, String> cache;
    private transient IdentityCache<TableSchema, String> bySchema;

    private TopicRouter(List<Rule> rules, String template, String defaultTopic, String option) {
        this.rules = rules;
        this.template = template;
        this.defaultTopic = defaultTopic;
        this.option = option;
    }

    /**
     * @param dynamicTopic Canal's dynamicTopic, or null/empty for none
     * @param template a topic template with {@code {database}} and {@code {table}}, or null/empty
     * @param defaultTopic the topic of tables no rule or template names
     * @param option the option name that {@code dynamicTopic} came from, for error messages
     */
    public static TopicRouter create(
            String dynamicTopic, String template, String defaultTopic, String option) {
        List<Rule> rules = new ArrayList<>();
        for (String item : RuleList.items(dynamicTopic)) {
            // The first ':' ends the topic: Canal's 'topic:pattern' (a pattern has no ':').
            int colon = item.indexOf(':');
            String topic = colon < 0 ? null : item.substring(0, colon).trim();
            String pattern = colon < 0 ? item : item.substring(colon + 1).trim();
            if (topic != null) {
                checkTopic(topic, option, item);
            }
            rules.add(new Rule(topic, NamePattern.parse(pattern, option, item)));
        }
        String cleanTemplate = template == null || template.isBlank() ? null : template.trim();
        if (cleanTemplate != null) {
            checkTemplate(cleanTemplate, option);
        }
        if (defaultTopic == null || defaultTopic.isBlank()) {
            throw new IllegalArgumentException("A default topic is required but missing");
        }
        checkTopic(defaultTopic, option, defaultTopic);
        return new TopicRouter(rules, cleanTemplate, defaultTopic, option);
    }

    /**
     * The topic of a table version's changes; cached by schema instance, so the per-row path builds
     * no lookup key.
     */
    public String topicOf(TableSchema schema) {
        if (bySchema == null) {
            bySchema =
                    new IdentityCache<>(
                            MAX_CACHED_SCHEMAS,
                            version -> topicOf(version.database(), version.table()));
        }
        return bySchema.get(schema);
    }

    /** The topic of a table's changes. */
    public String topicOf(String database, String table) {
        if (cache == null) {
            cache = new HashMap<>();
        }
        String key = database + '.' + table;
        String topic = cache.get(key);
        if (topic == null) {
            topic = route(database, table, key);
            cache.put(key, topic);
        }
        return topic;
    }

    private String route(String database, String table, String qualified) {
        if (database.isEmpty() || table.isEmpty()) {
            return defaultTopic;
        }
        for (Rule rule : rules) {
            if ((!rule.pattern.isRegex() || rule.pattern.isTableRegex())
                    && rule.pattern.matches(qualified)) {
                return rule.topicFor(qualified);
            }
        }
        for (Rule rule : rules) {
            if ((!rule.pattern.isRegex() || !rule.pattern.isTableRegex())
                    && rule.pattern.matches(database)) {
                return rule.topicFor(database);
            }
        }
        if (template != null) {
            return sanitize(
                    template.replace("{database}", database).replace("{table}", table), option);
        }
        return defaultTopic;
    }

    private static String sanitize(String topic, String option) {
        String clean = topic.replaceAll("[^a-zA-Z0-9._-]", "_");
        if (clean.length() > 249) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' made the topic '%s', longer than Kafka's 249 characters",
                            option, topic));
        }
        return clean;
    }

    private static void checkTemplate(String template, String option) {
        Matcher placeholders = PLACEHOLDER.matcher(template);
        while (placeholders.find()) {
            String name = placeholders.group(1);
            if (!name.equals("database") && !name.equals("table")) {
                throw new IllegalArgumentException(
                        String.format(
                                "The topic template '%s' has an unknown placeholder '{%s}'; it"
                                        + " takes {database} and {table}",
                                template, name));
            }
        }
    }

    private static void checkTopic(String topic, String option, String item) {
        if (!LEGAL_TOPIC.matcher(topic).matches()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' names the topic '%s' in '%s'; topics take only letters,"
                                    + " digits, '.', '_' and '-'",
                            option, topic, item));
        }
    }

    /** One {@code [topic:]pattern} item. */
    private static final class Rule implements Serializable {
        private static final long serialVersionUID = 1L;

        private final String topic;
        private final NamePattern pattern;

        Rule(String topic, NamePattern pattern) {
            this.topic = topic;
            this.pattern = pattern;
        }

        String topicFor(String matchedName) {
            return topic != null ? topic : matchedName.toLowerCase(Locale.ROOT).replace('.', '_');
        }
    }
}

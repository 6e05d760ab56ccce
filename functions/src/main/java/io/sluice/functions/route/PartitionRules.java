package io.sluice.functions.route;

import io.sluice.functions.internal.IdentityCache;
import io.sluice.functions.internal.NamePattern;
import io.sluice.functions.internal.RuleList;
import io.sluice.serializers.event.TableSchema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Canal's {@code partitionHash}: items {@code tablePattern[:$pk$|:col1^col2]} matched against
 * {@code schema.table}, first match wins. {@code $pk$} hashes the primary key, a column list hashes
 * those columns, no column spec hashes the table name. The hash is Canal's: XOR of {@code
 * String.hashCode()} of each value's text (NULL as {@code ""}), optionally XOR the database name's
 * hash; the partition is {@code abs(h % n)}.
 *
 * <p>Where Canal sends every unmatched table to partition 0, Sluice applies {@link Unmatched}, by
 * default the primary key, so no misconfiguration piles everything into one partition. A table
 * without a primary key is hashed by its name: all its rows stay in one partition, in order.
 *
 * <p>Not thread-safe: each operator instance holds its own rules, which cache per table version.
 */
public final class PartitionRules implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final int MAX_CACHED_SCHEMAS = 4096;
    private static final String PK = "$pk$";

    /** What happens to tables no rule matches. */
    public enum Unmatched {
        /** Hash the primary key (Sluice's default). */
        PRIMARY_KEY("primary-key"),
        /** Hash the table name: one partition per table. */
        TABLE("table"),
        /** Partition 0, as Canal does. */
        ZERO("zero");

        private final String value;

        Unmatched(String value) {
            this.value = value;
        }

        /** The configuration value, which is also what Flink parses. */
        @Override
        public String toString() {
            return value;
        }
    }

    private final List<Rule> rules;
    private final boolean databaseHash;
    private final Unmatched unmatched;
    private final String option;
    private transient IdentityCache<TableSchema, KeyHasher> cache;

    private PartitionRules(
            List<Rule> rules, boolean databaseHash, Unmatched unmatched, String option) {
        this.rules = rules;
        this.databaseHash = databaseHash;
        this.unmatched = unmatched;
        this.option = option;
    }

    /**
     * @param partitionHash Canal's partitionHash, or null/empty for none
     * @param databaseHash whether column hashes start from the database name's hash (Canal's {@code
     *     canal.mq.database.hash}, true by default)
     * @param unmatched what tables no rule matches get
     * @param option the option name {@code partitionHash} came from, for error messages
     */
    public static PartitionRules create(
            String partitionHash, boolean databaseHash, Unmatched unmatched, String option) {
        List<Rule> rules = new ArrayList<>();
        for (String item : RuleList.items(partitionHash)) {
            rules.add(Rule.parse(item, option));
        }
        return new PartitionRules(rules, databaseHash, unmatched, option);
    }

    /** The hasher for one table version; column names are resolved once, here. */
    public KeyHasher hasherFor(TableSchema schema) {
        if (cache == null) {
            cache = new IdentityCache<>(MAX_CACHED_SCHEMAS, this::resolve);
        }
        return cache.get(schema);
    }

    /** Canal's partition of a hash: {@code abs(h % n)}. */
    public static int partition(int hash, int partitions) {
        return Math.abs(hash % partitions);
    }

    private KeyHasher resolve(TableSchema schema) {
        String qualified = schema.database() + '.' + schema.table();
        for (Rule rule : rules) {
            if (rule.pattern.matches(qualified)) {
                return rule.hasherFor(schema, databaseSeed(schema), option);
            }
        }
        switch (unmatched) {
            case ZERO:
                return KeyHasher.constant(0);
            case TABLE:
                return KeyHasher.constant(schema.table().hashCode());
            default:
                return primaryKey(schema, databaseSeed(schema));
        }
    }

    private int databaseSeed(TableSchema schema) {
        return databaseHash ? schema.database().hashCode() : 0;
    }

    private static KeyHasher primaryKey(TableSchema schema, int seed) {
        return schema.keyColumnCount() == 0
                ? KeyHasher.constant(schema.table().hashCode())
                : KeyHasher.columns(seed, schema.keyColumns());
    }

    /** One {@code pattern[:spec]} item. */
    private static final class Rule implements Serializable {
        private static final long serialVersionUID = 1L;

        private final String item;
        private final NamePattern pattern;

        /** Null: hash the table name. Empty: the primary key. Else these columns. */
        private final List<String> columns;

        private Rule(String item, NamePattern pattern, List<String> columns) {
            this.item = item;
            this.pattern = pattern;
            this.columns = columns;
        }

        static Rule parse(String item, String option) {
            int colon = item.lastIndexOf(':');
            if (colon < 0) {
                return new Rule(item, NamePattern.parse(item, option, item), null);
            }
            String name = item.substring(0, colon).trim();
            String spec = item.substring(colon + 1).trim();
            List<String> columns = new ArrayList<>();
            if (!spec.equalsIgnoreCase(PK)) {
                for (String column : spec.split("\\^", -1)) {
                    column = column.trim();
                    if (column.isEmpty()) {
                        throw new IllegalArgumentException(
                                String.format(
                                        "Option '%s' has an empty column name in '%s'",
                                        option, item));
                    }
                    columns.add(column);
                }
            }
            return new Rule(item, NamePattern.parse(name, option, item), columns);
        }

        KeyHasher hasherFor(TableSchema schema, int seed, String option) {
            if (columns == null) {
                return KeyHasher.constant(schema.table().hashCode());
            }
            if (columns.isEmpty()) {
                return primaryKey(schema, seed);
            }
            int[] indexes = new int[columns.size()];
            for (int c = 0; c < indexes.length; c++) {
                indexes[c] = indexOf(schema, columns.get(c), option);
            }
            return KeyHasher.columns(seed, indexes);
        }

        private int indexOf(TableSchema schema, String column, String option) {
            for (int i = 0; i < schema.columnCount(); i++) {
                if (schema.name(i).equalsIgnoreCase(column)) {
                    return i;
                }
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' rule '%s' hashes column '%s', but %s.%s has no such"
                                    + " column (it has %s)",
                            option,
                            item,
                            column,
                            schema.database(),
                            schema.table(),
                            columnNames(schema)));
        }

        private static String columnNames(TableSchema schema) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < schema.columnCount(); i++) {
                names.add(schema.name(i).toLowerCase(Locale.ROOT));
            }
            return names.toString();
        }
    }
}

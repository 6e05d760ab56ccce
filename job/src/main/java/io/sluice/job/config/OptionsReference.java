package io.sluice.job.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.util.TimeUtils;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Writes {@code docs/options.md}, the options reference: every option of every {@code *Options}
 * class, with its type, default and description, and its key in each door: the YAML file and {@code
 * --set} (the section's prefix before the option's key, {@link JobConfigLoader}) and a Flink SQL
 * {@code WITH} clause (the option's own key, where a Sluice table or catalog takes it). Run by
 * {@code ./sluice options}; {@code OptionsReferenceTest} fails when the file is out of date.
 */
@Internal
public final class OptionsReference {

    /** Section titles, in the order the reference lists them; other classes follow by name. */
    private static final Map<String, String> TITLES = new LinkedHashMap<>();

    static {
        TITLES.put("JobOptions", "Job and parallelism");
        TITLES.put("MySqlSourceOptions", "Source: the MySQL or MariaDB binlog");
        TITLES.put("FilterOptions", "Filters");
        TITLES.put("RouteOptions", "Topics");
        TITLES.put("PartitionOptions", "Partitions");
        TITLES.put("EncodeOptions", "Message format");
        TITLES.put("SinkOptions", "Sink");
        TITLES.put("LargeMessageOptions", "Large messages");
        TITLES.put("KafkaSinkOptions", "Kafka sink");
        TITLES.put("RocketMqSinkOptions", "RocketMQ sink");
        TITLES.put("SinkTableOptions", "SQL sink tables");
        TITLES.put("SluiceCatalogOptions", "SQL catalog");
    }

    private static final String NONE = "—";

    private final Map<Class<?>, List<ConfigOption<?>>> classes;
    private final Map<String, ConfigOption<?>> yamlKeys;
    // By identity: Flink's ConfigOption.equals holds for two options of one key and default (the
    // Kafka and RocketMQ 'delivery-guarantee'), which are different options of different tables.
    private final Map<ConfigOption<?>, Set<String>> sqlTables = new IdentityHashMap<>();
    private final Map<ConfigOption<?>, Set<String>> sqlRequired = new IdentityHashMap<>();

    private OptionsReference(ClassLoader loader) {
        this.classes = OptionClasses.find(loader);
        this.yamlKeys = JobConfigLoader.knownOptions();
        for (Factory factory : ServiceLoader.load(Factory.class, loader)) {
            if (!factory.getClass().getName().startsWith("io.sluice.")) {
                continue;
            }
            String name =
                    factory instanceof CatalogFactory
                            ? "the `" + factory.factoryIdentifier() + "` catalog"
                            : "`" + factory.factoryIdentifier() + "`";
            for (ConfigOption<?> option : factory.requiredOptions()) {
                sqlTables.computeIfAbsent(option, o -> new LinkedHashSet<>()).add(name);
                sqlRequired.computeIfAbsent(option, o -> new LinkedHashSet<>()).add(name);
            }
            for (ConfigOption<?> option : factory.optionalOptions()) {
                sqlTables.computeIfAbsent(option, o -> new LinkedHashSet<>()).add(name);
            }
        }
    }

    /** The reference as the options on {@code loader}'s class path have it. */
    public static String render(ClassLoader loader) {
        return new OptionsReference(loader).render();
    }

    /** Writes the reference to the file named by {@code args[0]}, e.g. {@code docs/options.md}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: OptionsReference <docs/options.md>");
        }
        Path out = Path.of(args[0]);
        Files.writeString(
                out, render(OptionsReference.class.getClassLoader()), StandardCharsets.UTF_8);
        System.out.println("Wrote " + out.toAbsolutePath());
    }

    private String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Options reference\n\n")
                .append("<!-- Generated from the options' declarations by ./sluice options;")
                .append(" edit the descriptions in the code, not here. -->\n\n")
                .append("Every setting Sluice has, with its type, default and meaning. The same")
                .append(" option is spelled in two ways, one for each way of running Sluice:\n\n")
                .append("- **YAML / `--set`** (`SluiceJob`, `./sluice validate`): the key in")
                .append(" `conf/sluice.yaml`, nested or dotted, or `--set key=value`. Values may")
                .append(" be `${env:NAME}`.\n")
                .append("- **SQL**: the key in the `WITH` clause of a Sluice table or catalog")
                .append(" ([sql.md](sql.md)), where that door takes the option.\n\n")
                .append("A dash means the option has no spelling in that door. Lists are written")
                .append(" `a;b;c` (or as a YAML list), durations as `10 s`, `5 min`, `1 h`.");
        for (String prefix : JobConfigLoader.PASS_THROUGH_PREFIXES) {
            md.append(" Keys under `")
                    .append(prefix)
                    .append("` are handed to the client as they are.");
        }
        md.append("\n");
        List<ConfigOption<?>> listed = new ArrayList<>();
        for (Map.Entry<Class<?>, List<ConfigOption<?>>> section : sections()) {
            md.append("\n## ").append(title(section.getKey())).append("\n\n");
            table(md, section.getValue());
            listed.addAll(section.getValue());
        }
        List<ConfigOption<?>> others = new ArrayList<>();
        yamlKeys.values().stream().filter(o -> !contains(listed, o)).forEach(others::add);
        sqlTables.keySet().stream()
                .filter(o -> !contains(listed, o) && !contains(others, o))
                .sorted(Comparator.comparing(ConfigOption::key))
                .forEach(others::add);
        if (!others.isEmpty()) {
            md.append("\n## Flink's own options the SQL door takes\n\n");
            table(md, others);
        }
        return md.toString();
    }

    private List<Map.Entry<Class<?>, List<ConfigOption<?>>>> sections() {
        List<String> order = new ArrayList<>(TITLES.keySet());
        return classes.entrySet().stream()
                .sorted(
                        Comparator.comparing(
                                        (Map.Entry<Class<?>, List<ConfigOption<?>>> e) -> {
                                            int at = order.indexOf(e.getKey().getSimpleName());
                                            return at < 0 ? order.size() : at;
                                        })
                                .thenComparing(e -> e.getKey().getName()))
                .collect(Collectors.toList());
    }

    private static String title(Class<?> holder) {
        String name = holder.getSimpleName();
        String title = TITLES.get(name);
        if (title != null) {
            return title;
        }
        return name.replaceAll("Options$", "").replaceAll("([a-z])([A-Z])", "$1 $2");
    }

    private void table(StringBuilder md, List<ConfigOption<?>> options) {
        md.append("| YAML / `--set` key | SQL key | Type | Default | Description |\n")
                .append("|---|---|---|---|---|\n");
        for (ConfigOption<?> option : options) {
            md.append("| ")
                    .append(yamlKeys(option))
                    .append(" | ")
                    .append(sqlKey(option))
                    .append(" | ")
                    .append(type(option))
                    .append(" | ")
                    .append(defaultValue(option))
                    .append(" | ")
                    .append(cell(description(option)))
                    .append(" |\n");
        }
    }

    private String yamlKeys(ConfigOption<?> option) {
        List<String> keys =
                yamlKeys.entrySet().stream()
                        .filter(e -> e.getValue() == option)
                        .map(e -> "`" + e.getKey() + "`")
                        .collect(Collectors.toList());
        return keys.isEmpty() ? NONE : String.join("<br>", keys);
    }

    private String sqlKey(ConfigOption<?> option) {
        Set<String> tables = sqlTables.get(option);
        if (tables == null) {
            return NONE;
        }
        StringBuilder cell = new StringBuilder("`").append(option.key()).append("` (");
        cell.append(String.join(", ", tables)).append(")");
        Set<String> required = sqlRequired.get(option);
        if (required != null) {
            cell.append("; required in ").append(String.join(", ", required));
        }
        return cell.toString();
    }

    /** The option's value type, as Flink names it. */
    static String type(ConfigOption<?> option) {
        Class<?> clazz = clazz(option);
        String name = clazz.isEnum() ? "Enum" : clazz.getSimpleName();
        return isList(option) ? "List<" + name + ">" : name;
    }

    private static String defaultValue(ConfigOption<?> option) {
        if (!option.hasDefaultValue()) {
            return "none";
        }
        String value = shown(option.defaultValue());
        return value.isEmpty() ? "empty" : "`" + cell(value) + "`";
    }

    private static String shown(Object value) {
        if (value instanceof Duration) {
            return TimeUtils.formatWithHighestUnit((Duration) value);
        }
        if (value instanceof List) {
            return ((List<?>) value)
                    .stream().map(OptionsReference::shown).collect(Collectors.joining(";"));
        }
        if (value instanceof Map) {
            return new TreeMap<>((Map<?, ?>) value)
                    .entrySet().stream()
                            .map(e -> e.getKey() + ":" + e.getValue())
                            .collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    /** The description as text; with the values an enum option takes. */
    static String description(ConfigOption<?> option) {
        String text = new PlainText().format(option.description()).trim();
        Class<?> clazz = clazz(option);
        if (clazz.isEnum()) {
            text +=
                    (text.isEmpty() ? "" : " ")
                            + "One of: "
                            + Arrays.stream(clazz.getEnumConstants())
                                    .map(value -> "`" + value + "`")
                                    .collect(Collectors.joining(", "))
                            + ".";
        }
        return text;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", "<br>");
    }

    private static boolean contains(List<ConfigOption<?>> options, ConfigOption<?> option) {
        return options.stream().anyMatch(o -> o == option);
    }

    // Flink keeps an option's value class to itself (package-private); its own docs generator
    // reads it the same way.
    private static Class<?> clazz(ConfigOption<?> option) {
        return (Class<?>) invoke(option, "getClazz");
    }

    private static boolean isList(ConfigOption<?> option) {
        return (Boolean) invoke(option, "isList");
    }

    private static Object invoke(ConfigOption<?> option, String method) {
        try {
            Method getter = ConfigOption.class.getDeclaredMethod(method);
            getter.setAccessible(true);
            return getter.invoke(option);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "Cannot read the type of option '" + option.key() + "'", e);
        }
    }

    /** A description as plain Markdown text. */
    private static final class PlainText extends Formatter {

        @Override
        protected void formatLink(StringBuilder state, String link, String description) {
            state.append('[').append(description).append("](").append(link).append(')');
        }

        @Override
        protected void formatLineBreak(StringBuilder state) {
            state.append('\n');
        }

        @Override
        protected void formatText(
                StringBuilder state,
                String format,
                String[] elements,
                EnumSet<TextElement.TextStyle> styles) {
            String text = format;
            for (String element : elements) {
                text = text.replaceFirst("%s", java.util.regex.Matcher.quoteReplacement(element));
            }
            text = text.replace("%%", "%");
            state.append(styles.contains(TextElement.TextStyle.CODE) ? "`" + text + "`" : text);
        }

        @Override
        protected void formatList(StringBuilder state, String[] entries) {
            state.append(String.join("; ", entries));
        }

        @Override
        protected Formatter newInstance() {
            return new PlainText();
        }
    }
}

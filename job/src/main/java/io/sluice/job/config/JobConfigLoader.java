package io.sluice.job.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.job.config.internal.RenamedKeys;
import io.sluice.job.config.internal.Secrets;
import io.sluice.job.config.internal.YamlText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Loads Sluice's configuration: a YAML file ({@code --config conf/sluice.yaml}, nested keys joined
 * with dots) overridden by {@code --set key=value} arguments. Values may name environment variables
 * as {@code ${env:NAME}}, so secrets stay out of files. Every key is checked against the known
 * typed options, each the section's prefix ({@code source.}, {@code sink.kafka.}, ...) before the
 * option's own key, or a pass-through prefix; every value against its type before any job is built;
 * errors name the key, the rule and the value. Keys renamed in this release still work, with a
 * warning ({@link RenamedKeys}).
 */
@Internal
public final class JobConfigLoader {

    /** Keys under these prefixes are handed to clients as they are. */
    public static final List<String> PASS_THROUGH_PREFIXES =
            List.of(PipelineSections.KAFKA + KafkaSinkOptions.PROPERTIES_PREFIX);

    private static final Logger LOG = LoggerFactory.getLogger(JobConfigLoader.class);
    private static final Map<String, ConfigOption<?>> KNOWN = new TreeMap<>();
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
    private static final String ENV_START = "${env:";

    static {
        register(
                JobOptions.JOB,
                JobOptions.NAME,
                JobOptions.CHECKPOINT_INTERVAL,
                JobOptions.CHECKPOINT_STORAGE);
        register(
                JobOptions.PARALLELISM,
                JobOptions.SOURCE_PARALLELISM,
                JobOptions.ROUTE_PARALLELISM,
                JobOptions.ENCODE_PARALLELISM,
                JobOptions.SINK_PARALLELISM);
        register(PipelineSections.SOURCE, MySqlSourceOptions.class);
        register(PipelineSections.SINK, SinkOptions.class);
        register(PipelineSections.SINK, LargeMessageOptions.class);
        register(PipelineSections.KAFKA, KafkaSinkOptions.class);
        register(PipelineSections.ROCKETMQ, RocketMqSinkOptions.class);
        register(PipelineSections.ENCODE, EncodeOptions.class);
        register(PipelineSections.ROUTE, RouteOptions.class);
        register(PipelineSections.ROUTE, PartitionOptions.class);
        register(PipelineSections.FILTER, FilterOptions.class);
    }

    private JobConfigLoader() {}

    /** Loads from the process environment. */
    public static Configuration fromArgs(String... args) {
        return fromArgs(System.getenv(), args);
    }

    /** Loads with {@code env} standing in for the environment variables. */
    public static Configuration fromArgs(Map<String, String> env, String... args) {
        String file = null;
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length || !("--set".equals(flag) || "--config".equals(flag))) {
                throw new IllegalArgumentException(
                        "Arguments take the form '--config file.yaml' and '--set key=value',"
                                + " but got '"
                                + Secrets.shownAssignment(flag)
                                + "'");
            }
            String value = args[++i];
            if ("--config".equals(flag)) {
                if (file != null) {
                    throw new IllegalArgumentException("'--config' is given twice");
                }
                file = value;
            } else {
                int eq = value.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(
                            "'--set' takes 'key=value', but got '" + value + "'");
                }
                overrides.put(value.substring(0, eq).trim(), value.substring(eq + 1).trim());
            }
        }
        Map<String, String> raw = new LinkedHashMap<>();
        if (file != null) {
            raw.putAll(RenamedKeys.apply(readYaml(file)));
        }
        raw.putAll(RenamedKeys.apply(overrides));
        Configuration config = new Configuration();
        raw.forEach((key, value) -> set(config, key, resolveEnv(key, value, env)));
        return config;
    }

    /**
     * {@code path} as given, or, when it is relative and not found from the working dir, beside the
     * job jar: in application mode the jar, {@code conf/} and {@code sql/} share {@code
     * /opt/flink/usrlib}, while the JobManager's working dir is elsewhere.
     */
    public static Path besideJar(String path) {
        return besideJar(path, jarDir());
    }

    static Path besideJar(String path, Optional<Path> jarDir) {
        Path given = Path.of(path);
        if (given.isAbsolute() || Files.exists(given) || jarDir.isEmpty()) {
            return given;
        }
        Path beside = jarDir.get().resolve(path);
        return Files.exists(beside) ? beside : given;
    }

    /** The folder of the jar (or classes folder) this class was loaded from. */
    private static Optional<Path> jarDir() {
        CodeSource source = JobConfigLoader.class.getProtectionDomain().getCodeSource();
        return source == null ? Optional.empty() : dirOf(source.getLocation());
    }

    /**
     * The folder of a jar or classes folder. Application mode loads {@code usrlib/} through
     * relative URLs ({@code file:usrlib/sluice-job.jar}, relative to the working dir), which {@code
     * Path.of(URI)} refuses.
     */
    static Optional<Path> dirOf(URL location) {
        if (location == null || !"file".equals(location.getProtocol())) {
            return Optional.empty(); // Not from a file: nothing lies beside it.
        }
        try {
            URI uri = location.toURI();
            Path path =
                    uri.isOpaque()
                            ? Path.of(uri.getSchemeSpecificPart()).toAbsolutePath()
                            : Path.of(uri);
            return Optional.ofNullable(Files.isDirectory(path) ? path : path.getParent());
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Map<String, String> readYaml(String path) {
        File file = besideJar(path).toFile();
        if (!file.isFile()) {
            throw new IllegalArgumentException(
                    "The configuration file '"
                            + path
                            + "' does not exist or is not a file (looked in "
                            + Path.of("").toAbsolutePath()
                            + jarDir().map(dir -> " and beside the job jar in " + dir).orElse("")
                            + ")");
        }
        Map<?, ?> yaml;
        try {
            yaml = YamlText.load(file.toPath());
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "The configuration file '" + path + "' is not valid YAML: " + e.getMessage(),
                    e);
        }
        Map<String, String> flat = new LinkedHashMap<>();
        flatten("", yaml == null ? Map.of() : yaml, flat, path);
        return flat;
    }

    private static void flatten(
            String prefix, Map<?, ?> node, Map<String, String> out, String path) {
        for (Map.Entry<?, ?> entry : node.entrySet()) {
            String key = prefix + entry.getKey();
            Object value = entry.getValue();
            if (value instanceof Map) {
                flatten(key + ".", (Map<?, ?>) value, out, path);
            } else if (value instanceof List) {
                out.put(
                        key,
                        ((List<?>) value)
                                .stream().map(String::valueOf).collect(Collectors.joining(";")));
            } else if (value == null) {
                throw new IllegalArgumentException(
                        "Option '" + key + "' in '" + path + "' has no value");
            } else {
                out.put(key, String.valueOf(value));
            }
        }
    }

    private static String resolveEnv(String key, String value, Map<String, String> env) {
        Matcher matcher = ENV.matcher(value);
        StringBuilder out = new StringBuilder();
        int references = 0;
        while (matcher.find()) {
            references++;
            String name = matcher.group(1);
            String resolved = env.get(name);
            if (resolved == null) {
                throw new IllegalArgumentException(
                        "Option '"
                                + key
                                + "' refers to the environment variable '"
                                + name
                                + "', which is not set");
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(resolved));
        }
        matcher.appendTail(out);
        // A reference that did not match (no closing brace, a bad name) is never a literal value.
        if (occurrences(value, ENV_START) != references) {
            throw new IllegalArgumentException(
                    "Option '"
                            + key
                            + "' has a '"
                            + ENV_START
                            + "' reference that is not of the form '${env:NAME}' (a closing '}'"
                            + " and a name of letters, digits and '_')");
        }
        return out.toString();
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    private static void set(Configuration config, String key, String value) {
        for (String prefix : PASS_THROUGH_PREFIXES) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                config.setString(key, value);
                return;
            }
        }
        ConfigOption<?> option = KNOWN.get(key);
        if (option == null) {
            throw new IllegalArgumentException(
                    "Unknown option '"
                            + key
                            + "'. Known options: "
                            + KNOWN.keySet()
                            + ", and any key under "
                            + PASS_THROUGH_PREFIXES);
        }
        config.setString(key, value);
        try {
            parse(option, value);
        } catch (IllegalArgumentException e) {
            if (acceptedAsKebabCase(config, key, option, value)) {
                return;
            }
            // Never echo what may be a secret.
            throw new IllegalArgumentException(
                    "Option '"
                            + key
                            + "' cannot take the value '"
                            + Secrets.shown(key, value)
                            + "': "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Enum values were once written in upper snake case ({@code PRIMARY_KEY}); such a value keeps
     * working for one release as its kebab-case form, with a warning naming the new value.
     */
    private static boolean acceptedAsKebabCase(
            Configuration config, String key, ConfigOption<?> option, String value) {
        String kebab = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        if (!value.contains("_")) {
            return false;
        }
        try {
            parse(option, kebab);
        } catch (IllegalArgumentException stillBad) {
            return false;
        }
        config.setString(key, kebab);
        LOG.warn(
                "Option '{}': the value '{}' is deprecated and will stop working in the next"
                        + " release; write '{}'.",
                key,
                value,
                kebab);
        return true;
    }

    /** Reads {@code value} as {@code option} reads it; fails as it fails. */
    private static void parse(ConfigOption<?> option, String value) {
        Configuration probe = new Configuration();
        probe.setString(option.key(), value);
        probe.get(option);
    }

    /** The options of {@code holder}, each read under {@code prefix}. */
    private static void register(String prefix, Class<?> holder) {
        for (Field field : holder.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && ConfigOption.class.isAssignableFrom(field.getType())) {
                try {
                    register(prefix, (ConfigOption<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("Cannot read option " + field, e);
                }
            }
        }
    }

    private static void register(String prefix, ConfigOption<?>... options) {
        for (ConfigOption<?> option : options) {
            ConfigOption<?> clash = KNOWN.put(prefix + option.key(), option);
            if (clash != null && clash != option) {
                throw new IllegalStateException(
                        "Two options have the key " + prefix + option.key());
            }
        }
    }

    /** Every option's YAML key, for docs and tests. */
    public static Set<String> knownKeys() {
        return Collections.unmodifiableSet(KNOWN.keySet());
    }

    /** Every option by its YAML key, for the options reference. */
    static Map<String, ConfigOption<?>> knownOptions() {
        return Collections.unmodifiableMap(KNOWN);
    }
}

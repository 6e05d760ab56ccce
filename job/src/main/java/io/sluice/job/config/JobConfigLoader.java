package io.sluice.job.config;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.source.MySqlSourceOptions;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns command-line arguments ({@code --set key=value}, repeatable) into a {@link Configuration}
 * of known, typed options. An unknown key or a value of the wrong type fails before any job is
 * built, naming the key, the rule and the value.
 */
@Internal
public final class JobConfigLoader {

    private static final Map<String, ConfigOption<?>> KNOWN = new TreeMap<>();

    static {
        register(JobOptions.class);
        register(MySqlSourceOptions.class);
        register(KafkaSinkOptions.class);
    }

    private JobConfigLoader() {}

    public static Configuration fromArgs(String... args) {
        Configuration config = new Configuration();
        for (int i = 0; i < args.length; i++) {
            if (!"--set".equals(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        "Arguments take the form '--set key=value', but got '" + args[i] + "'");
            }
            set(config, args[++i]);
        }
        return config;
    }

    private static void set(Configuration config, String assignment) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException(
                    "'--set' takes 'key=value', but got '" + assignment + "'");
        }
        String key = assignment.substring(0, eq).trim();
        String value = assignment.substring(eq + 1).trim();
        ConfigOption<?> option = KNOWN.get(key);
        if (option == null) {
            throw new IllegalArgumentException(
                    "Unknown option '" + key + "'. Known options: " + KNOWN.keySet());
        }
        config.setString(key, value);
        try {
            config.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Option '" + key + "' cannot take the value '" + value + "': " + e.getMessage(),
                    e);
        }
    }

    private static void register(Class<?> holder) {
        for (Field field : holder.getFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && ConfigOption.class.isAssignableFrom(field.getType())) {
                try {
                    ConfigOption<?> option = (ConfigOption<?>) field.get(null);
                    KNOWN.put(option.key(), option);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("Cannot read option " + field, e);
                }
            }
        }
    }
}

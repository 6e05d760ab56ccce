package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps a SQL table's options onto the YAML pipeline's keys, so the SQL connectors build their
 * source and sink with the very factories (and checks) the pipeline uses. Errors those checks raise
 * name the YAML key; {@link #failure} names the table and the SQL key instead.
 */
@Internal
public final class OptionTranslation {

    private final Map<String, String> sqlToYaml = new LinkedHashMap<>();
    private final Map<String, String> prefixes = new LinkedHashMap<>();

    /** Maps {@code sql} onto {@code yaml}. */
    public OptionTranslation map(ConfigOption<?> sql, ConfigOption<?> yaml) {
        sqlToYaml.put(sql.key(), yaml.key());
        return this;
    }

    /** Maps every key under {@code sqlPrefix} onto {@code yamlPrefix}. */
    public OptionTranslation mapPrefix(String sqlPrefix, String yamlPrefix) {
        prefixes.put(sqlPrefix, yamlPrefix);
        return this;
    }

    /** The pipeline configuration that a table's (already validated) options describe. */
    public Configuration toPipelineConfig(Map<String, String> tableOptions) {
        Configuration config = new Configuration();
        tableOptions.forEach(
                (key, value) -> {
                    String yaml = sqlToYaml.get(key);
                    if (yaml != null) {
                        config.setString(yaml, value);
                        return;
                    }
                    prefixes.forEach(
                            (sqlPrefix, yamlPrefix) -> {
                                if (key.startsWith(sqlPrefix)) {
                                    config.setString(
                                            yamlPrefix + key.substring(sqlPrefix.length()), value);
                                }
                            });
                });
        return config;
    }

    /**
     * The error a bad value raises, with the table named and each YAML key in the message replaced
     * by its SQL key.
     */
    public ValidationException failure(
            ObjectIdentifier table, String connector, RuntimeException cause) {
        String message = String.valueOf(cause.getMessage());
        for (Map.Entry<String, String> e : sqlToYaml.entrySet()) {
            message = message.replace("'" + e.getValue() + "'", "'" + e.getKey() + "'");
        }
        return new ValidationException(
                String.format(
                        "Invalid options of table '%s' ('connector' = '%s'): %s",
                        table.asSummaryString(), connector, message),
                cause);
    }
}

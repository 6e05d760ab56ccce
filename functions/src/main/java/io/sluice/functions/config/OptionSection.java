package io.sluice.functions.config;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DelegatingConfiguration;
import org.apache.flink.configuration.ReadableConfig;

import java.util.Map;
import java.util.Optional;

/**
 * One section of options, read by the options' own keys (declared once, without a section prefix)
 * and named in errors as the user wrote them: in the YAML door a section of the job's configuration
 * read through Flink's {@link DelegatingConfiguration} (prefix {@code source.}, {@code
 * sink.kafka.}, ...), in the SQL door a table's {@code WITH} options (no prefix).
 */
@PublicEvolving
public final class OptionSection {

    private final ReadableConfig options;
    private final String prefix;

    private OptionSection(ReadableConfig options, String prefix) {
        this.options = options;
        this.prefix = prefix;
    }

    /** The keys of {@code whole} under {@code prefix} (e.g. {@code "source."}), prefix cut off. */
    public static OptionSection of(ReadableConfig whole, String prefix) {
        Configuration config =
                whole instanceof Configuration
                        ? (Configuration) whole
                        : Configuration.fromMap(whole.toMap());
        return new OptionSection(new DelegatingConfiguration(config, prefix), prefix);
    }

    /** Options written without a prefix, as a SQL table's {@code WITH} clause has them. */
    public static OptionSection unprefixed(ReadableConfig options) {
        return new OptionSection(options, "");
    }

    /** The key of {@code option} as the user writes it here, e.g. {@code source.hostname}. */
    public String key(ConfigOption<?> option) {
        return prefix + option.key();
    }

    /** What is written before each option's key here: {@code "source."}, or {@code ""} in SQL. */
    public String prefix() {
        return prefix;
    }

    public <T> T get(ConfigOption<T> option) {
        return options.get(option);
    }

    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        return options.getOptional(option);
    }

    /** Every key of the section, without the prefix. */
    public Map<String, String> toMap() {
        return options.toMap();
    }
}

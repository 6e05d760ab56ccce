package io.sluice.functions.encode.internal;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupSettingsTest {

    @Test
    void noneByDefault() {
        assertThat(GroupSettings.from(encode(new Configuration()))).isNull();
    }

    @Test
    void eventWithDefaults() {
        GroupSettings settings = GroupSettings.from(encode(config("encode.group-rows", "event")));
        assertThat(settings.maxBytes()).isEqualTo(1024 * 1024);
        assertThat(settings.idleFlushMillis()).isEqualTo(20);
    }

    @Test
    void badValuesNameTheOptionTheRuleAndTheValue() {
        Configuration small = config("encode.group-rows", "event");
        small.setString("encode.group-rows.max-bytes", "100b");
        assertThatThrownBy(() -> GroupSettings.from(encode(small)))
                .hasMessage(
                        "Option 'encode.group-rows.max-bytes' must be at least 1 kb, but is 100"
                                + " bytes");
        Configuration slow = config("encode.group-rows", "event");
        slow.setString("encode.group-rows.idle-flush", "1min");
        assertThatThrownBy(() -> GroupSettings.from(encode(slow)))
                .hasMessage(
                        "Option 'encode.group-rows.idle-flush' must be between 1 ms and 10 s, but"
                                + " is 1 min");
        assertThatThrownBy(() -> GroupSettings.from(encode(config("encode.group-rows", "rows"))))
                .hasMessageContaining("encode.group-rows")
                .hasMessageContaining("rows");
    }

    /** The YAML door's encode section: errors name the full keys. */
    private static OptionSection encode(Configuration config) {
        return OptionSection.of(config, "encode.");
    }

    private static Configuration config(String key, String value) {
        Configuration config = new Configuration();
        config.setString(key, value);
        return config;
    }
}

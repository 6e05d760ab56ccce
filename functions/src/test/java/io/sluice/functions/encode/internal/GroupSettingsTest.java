package io.sluice.functions.encode.internal;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupSettingsTest {

    @Test
    void noneByDefault() {
        assertThat(GroupSettings.from(new Configuration())).isNull();
    }

    @Test
    void eventWithDefaults() {
        GroupSettings settings = GroupSettings.from(config("format.group-rows", "event"));
        assertThat(settings.maxBytes()).isEqualTo(1024 * 1024);
        assertThat(settings.idleFlushMillis()).isEqualTo(20);
    }

    @Test
    void badValuesNameTheOptionTheRuleAndTheValue() {
        Configuration small = config("format.group-rows", "event");
        small.setString("format.group-rows.max-bytes", "100b");
        assertThatThrownBy(() -> GroupSettings.from(small))
                .hasMessage(
                        "Option 'format.group-rows.max-bytes' must be at least 1 kb, but is 100"
                                + " bytes");
        Configuration slow = config("format.group-rows", "event");
        slow.setString("format.group-rows.idle-flush", "1min");
        assertThatThrownBy(() -> GroupSettings.from(slow))
                .hasMessage(
                        "Option 'format.group-rows.idle-flush' must be between 1 ms and 10 s, but"
                                + " is 1 min");
        assertThatThrownBy(() -> GroupSettings.from(config("format.group-rows", "rows")))
                .hasMessageContaining("format.group-rows")
                .hasMessageContaining("rows");
    }

    private static Configuration config(String key, String value) {
        Configuration config = new Configuration();
        config.setString(key, value);
        return config;
    }
}

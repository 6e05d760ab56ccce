package io.sluice.functions.encode;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.serializers.debezium.DebeziumJsonSettings;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DebeziumJsonOptionsTest {

    @Test
    void debeziumsDefaultsAndTheSourcesTimestampZone() {
        Configuration config = new Configuration();
        config.setString("encode.format", "debezium-json");
        config.setString("source.timestamp-time-zone", "Asia/Shanghai");
        PipelineSections sections = PipelineSections.of(config);

        DebeziumJsonSettings settings = settings(sections);

        assertThat(settings.topicPrefix()).isEqualTo("sluice");
        assertThat(settings.schemas()).isTrue();
        assertThat(settings.tombstones()).isTrue();
        assertThat(settings.timestampZone()).isEqualTo(ZoneId.of("Asia/Shanghai"));
        assertThat(
                        DebeziumJsonOptions.settings(
                                MessageFormat.CANAL_FLAT, sections.encode(), sections.source()))
                .isNull();
    }

    @Test
    void refusalsNameTheOptionAndTheRule() {
        Configuration grouped = new Configuration();
        grouped.setString("encode.format", "debezium-json");
        grouped.setString("encode.group-rows", "event");
        PipelineSections groupedSections = PipelineSections.of(grouped);
        assertThatThrownBy(
                        () ->
                                DebeziumJsonOptions.checkSink(
                                        settings(groupedSections),
                                        GroupSettings.from(groupedSections.encode()),
                                        groupedSections))
                .hasMessage(
                        "Option 'encode.group-rows' is 'event', but format 'debezium-json' writes"
                                + " one row per message, as Debezium: set it to 'none'");

        Configuration rocketMq = new Configuration();
        rocketMq.setString("encode.format", "debezium-json");
        rocketMq.setString("sink.type", "rocketmq");
        PipelineSections rocketMqSections = PipelineSections.of(rocketMq);
        assertThatThrownBy(
                        () ->
                                DebeziumJsonOptions.checkSink(
                                        settings(rocketMqSections), null, rocketMqSections))
                .hasMessage(
                        "Option 'encode.format.debezium.tombstones' is true, but RocketMQ has no"
                                + " tombstones (a message needs a body): set it to false for sink"
                                + " type 'rocketmq'");
        rocketMq.setString("encode.format.debezium.tombstones", "false");
        DebeziumJsonOptions.checkSink(
                settings(PipelineSections.of(rocketMq)), null, PipelineSections.of(rocketMq));

        Configuration blank = new Configuration();
        blank.setString("encode.format.debezium.topic-prefix", " ");
        assertThatThrownBy(() -> settings(PipelineSections.of(blank)))
                .hasMessage(
                        "Option 'encode.format.debezium.topic-prefix' names Debezium's logical"
                                + " server and must not be blank, but is ' '");
    }

    private static DebeziumJsonSettings settings(PipelineSections sections) {
        return DebeziumJsonOptions.settings(
                MessageFormat.DEBEZIUM_JSON, sections.encode(), sections.source());
    }
}

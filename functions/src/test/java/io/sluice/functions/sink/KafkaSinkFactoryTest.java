package io.sluice.functions.sink;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The producer properties the Kafka sink is built with. */
class KafkaSinkFactoryTest {

    @Test
    void withoutClientPropertiesTheProducerGetsSluicesThroughputDefaults() {
        Map<String, String> properties = KafkaSinkFactory.producerProperties(new Configuration());

        assertThat(properties)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "batch.size", "262144",
                                "linger.ms", "5",
                                "compression.type", "lz4"));
    }

    @Test
    void clientPropertiesWinOverTheDefaultsAndPassThrough() {
        Configuration config = new Configuration();
        config.setString("sink.properties.compression.type", "none");
        config.setString("sink.properties.linger.ms", "20");
        config.setString("sink.properties.max.request.size", "4194304");
        config.setString("sink.kafka.bootstrap-servers", "127.0.0.1:9092");

        Map<String, String> properties = KafkaSinkFactory.producerProperties(config);

        assertThat(properties)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "batch.size", "262144",
                                "linger.ms", "20",
                                "compression.type", "none",
                                "max.request.size", "4194304"));
    }
}

package io.sluice.functions.sink;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The settings each Kafka client of a job gets. */
class KafkaClientPropertiesTest {

    private static final String JAAS =
            "org.apache.kafka.common.security.plain.PlainLoginModule required"
                    + " username=\"sluice\" password=\"secret\";";

    @Test
    void withoutClientPropertiesTheProducerGetsSluicesThroughputDefaults() {
        Configuration config = new Configuration();
        config.setString("sink.kafka.bootstrap-servers", "127.0.0.1:9092");

        Map<String, String> properties =
                KafkaClientProperties.producer(OptionSection.of(config, "sink.kafka."));

        assertThat(properties)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "bootstrap.servers", "127.0.0.1:9092",
                                "batch.size", "262144",
                                "linger.ms", "5",
                                "compression.type", "lz4"));
    }

    @Test
    void clientPropertiesWinOverTheDefaultsAndPassThrough() {
        Configuration config = new Configuration();
        config.setString("sink.kafka.properties.compression.type", "none");
        config.setString("sink.kafka.properties.linger.ms", "20");
        config.setString("sink.kafka.properties.max.request.size", "4194304");
        config.setString("sink.kafka.bootstrap-servers", "127.0.0.1:9092");

        Map<String, String> properties =
                KafkaClientProperties.producer(OptionSection.of(config, "sink.kafka."));

        assertThat(properties)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "bootstrap.servers", "127.0.0.1:9092",
                                "batch.size", "262144",
                                "linger.ms", "20",
                                "compression.type", "none",
                                "max.request.size", "4194304"));
    }

    @Test
    void adminsAndConsumersGetTheConnectionSecurityAndIdentityButNoProducerSettings() {
        Configuration config = secured();

        Properties common = KafkaClientProperties.common(config);

        assertThat(common)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "bootstrap.servers", "kafka-1:9093,kafka-2:9093",
                                "security.protocol", "SASL_SSL",
                                "sasl.mechanism", "PLAIN",
                                "sasl.jaas.config", JAAS,
                                "ssl.truststore.location", "/etc/kafka/truststore.jks",
                                "ssl.truststore.password", "changeit",
                                "client.id", "sluice-shop",
                                "request.timeout.ms", "40000"));
        assertThat(KafkaClientProperties.producer(OptionSection.of(config, "sink.kafka.")))
                .containsAllEntriesOf(toMap(common));
    }

    @Test
    void theBootstrapServersOptionWinsOverAPassThroughKey() {
        Configuration config = secured();
        config.setString("sink.kafka.properties.bootstrap.servers", "elsewhere:9092");

        assertThat(KafkaClientProperties.common(config))
                .containsEntry("bootstrap.servers", "kafka-1:9093,kafka-2:9093");
        assertThat(KafkaClientProperties.producer(OptionSection.of(config, "sink.kafka.")))
                .containsEntry("bootstrap.servers", "kafka-1:9093,kafka-2:9093");
    }

    @Test
    void missingBootstrapServersAreNamed() {
        assertThatThrownBy(() -> KafkaClientProperties.common(new Configuration()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Option 'sink.kafka.bootstrap-servers' is required but missing");
    }

    private static Configuration secured() {
        Configuration config = new Configuration();
        config.setString("sink.kafka.bootstrap-servers", "kafka-1:9093,kafka-2:9093");
        config.setString("sink.kafka.properties.security.protocol", "SASL_SSL");
        config.setString("sink.kafka.properties.sasl.mechanism", "PLAIN");
        config.setString("sink.kafka.properties.sasl.jaas.config", JAAS);
        config.setString(
                "sink.kafka.properties.ssl.truststore.location", "/etc/kafka/truststore.jks");
        config.setString("sink.kafka.properties.ssl.truststore.password", "changeit");
        config.setString("sink.kafka.properties.client.id", "sluice-shop");
        config.setString("sink.kafka.properties.request.timeout.ms", "40000");
        // Producer settings only.
        config.setString("sink.kafka.properties.linger.ms", "20");
        config.setString("sink.kafka.properties.acks", "all");
        config.setString("sink.kafka.properties.max.request.size", "4194304");
        config.setString("sink.kafka.properties.transaction.timeout.ms", "60000");
        config.setString("sink.kafka.properties.interceptor.classes", "com.example.Audit");
        return config;
    }

    private static Map<String, String> toMap(Properties properties) {
        Map<String, String> map = new HashMap<>();
        properties.forEach((key, value) -> map.put((String) key, (String) value));
        return map;
    }
}

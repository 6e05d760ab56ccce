package io.sluice.functions.sink;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DebeziumJsonKafkaSerializationSchemaTest {

    private final DebeziumJsonKafkaSerializationSchema schema =
            new DebeziumJsonKafkaSerializationSchema("changes");

    @Test
    void keysByTableAndStampsBinlogTime() {
        String change =
                "{\"before\":null,\"after\":{\"id\":1,\"v\":{\"x\":[1,2]}},"
                        + "\"source\":{\"version\":\"1\",\"db\":\"shop\",\"table\":\"orders\","
                        + "\"ts_ms\":1700000000123,\"snapshot\":\"false\"},\"op\":\"c\"}";

        ProducerRecord<byte[], byte[]> record = schema.serialize(change, null, null);

        assertThat(record.topic()).isEqualTo("changes");
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("shop.orders");
        assertThat(record.timestamp()).isEqualTo(1700000000123L);
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo(change);
    }

    @Test
    void snapshotRowsHaveNoBinlogTime() {
        String change =
                "{\"after\":{\"id\":1},\"source\":{\"db\":\"shop\",\"table\":\"t\",\"ts_ms\":0},"
                        + "\"op\":\"r\"}";

        assertThat(schema.serialize(change, null, null).timestamp()).isNull();
    }

    @Test
    void namesTheBadInput() {
        assertThatThrownBy(() -> schema.serialize("{\"op\":\"c\"}", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no 'source' block")
                .hasMessageContaining("{\"op\":\"c\"}");
    }
}

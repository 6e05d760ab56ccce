package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

import org.apache.kafka.clients.producer.ProducerRecord;

/** Hands an already encoded {@link SinkMessage} to Kafka as it is: no work on the sink thread. */
@Internal
public final class SinkMessageKafkaSerializationSchema
        implements KafkaRecordSerializationSchema<SinkMessage> {

    private static final long serialVersionUID = 1L;

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            SinkMessage message, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(
                message.topic(),
                message.partition() == SinkMessage.ANY_PARTITION ? null : message.partition(),
                message.timestamp() > 0 ? message.timestamp() : null,
                message.key(),
                message.value());
    }
}

package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;

import io.sluice.functions.encode.SinkMessage;
import org.apache.kafka.clients.producer.ProducerRecord;

import javax.annotation.Nullable;

/**
 * Hands an already encoded {@link SinkMessage} to Kafka as it is: no work on the sink thread. As
 * each writer opens, before its first producer, it checks the brokers' limits, if asked to.
 */
@Internal
public final class SinkMessageKafkaSerializationSchema
        implements KafkaRecordSerializationSchema<SinkMessage> {

    private static final long serialVersionUID = 1L;

    /** Checked as each writer opens; null for none. */
    @Nullable private final KafkaBrokerLimits limits;

    /**
     * @param limits checked as each writer opens, or null to check nothing
     */
    public SinkMessageKafkaSerializationSchema(@Nullable KafkaBrokerLimits limits) {
        this.limits = limits;
    }

    @Override
    public void open(
            SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        // Every writer, so that none starts a transaction the brokers would refuse: its failure
        // would restart the job, while the check's stops it.
        if (limits != null) {
            limits.check(sinkContext.getParallelInstanceId());
        }
    }

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

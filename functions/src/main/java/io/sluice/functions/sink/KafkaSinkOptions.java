package io.sluice.functions.sink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;

import java.time.Duration;

/**
 * Options of the Kafka sink: YAML section {@code sink.kafka.}, the {@code sluice-kafka} table's own
 * keys in SQL.
 */
@PublicEvolving
public final class KafkaSinkOptions {

    /**
     * Keys under this prefix go to the producer as they are, e.g. {@code properties.linger.ms}
     * ({@code sink.kafka.properties.linger.ms} in YAML); those every Kafka client knows (security,
     * SASL, SSL, client id) go to the job's admin clients too ({@link KafkaClientProperties}).
     */
    public static final String PROPERTIES_PREFIX = "properties.";

    /** The producer's {@code batch.size} unless {@code properties.batch.size} sets it. */
    public static final int DEFAULT_BATCH_SIZE = 256 * 1024;

    /** The producer's {@code linger.ms} unless {@code properties.linger.ms} sets it. */
    public static final int DEFAULT_LINGER_MS = 5;

    /**
     * The producer's {@code compression.type} unless {@code properties.compression.type} sets it.
     * Canal's JSON repeats every column name and type in every message, so LZ4 shrinks it several
     * times for the broker, the network and the consumers.
     */
    public static final String DEFAULT_COMPRESSION_TYPE = "lz4";

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            ConfigOptions.key("bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Kafka bootstrap servers, 'host:port[,host:port]'. Required.");

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(DeliveryGuarantee.EXACTLY_ONCE)
                    .withDescription(
                            "exactly-once writes in Kafka transactions committed on checkpoints;"
                                    + " at-least-once flushes on checkpoints.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("transactional-id-prefix")
                    .stringType()
                    .defaultValue("sluice")
                    .withDescription(
                            "Prefix of the Kafka transactional ids. Must be unique per job (per"
                                    + " table in SQL) and stable across its restarts.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT =
            ConfigOptions.key("transaction-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "Kafka transaction timeout. Must not exceed the broker's"
                                    + " transaction.max.timeout.ms (15 min by default) and should"
                                    + " exceed the longest expected checkpoint plus restart time.");

    private KafkaSinkOptions() {}
}

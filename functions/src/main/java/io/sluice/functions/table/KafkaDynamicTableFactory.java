package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.table.internal.OptionTranslation;

import java.util.Set;

import static io.sluice.functions.table.KafkaTableOptions.*;

/**
 * {@code 'connector' = 'sluice-kafka'}: writes each row's change, encoded as {@code canal-flat} or
 * {@code canal-binary}, to Kafka. The table's one physical column is the change ({@link
 * ChangeColumn}); writable metadata {@code topic} and {@code key} override the routed topic and the
 * primary-key message key.
 */
@Internal
public final class KafkaDynamicTableFactory implements DynamicTableSinkFactory {

    public static final String IDENTIFIER = "sluice-kafka";

    static final OptionTranslation OPTIONS =
            MessageSinkTables.withEncodeAndRoute(new OptionTranslation())
                    .map(BOOTSTRAP_SERVERS, KafkaSinkOptions.BOOTSTRAP_SERVERS)
                    .map(DELIVERY_GUARANTEE, KafkaSinkOptions.DELIVERY_GUARANTEE)
                    .map(TRANSACTIONAL_ID_PREFIX, KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX)
                    .map(TRANSACTION_TIMEOUT, KafkaSinkOptions.TRANSACTION_TIMEOUT)
                    .mapPrefix(PROPERTIES_PREFIX, KafkaSinkOptions.PROPERTIES_PREFIX);

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(BOOTSTRAP_SERVERS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return MessageSinkTables.withEncodeAndRoute(
                DELIVERY_GUARANTEE, TRANSACTIONAL_ID_PREFIX, TRANSACTION_TIMEOUT);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return MessageSinkTables.create(this, context, OPTIONS, PROPERTIES_PREFIX, SinkType.KAFKA);
    }
}

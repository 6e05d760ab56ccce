package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.SinkType;

import java.util.Set;

/**
 * {@code 'connector' = 'sluice-kafka'}: writes each row's change, encoded as {@code canal-flat} or
 * {@code canal-binary}, to Kafka. The table's one physical column is the change ({@link
 * ChangeColumn}); writable metadata {@code topic} and {@code key} override the routed topic and the
 * primary-key message key. Its options are {@link KafkaSinkOptions} (with {@code properties.*}
 * passed to the producer) and those every Sluice sink table takes ({@link MessageSinkTables}).
 */
@Internal
public final class KafkaDynamicTableFactory implements DynamicTableSinkFactory {

    public static final String IDENTIFIER = "sluice-kafka";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(KafkaSinkOptions.BOOTSTRAP_SERVERS);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return MessageSinkTables.withEncodeAndRoute(
                KafkaSinkOptions.DELIVERY_GUARANTEE,
                KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX,
                KafkaSinkOptions.TRANSACTION_TIMEOUT);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return MessageSinkTables.create(
                this, context, KafkaSinkOptions.PROPERTIES_PREFIX, SinkType.KAFKA);
    }
}

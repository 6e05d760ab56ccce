package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

import io.sluice.functions.sink.SinkType;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;
import io.sluice.functions.table.internal.OptionTranslation;

import java.util.Set;

import static io.sluice.functions.table.RocketMqTableOptions.*;

/**
 * {@code 'connector' = 'sluice-rocketmq'}: writes each row's change, encoded as {@code canal-flat}
 * or {@code canal-binary}, to RocketMQ (key = primary key, tag = table). The table's one physical
 * column is the change ({@link ChangeColumn}); writable metadata {@code topic} and {@code key}
 * override the routed topic and the primary-key message key, as in {@code sluice-kafka}.
 */
@Internal
public final class RocketMqDynamicTableFactory implements DynamicTableSinkFactory {

    public static final String IDENTIFIER = "sluice-rocketmq";

    static final OptionTranslation OPTIONS =
            MessageSinkTables.withEncodeAndRoute(new OptionTranslation())
                    .map(NAME_SERVER, RocketMqSinkOptions.NAME_SERVER)
                    .map(PRODUCER_GROUP, RocketMqSinkOptions.PRODUCER_GROUP)
                    .map(SEND_TIMEOUT, RocketMqSinkOptions.SEND_TIMEOUT)
                    .map(BATCH_MAX_MESSAGES, RocketMqSinkOptions.BATCH_MAX_MESSAGES)
                    .map(BATCH_MAX_BYTES, RocketMqSinkOptions.BATCH_MAX_BYTES)
                    .map(DELIVERY_GUARANTEE, RocketMqSinkOptions.DELIVERY_GUARANTEE);

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(NAME_SERVER);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return MessageSinkTables.withEncodeAndRoute(
                PRODUCER_GROUP,
                SEND_TIMEOUT,
                BATCH_MAX_MESSAGES,
                BATCH_MAX_BYTES,
                DELIVERY_GUARANTEE);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return MessageSinkTables.create(this, context, OPTIONS, null, SinkType.ROCKETMQ);
    }
}

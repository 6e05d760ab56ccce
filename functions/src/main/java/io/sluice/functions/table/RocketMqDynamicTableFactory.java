package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;

import io.sluice.functions.sink.SinkType;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;

import java.util.Set;

/**
 * {@code 'connector' = 'sluice-rocketmq'}: writes each row's change, encoded as {@code canal-flat}
 * or {@code canal-binary}, to RocketMQ (key = primary key, tag = table). The table's one physical
 * column is the change ({@link ChangeColumn}); writable metadata {@code topic} and {@code key}
 * override the routed topic and the primary-key message key, as in {@code sluice-kafka}. Its
 * options are {@link RocketMqSinkOptions} and those every Sluice sink table takes ({@link
 * MessageSinkTables}); a queue is a partition.
 */
@Internal
public final class RocketMqDynamicTableFactory implements DynamicTableSinkFactory {

    public static final String IDENTIFIER = "sluice-rocketmq";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(RocketMqSinkOptions.NAME_SERVER);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return MessageSinkTables.withEncodeAndRoute(
                RocketMqSinkOptions.PRODUCER_GROUP,
                RocketMqSinkOptions.SEND_TIMEOUT,
                RocketMqSinkOptions.BATCH_MAX_MESSAGES,
                RocketMqSinkOptions.BATCH_MAX_BYTES,
                RocketMqSinkOptions.DELIVERY_GUARANTEE);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return MessageSinkTables.create(this, context, null, SinkType.ROCKETMQ);
    }
}

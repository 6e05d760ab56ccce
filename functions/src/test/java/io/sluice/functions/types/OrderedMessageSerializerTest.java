package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;

class OrderedMessageSerializerTest extends SerializerTestBase<OrderedMessage> {

    @Override
    protected TypeSerializer<OrderedMessage> createSerializer() {
        return OrderedMessageSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<OrderedMessage> getTypeClass() {
        return OrderedMessage.class;
    }

    @Override
    protected OrderedMessage[] getTestData() {
        return new OrderedMessage[] {
            new OrderedMessage(
                    new SinkMessage("t", 2, "k".getBytes(), "{}".getBytes(), 1_700_000_000_000L),
                    0),
            new OrderedMessage(new SinkMessage("t", 1, null, "ddl".getBytes(), 7, "orders"), 4),
            new OrderedMessage(
                    new SinkMessage("t", 1, null, "row".getBytes(), 7, "orders"), Long.MAX_VALUE)
        };
    }
}

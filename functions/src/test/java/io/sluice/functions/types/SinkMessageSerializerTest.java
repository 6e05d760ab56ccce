package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.functions.encode.SinkMessage;

class SinkMessageSerializerTest extends SerializerTestBase<SinkMessage> {

    @Override
    protected TypeSerializer<SinkMessage> createSerializer() {
        return SinkMessageSerializer.INSTANCE;
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<SinkMessage> getTypeClass() {
        return SinkMessage.class;
    }

    @Override
    protected SinkMessage[] getTestData() {
        return new SinkMessage[] {
            new SinkMessage("t", 2, "k".getBytes(), "{}".getBytes(), 1_700_000_000_000L),
            new SinkMessage("topic-ü", SinkMessage.ANY_PARTITION, null, new byte[0], 0),
            new SinkMessage("t", 0, new byte[0], new byte[100_000], 5),
            new SinkMessage("t", 1, null, "ddl".getBytes(), 7, "orders"),
            // A debezium-json tombstone: a key and a null value.
            new SinkMessage("t", 0, "{\"id\":1}".getBytes(), null, 8, "orders"),
            new SinkMessage("t", 0, null, null, 9, "keyless")
        };
    }
}

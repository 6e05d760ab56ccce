package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.encode.MessageLimits;

/**
 * RocketMQ's limit on one message body: the client's and the broker's default maxMessageSize (4
 * MiB), less room for what the broker counts beside the body (topic, properties, framing).
 */
@Internal
public final class RocketMqMessageLimits implements MessageLimits {

    /** The client's and broker's default maxMessageSize. */
    public static final long MAX_MESSAGE_SIZE = 4L * 1024 * 1024;

    /** Room for the topic, the properties (keys, tag, transaction marks) and the framing. */
    static final long BESIDE_BODY = 16 * 1024;

    public static MessageLimits.Factory factory() {
        return RocketMqMessageLimits::new;
    }

    @Override
    public long limitOf(String topic) {
        return MAX_MESSAGE_SIZE - BESIDE_BODY;
    }

    @Override
    public long sizeOf(byte[] key, byte[] value) {
        return value.length;
    }

    @Override
    public String describe(String topic) {
        return "RocketMQ's maxMessageSize="
                + MAX_MESSAGE_SIZE
                + " less "
                + BESIDE_BODY
                + " for properties";
    }

    @Override
    public void close() {}
}

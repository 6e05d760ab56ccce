package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.sink.rocketmq.RocketMqCommittable.Entry;
import org.apache.rocketmq.common.message.Message;

import java.nio.charset.StandardCharsets;

/** Turns the sink's entries into RocketMQ messages. */
@Internal
public final class Messages {

    private Messages() {}

    /**
     * Key = primary key (RocketMQ indexes it), tag = table (consumers filter on it). A key with
     * spaces becomes several index keys, as RocketMQ splits keys on spaces; the body is untouched.
     */
    public static Message of(String topic, Entry entry) {
        Message message = new Message(topic, entry.body());
        if (entry.tag() != null && !entry.tag().isEmpty()) {
            message.setTags(entry.tag());
        }
        if (entry.key() != null && entry.key().length > 0) {
            message.setKeys(new String(entry.key(), StandardCharsets.UTF_8));
        }
        return message;
    }
}

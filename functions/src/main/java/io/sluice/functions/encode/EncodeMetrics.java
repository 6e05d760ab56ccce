package io.sluice.functions.encode;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

import io.sluice.serializers.event.ChangeEvent;

import java.util.HashMap;
import java.util.Map;

/**
 * What an encoder produced: {@code rowsIn}, {@code messagesOut}, {@code bytesOut}, {@code
 * queriesOut} (the QUERY messages of DML statements, {@code source.include-queries}), and per topic
 * (sub-group {@code topic} = name) {@code messages} and {@code bytes}. A statement is counted once
 * per partition it is written to; a DML statement's QUERY is a message, not a row.
 */
@Internal
final class EncodeMetrics {

    private final MetricGroup group;
    private final Counter rowsIn;
    private final Counter messagesOut;
    private final Counter bytesOut;
    private final Counter queriesOut;
    private final Map<String, Counter[]> topics = new HashMap<>();

    EncodeMetrics(MetricGroup group) {
        this.group = group;
        rowsIn = group.counter("rowsIn");
        messagesOut = group.counter("messagesOut");
        bytesOut = group.counter("bytesOut");
        queriesOut = group.counter("queriesOut");
    }

    void encoded(ChangeEvent change, String topic, int bytes) {
        if (change.isRow()) {
            rowsIn.inc();
        } else if (!change.isDdl()) {
            queriesOut.inc();
        }
        message(topic, bytes);
    }

    /** A message of {@code rows} rows ({@code format.group-rows}). */
    void encodedRows(int rows, String topic, int bytes) {
        rowsIn.inc(rows);
        message(topic, bytes);
    }

    private void message(String topic, int bytes) {
        messagesOut.inc();
        bytesOut.inc(bytes);
        Counter[] perTopic = topics.get(topic);
        if (perTopic == null) {
            MetricGroup topicGroup = group.addGroup("topic", topic);
            perTopic = new Counter[] {topicGroup.counter("messages"), topicGroup.counter("bytes")};
            topics.put(topic, perTopic);
        }
        perTopic[0].inc();
        perTopic[1].inc(bytes);
    }
}

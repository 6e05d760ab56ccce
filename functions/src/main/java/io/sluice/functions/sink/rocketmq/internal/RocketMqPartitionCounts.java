package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionCounts;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Queue counts per topic: configured ones first, else the number of write queues the name server
 * routes, read once when the topic is first written and kept for the operator's life.
 */
@Internal
public final class RocketMqPartitionCounts implements PartitionCounts {

    private final PartitionCountRules configured;
    private final ClientSettings settings;
    private final Map<String, Integer> known = new HashMap<>();
    private DefaultMQProducer producer;

    public RocketMqPartitionCounts(PartitionCountRules configured, ClientSettings settings) {
        this.configured = configured;
        this.settings = settings;
    }

    public static PartitionCounts.Factory factory(
            PartitionCountRules configured, ClientSettings settings) {
        return () -> new RocketMqPartitionCounts(configured, settings);
    }

    @Override
    public int countOf(String topic) {
        Integer count = known.get(topic);
        if (count == null) {
            count = configured.countOf(topic);
            if (count == PartitionCountRules.UNKNOWN) {
                count = lookUp(topic);
            }
            known.put(topic, count);
        }
        return count;
    }

    private int lookUp(String topic) {
        try {
            if (producer == null) {
                DefaultMQProducer started = settings.newProducer("queue-counts");
                started.start();
                producer = started;
            }
            return ProducerQueueSender.fetchQueues(producer, topic, settings.nameServer()).size();
        } catch (MQClientException e) {
            throw new IllegalStateException(
                    "Cannot start a RocketMQ client for name server " + settings.nameServer(), e);
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e.getCause());
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.shutdown();
        }
    }
}

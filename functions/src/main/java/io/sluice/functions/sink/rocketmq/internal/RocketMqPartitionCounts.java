package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.route.BrokerPartitionCounts;
import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionCounts;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

import java.io.IOException;

/** Queue counts per topic: configured ones first, else the write queues the name server routes. */
@Internal
public final class RocketMqPartitionCounts extends BrokerPartitionCounts {

    private final ClientSettings settings;
    private DefaultMQProducer producer;

    public RocketMqPartitionCounts(PartitionCountRules configured, ClientSettings settings) {
        super(configured);
        this.settings = settings;
    }

    public static PartitionCounts.Factory factory(
            PartitionCountRules configured, ClientSettings settings) {
        return () -> new RocketMqPartitionCounts(configured, settings);
    }

    @Override
    protected int lookUp(String topic) {
        try {
            if (producer == null) {
                DefaultMQProducer started = settings.newProducer("queue-counts");
                try {
                    started.start();
                } catch (MQClientException | RuntimeException e) {
                    // A start that failed half-way may have started the client's threads.
                    started.shutdown();
                    throw e;
                }
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

package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;

import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/** How the sink's RocketMQ clients connect; validated by the sink's builder. */
@Internal
public record ClientSettings(
        String nameServer,
        String producerGroup,
        Duration sendTimeout,
        int batchMaxMessages,
        int batchMaxBytes)
        implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final AtomicLong INSTANCES = new AtomicLong();

    /** A started-later producer; {@code role} makes its client instance its own. */
    public DefaultMQProducer newProducer(String role) {
        DefaultMQProducer producer = new DefaultMQProducer(producerGroup);
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName(instanceName(role));
        // The VIP channel would dial port - 2, which brokers may not listen on.
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout((int) Math.min(Integer.MAX_VALUE, sendTimeout.toMillis()));
        // Sends go to one chosen queue; a retry there could only reorder or duplicate.
        producer.setRetryTimesWhenSendFailed(0);
        producer.setMaxMessageSize(Math.max(producer.getMaxMessageSize(), batchMaxBytes + 65536));
        return producer;
    }

    /** A started-later consumer that reads queue tails, in group {@code <producerGroup>-tail}. */
    @SuppressWarnings("deprecation") // The plain pull consumer is the one that reads an offset.
    public DefaultMQPullConsumer newTailConsumer(String role) {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(producerGroup + "-tail");
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName(instanceName(role));
        consumer.setVipChannelEnabled(false);
        consumer.setConsumerPullTimeoutMillis(sendTimeout.toMillis());
        return consumer;
    }

    private String instanceName(String role) {
        return producerGroup
                + "-"
                + role
                + "-"
                + ProcessHandle.current().pid()
                + "-"
                + INSTANCES.incrementAndGet();
    }

    // Written out: the generated ones would keep the job's class loader alive in a
    // session cluster on Java 17 (JDK-8078641).
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ClientSettings)) {
            return false;
        }
        ClientSettings other = (ClientSettings) o;
        return Objects.equals(nameServer, other.nameServer)
                && Objects.equals(producerGroup, other.producerGroup)
                && Objects.equals(sendTimeout, other.sendTimeout)
                && batchMaxMessages == other.batchMaxMessages
                && batchMaxBytes == other.batchMaxBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                nameServer, producerGroup, sendTimeout, batchMaxMessages, batchMaxBytes);
    }

    @Override
    public String toString() {
        return "ClientSettings[nameServer="
                + nameServer
                + ", producerGroup="
                + producerGroup
                + ", sendTimeout="
                + sendTimeout
                + ", batchMaxMessages="
                + batchMaxMessages
                + ", batchMaxBytes="
                + batchMaxBytes
                + "]";
    }
}

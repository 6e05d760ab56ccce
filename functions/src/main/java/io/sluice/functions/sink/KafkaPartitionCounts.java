package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.route.BrokerPartitionCounts;
import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionCounts;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Partition counts per topic: configured ones first, else the Kafka broker's (its admin client).
 */
@Internal
public final class KafkaPartitionCounts extends BrokerPartitionCounts {

    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaTopicAdmin admin;

    /**
     * @param client the admin client's settings ({@link KafkaClientProperties#common}), used only
     *     once a count is not configured
     */
    public KafkaPartitionCounts(PartitionCountRules configured, Properties client) {
        super(configured);
        this.admin = new KafkaTopicAdmin(client, LOOKUP_TIMEOUT);
    }

    /** Counts for a job: configured ones, else from the brokers {@code client} reaches. */
    public static PartitionCounts.Factory factory(
            PartitionCountRules configured, Properties client) {
        return () -> new KafkaPartitionCounts(configured, client);
    }

    @Override
    protected int lookUp(String topic) {
        try {
            return admin.partitionCount(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException(
                        "Topic '"
                                + topic
                                + "' does not exist on the broker. Create it, or route the table"
                                + " elsewhere (route.dynamic-topic, route.topic-template).",
                        e.getCause());
            }
            throw new IllegalStateException(
                    "Cannot read the partition count of topic '" + topic + "'", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "The broker did not tell the partition count of topic '"
                            + topic
                            + "' within "
                            + LOOKUP_TIMEOUT,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted reading topic '" + topic + "'", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}

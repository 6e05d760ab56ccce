package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.route.BrokerPartitionCounts;
import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionCounts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Partition counts per topic: configured ones first, else the Kafka broker's (its admin client).
 */
@Internal
public final class KafkaPartitionCounts extends BrokerPartitionCounts {

    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final Properties client;
    private Admin admin;

    /**
     * @param client the admin client's settings ({@link KafkaClientProperties#common}), used only
     *     once a count is not configured
     */
    public KafkaPartitionCounts(PartitionCountRules configured, Properties client) {
        super(configured);
        this.client = new Properties();
        this.client.putAll(client);
    }

    /** Counts for a job: configured ones, else from the brokers {@code client} reaches. */
    public static PartitionCounts.Factory factory(
            PartitionCountRules configured, Properties client) {
        return () -> new KafkaPartitionCounts(configured, client);
    }

    @Override
    protected int lookUp(String topic) {
        if (admin == null) {
            admin = Admin.create(client);
        }
        try {
            TopicDescription description =
                    admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get(LOOKUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                            .get(topic);
            return description.partitions().size();
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
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}

package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionCounts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Partition counts per topic: configured ones first, else read once from the broker when the topic
 * is first written and kept for the life of the operator (a count that changed under a running job
 * would move keys between partitions).
 */
@Internal
public final class KafkaPartitionCounts implements PartitionCounts {

    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

    private final PartitionCountRules configured;
    private final Properties client;
    private final Map<String, Integer> known = new HashMap<>();
    private Admin admin;

    /**
     * @param client the admin client's settings ({@link KafkaClientProperties#common}), used only
     *     once a count is not configured
     */
    public KafkaPartitionCounts(PartitionCountRules configured, Properties client) {
        this.configured = configured;
        this.client = new Properties();
        this.client.putAll(client);
    }

    /** Counts for a job: configured ones, else from the brokers {@code client} reaches. */
    public static PartitionCounts.Factory factory(
            PartitionCountRules configured, Properties client) {
        return () -> new KafkaPartitionCounts(configured, client);
    }

    @Override
    public int countOf(String topic) {
        Integer count = known.get(topic);
        if (count == null) {
            count = configured.countOf(topic);
            if (count == PartitionCountRules.UNKNOWN) {
                count = describe(topic);
            }
            known.put(topic, count);
        }
        return count;
    }

    private int describe(String topic) {
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

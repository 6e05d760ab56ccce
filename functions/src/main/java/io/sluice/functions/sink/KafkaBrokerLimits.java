package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** Checks Sluice's settings against what the Kafka brokers allow, before a job starts. */
@Internal
public final class KafkaBrokerLimits {

    private static final String MAX_TIMEOUT = "transaction.max.timeout.ms";
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);

    private KafkaBrokerLimits() {}

    /**
     * Fails, naming the option, the broker's limit and the value, when {@code timeoutMs} exceeds
     * the {@code transaction.max.timeout.ms} of any broker.
     */
    public static void checkTransactionTimeout(String bootstrapServers, long timeoutMs) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(props)) {
            Collection<Node> brokers =
                    admin.describeCluster()
                            .nodes()
                            .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<ConfigResource> resources =
                    brokers.stream()
                            .map(b -> new ConfigResource(ConfigResource.Type.BROKER, b.idString()))
                            .collect(Collectors.toList());
            Map<ConfigResource, Config> configs =
                    admin.describeConfigs(resources)
                            .all()
                            .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            for (Map.Entry<ConfigResource, Config> broker : configs.entrySet()) {
                ConfigEntry max = broker.getValue().get(MAX_TIMEOUT);
                if (max != null && max.value() != null && timeoutMs > Long.parseLong(max.value())) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option '%s' is %s, but broker %s allows transactions of at"
                                            + " most %s (%s=%s). Lower the option, or raise the"
                                            + " broker's limit.",
                                    KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
                                    Duration.ofMillis(timeoutMs),
                                    broker.getKey().name(),
                                    Duration.ofMillis(Long.parseLong(max.value())),
                                    MAX_TIMEOUT,
                                    max.value()));
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Cannot read "
                            + MAX_TIMEOUT
                            + " from the Kafka brokers at "
                            + bootstrapServers
                            + " to check option '"
                            + KafkaSinkOptions.TRANSACTION_TIMEOUT.key()
                            + "'",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted asking the Kafka brokers", e);
        }
    }
}

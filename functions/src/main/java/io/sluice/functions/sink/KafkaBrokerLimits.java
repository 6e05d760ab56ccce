package io.sluice.functions.sink;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;

import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Checks the sink's settings against what the Kafka brokers allow. It runs where the job meets the
 * brokers anyway, when each writer opens, before its first transaction; never while the job graph
 * is built. Brokers that will not tell their settings get a warning, not a stopped job.
 */
@Internal
public final class KafkaBrokerLimits implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaBrokerLimits.class);

    private static final String MAX_TIMEOUT = "transaction.max.timeout.ms";
    private static final Duration WRITER_ASK_TIMEOUT = Duration.ofSeconds(30);

    private final Properties client;
    private final long transactionTimeoutMs;
    private final Duration askTimeout;
    private final String prefix;

    /**
     * @param client the admin client's settings ({@link KafkaClientProperties#common})
     * @param transactionTimeoutMs the producers' {@code transaction.timeout.ms}
     * @param prefix what the user writes before the Kafka sink's keys ({@code sink.kafka.} in YAML,
     *     nothing in SQL), for errors
     */
    public KafkaBrokerLimits(Properties client, long transactionTimeoutMs, String prefix) {
        this(client, transactionTimeoutMs, prefix, WRITER_ASK_TIMEOUT);
    }

    /**
     * @param askTimeout how long the brokers may take to answer: a writer waits for a busy cluster,
     *     {@code ./sluice validate} reports an unreachable one sooner
     */
    public KafkaBrokerLimits(
            Properties client, long transactionTimeoutMs, String prefix, Duration askTimeout) {
        this.prefix = prefix;
        this.client = new Properties();
        this.client.putAll(client);
        this.transactionTimeoutMs = transactionTimeoutMs;
        this.askTimeout = askTimeout;
    }

    /**
     * Fails, naming the option, the broker's limit and the value, when the transaction timeout
     * exceeds the {@code transaction.max.timeout.ms} of any broker: a restart cannot fix that, so
     * the job does not restart. Warns, naming what it could not check, when the brokers refuse to
     * describe their configuration.
     *
     * @param subtask the writer's subtask; only subtask 0 warns, the others would repeat it
     */
    public void check(int subtask) {
        Map<ConfigResource, Config> configs;
        try (KafkaTopicAdmin admin = new KafkaTopicAdmin(client, askTimeout)) {
            configs = admin.brokerConfigs();
        } catch (ExecutionException e) {
            if (refused(e.getCause())) {
                if (subtask == 0) {
                    warnUnchecked(e.getCause());
                }
                return;
            }
            throw cannotRead(e.getCause());
        } catch (TimeoutException e) {
            throw cannotRead(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted asking the Kafka brokers", e);
        }
        for (Map.Entry<ConfigResource, Config> broker : configs.entrySet()) {
            ConfigEntry max = broker.getValue().get(MAX_TIMEOUT);
            if (max != null
                    && max.value() != null
                    && transactionTimeoutMs > Long.parseLong(max.value())) {
                throw new SuppressRestartsException(
                        new IllegalArgumentException(
                                String.format(
                                        "Option '%s' is %s, but broker %s allows transactions of"
                                                + " at most %s (%s=%s). Lower the option, or raise"
                                                + " the broker's limit.",
                                        prefix + KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
                                        Duration.ofMillis(transactionTimeoutMs),
                                        broker.getKey().name(),
                                        Duration.ofMillis(Long.parseLong(max.value())),
                                        MAX_TIMEOUT,
                                        max.value())));
            }
        }
    }

    /** Brokers that deny the request to this principal, or do not serve it at all. */
    private static boolean refused(Throwable cause) {
        return cause instanceof AuthorizationException
                || cause instanceof SecurityDisabledException
                || cause instanceof UnsupportedVersionException;
    }

    private void warnUnchecked(Throwable cause) {
        LOG.warn(
                "Cannot check option '{}' ({}) against the brokers' {}: they refused"
                        + " describeConfigs(BROKER) to this client ({}: {}). Going on; if the option"
                        + " exceeds a broker's limit, every transaction fails with"
                        + " InvalidTxnTimeoutException. To have it checked, allow the job's"
                        + " principal DESCRIBE_CONFIGS on the cluster.",
                prefix + KafkaSinkOptions.TRANSACTION_TIMEOUT.key(),
                Duration.ofMillis(transactionTimeoutMs),
                MAX_TIMEOUT,
                cause.getClass().getSimpleName(),
                cause.getMessage());
    }

    private IllegalStateException cannotRead(Throwable cause) {
        // Unreachable brokers first: a timeout here is about the network, not the option.
        return new IllegalStateException(
                "Cannot reach the Kafka brokers at "
                        + client.getProperty("bootstrap.servers")
                        + " within "
                        + askTimeout.toSeconds()
                        + " s ("
                        + (cause == null ? "no answer" : cause.getClass().getSimpleName())
                        + "); check '"
                        + prefix
                        + KafkaSinkOptions.BOOTSTRAP_SERVERS.key()
                        + "' and the security settings under '"
                        + prefix
                        + KafkaSinkOptions.PROPERTIES_PREFIX
                        + "'. (Sluice asked for "
                        + MAX_TIMEOUT
                        + " to check option '"
                        + prefix
                        + KafkaSinkOptions.TRANSACTION_TIMEOUT.key()
                        + "'.)",
                cause);
    }
}

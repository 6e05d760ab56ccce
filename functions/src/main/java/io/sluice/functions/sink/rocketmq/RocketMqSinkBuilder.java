package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.connector.base.DeliveryGuarantee;

import io.sluice.functions.sink.rocketmq.internal.ClientSettings;
import io.sluice.functions.sink.rocketmq.internal.ProducerQueueSender;
import io.sluice.functions.sink.rocketmq.internal.QueueSender;

import java.time.Duration;

import static org.apache.flink.util.Preconditions.checkArgument;
import static org.apache.flink.util.Preconditions.checkNotNull;
import static org.apache.flink.util.Preconditions.checkState;

/** Builds a {@link RocketMqSink}; every setter once, the name server required. */
@PublicEvolving
public final class RocketMqSinkBuilder {

    private String nameServer;
    private String producerGroup;
    private DeliveryGuarantee guarantee;
    private Duration sendTimeout;
    private Integer batchMaxMessages;
    private Integer batchMaxBytes;
    private QueueSender.Factory senders;
    private String optionPrefix = "";

    RocketMqSinkBuilder() {}

    public RocketMqSinkBuilder setNameServer(String nameServer) {
        checkState(this.nameServer == null, "nameServer is already set");
        this.nameServer = checkNotNull(nameServer, "nameServer must not be null");
        return this;
    }

    public RocketMqSinkBuilder setProducerGroup(String producerGroup) {
        checkState(this.producerGroup == null, "producerGroup is already set");
        this.producerGroup = checkNotNull(producerGroup, "producerGroup must not be null");
        return this;
    }

    public RocketMqSinkBuilder setDeliveryGuarantee(DeliveryGuarantee guarantee) {
        checkState(this.guarantee == null, "deliveryGuarantee is already set");
        this.guarantee = checkNotNull(guarantee, "deliveryGuarantee must not be null");
        return this;
    }

    public RocketMqSinkBuilder setSendTimeout(Duration sendTimeout) {
        checkState(this.sendTimeout == null, "sendTimeout is already set");
        this.sendTimeout = checkNotNull(sendTimeout, "sendTimeout must not be null");
        return this;
    }

    public RocketMqSinkBuilder setBatchMaxMessages(int batchMaxMessages) {
        checkState(this.batchMaxMessages == null, "batchMaxMessages is already set");
        this.batchMaxMessages = batchMaxMessages;
        return this;
    }

    public RocketMqSinkBuilder setBatchMaxBytes(int batchMaxBytes) {
        checkState(this.batchMaxBytes == null, "batchMaxBytes is already set");
        this.batchMaxBytes = batchMaxBytes;
        return this;
    }

    /**
     * How the writers and committers open their senders; by default a RocketMQ producer each
     * ({@link ProducerQueueSender}). Tests wrap that one to break a send where they choose.
     */
    @Internal
    public RocketMqSinkBuilder setSenderFactory(QueueSender.Factory senders) {
        checkState(this.senders == null, "senderFactory is already set");
        this.senders = checkNotNull(senders, "senderFactory must not be null");
        return this;
    }

    /**
     * What the user writes before the sink's option keys ({@code sink.rocketmq.} in YAML), so that
     * errors name the keys as written. None by default.
     */
    @Internal
    public RocketMqSinkBuilder setOptionPrefix(String optionPrefix) {
        this.optionPrefix = checkNotNull(optionPrefix, "optionPrefix must not be null");
        return this;
    }

    /** Checks every setting against its rule, naming the option, the rule and the value. */
    public RocketMqSink build() {
        checkArgument(
                nameServer != null && !nameServer.isBlank(),
                "Option '%s' is required but %s",
                optionPrefix + RocketMqSinkOptions.NAME_SERVER.key(),
                nameServer == null ? "missing" : "blank");
        String group = or(producerGroup, RocketMqSinkOptions.PRODUCER_GROUP.defaultValue());
        // RocketMQ's own rule for group names (Validators.checkGroup), checked before any job runs.
        checkArgument(
                group.matches("[%|a-zA-Z0-9_-]{1,255}"),
                "Option '%s' must be 1-255 characters of letters, digits, '-', '_', '%%' or '|',"
                        + " but is '%s'",
                optionPrefix + RocketMqSinkOptions.PRODUCER_GROUP.key(),
                group);
        Duration timeout = or(sendTimeout, RocketMqSinkOptions.SEND_TIMEOUT.defaultValue());
        checkArgument(
                !timeout.isNegative()
                        && !timeout.isZero()
                        && timeout.toMillis() <= Integer.MAX_VALUE,
                "Option '%s' must be positive and at most %s ms, but is %s",
                optionPrefix + RocketMqSinkOptions.SEND_TIMEOUT.key(),
                Integer.MAX_VALUE,
                timeout);
        int messages = or(batchMaxMessages, RocketMqSinkOptions.BATCH_MAX_MESSAGES.defaultValue());
        checkArgument(
                messages >= 1,
                "Option '%s' must be at least 1, but is %s",
                optionPrefix + RocketMqSinkOptions.BATCH_MAX_MESSAGES.key(),
                messages);
        int bytes = or(batchMaxBytes, RocketMqSinkOptions.BATCH_MAX_BYTES.defaultValue());
        checkArgument(
                bytes >= 1024 && bytes <= 4 * 1024 * 1024,
                "Option '%s' must be between 1024 and 4194304 (the broker's default"
                        + " maxMessageSize), but is %s",
                optionPrefix + RocketMqSinkOptions.BATCH_MAX_BYTES.key(),
                bytes);
        return new RocketMqSink(
                new ClientSettings(nameServer.trim(), group, timeout, messages, bytes),
                or(guarantee, RocketMqSinkOptions.DELIVERY_GUARANTEE.defaultValue()),
                or(senders, ProducerQueueSender::new));
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}

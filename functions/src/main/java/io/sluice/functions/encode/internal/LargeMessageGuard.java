package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

import io.sluice.functions.encode.LargeMessageException;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.encode.LargeMessagePolicy;
import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the large-message policy to each encoded message, right after encoding: a message within
 * its topic's limit passes as it is; a larger one fails the job, or becomes its key-only message
 * (after storing the full one, for {@code claim-check}), or goes to the dead-letter topic. One per
 * encoding subtask; it shares the subtask's encoder.
 *
 * <p>The key-only message is the row's Canal message with only the primary-key columns in {@code
 * data} and {@code old} (and in {@code mysqlType}, {@code sqlType}), plus the property {@value
 * #MARKER}: {@code {"policy":…,"size":…,"limit":…}}, and {@code "claimCheck":"<uri>"} for a stored
 * message. Statements are never cut down: an oversized one fails the job under every policy.
 *
 * <p>Metric in the given group: {@code policy.<policy>.oversizedMessages}.
 */
@Internal
public final class LargeMessageGuard implements AutoCloseable {

    /** The name of the marker field (flat) or header property (binary). */
    public static final String MARKER = "sluiceOversize";

    private final LargeMessageSettings settings;
    private final ChangeEncoder encoder;
    private final MessageLimits limits;
    private final KeyOnlyChanges keyOnly = new KeyOnlyChanges();
    private final ClaimCheck claimCheck;
    private final Counter oversized;
    private final List<ChangeEvent> one = new ArrayList<>(1);

    public LargeMessageGuard(
            LargeMessageSettings settings, ChangeEncoder encoder, MetricGroup sluice) {
        this.settings = settings;
        this.encoder = encoder;
        this.limits = settings.limits.create();
        this.claimCheck =
                settings.policy == LargeMessagePolicy.CLAIM_CHECK
                        ? new ClaimCheck(settings.claimCheckPath, settings.extension)
                        : null;
        this.oversized =
                sluice.addGroup("policy", settings.policy.toString()).counter("oversizedMessages");
        one.add(null);
    }

    /**
     * {@code message}, the encoding of {@code change}, if it is within its topic's limit; else what
     * the policy makes of it.
     *
     * @throws LargeMessageException under policy {@code fail}, for a statement, or when even the
     *     policy's message does not fit
     */
    public SinkMessage check(ChangeEvent change, SinkMessage message, long messageId) {
        long limit = limitOf(message.topic());
        long size = limits.sizeOf(message.key(), message.value());
        if (size <= limit) {
            return message;
        }
        oversized.inc();
        if (settings.policy == LargeMessagePolicy.FAIL || !change.isRow()) {
            throw tooLarge(change, message.topic(), size, limit, null);
        }
        switch (settings.policy) {
            case KEY_ONLY:
                return keyOnly(change, message, messageId, size, limit, null);
            case CLAIM_CHECK:
                String uri;
                try {
                    uri = claimCheck.store(message.topic(), change, message.value());
                } catch (IOException e) {
                    throw new UncheckedIOException(
                            "Cannot store the "
                                    + size
                                    + "-byte message of a row of "
                                    + change.database()
                                    + "."
                                    + change.table()
                                    + " under '"
                                    + settings.claimCheckPath
                                    + "' ("
                                    + settings.optionPrefix
                                    + LargeMessageOptions.CLAIM_CHECK_PATH.key()
                                    + ")",
                            e);
                }
                return keyOnly(change, message, messageId, size, limit, uri);
            default:
                return deadLetter(change, message, size);
        }
    }

    /** Whether {@code message} is within its topic's limit as it is. */
    public boolean fits(SinkMessage message) {
        return limits.sizeOf(message.key(), message.value()) <= limitOf(message.topic());
    }

    private long limitOf(String topic) {
        return Math.min(settings.maxBytes, limits.limitOf(topic));
    }

    private SinkMessage keyOnly(
            ChangeEvent change,
            SinkMessage message,
            long messageId,
            long size,
            long limit,
            String uri) {
        one.set(0, keyOnly.of(change));
        String marker =
                "{\"policy\":\""
                        + settings.policy
                        + "\",\"size\":"
                        + size
                        + ",\"limit\":"
                        + limit
                        + (uri == null ? "" : ",\"claimCheck\":\"" + jsonEscape(uri) + "\"")
                        + "}";
        byte[] value;
        try {
            value = encoder.encode(one, messageId, System.currentTimeMillis(), MARKER, marker);
        } finally {
            one.set(0, null);
        }
        if (limits.sizeOf(message.key(), value) > limit) {
            throw tooLarge(change, message.topic(), size, limit, "even its key-only message");
        }
        return new SinkMessage(
                message.topic(),
                message.partition(),
                message.key(),
                value,
                message.timestamp(),
                message.tag());
    }

    private SinkMessage deadLetter(ChangeEvent change, SinkMessage message, long size) {
        String topic = settings.deadLetterTopic;
        long limit = limits.limitOf(topic);
        if (size > limit) {
            throw tooLarge(change, topic, size, limit, "the dead-letter topic too");
        }
        // The producer (Kafka) or the key's hash (RocketMQ) picks the partition of that topic.
        return new SinkMessage(
                topic,
                SinkMessage.ANY_PARTITION,
                message.key(),
                message.value(),
                message.timestamp(),
                message.tag());
    }

    private LargeMessageException tooLarge(
            ChangeEvent change, String topic, long size, long limit, String also) {
        String key = KeyOnlyChanges.describeKey(change);
        String what =
                change.isRow()
                        ? "a row of "
                                + change.database()
                                + "."
                                + change.table()
                                + (key.isEmpty() ? " (no primary key)" : " (key " + key + ")")
                        : "a " + change.type() + " statement of " + change.database();
        String where =
                change.binlogFile().isEmpty()
                        ? "from the snapshot"
                        : "at " + change.binlogFile() + ":" + change.binlogPosition();
        String limitSource =
                limit == settings.maxBytes
                        ? settings.optionPrefix + LargeMessageOptions.MAX_BYTES.key() + "=" + limit
                        : limits.describe(topic);
        String advice =
                also != null
                        ? "Under policy '" + settings.policy + "', " + also + " is too large."
                        : !change.isRow()
                                ? "Statements are never cut down; raise the limit."
                                : String.format(
                                        "Option '%s' is '%s'. Set it to 'key-only', 'claim-check'"
                                                + " (with '%s') or 'dead-letter' (with '%s'), or"
                                                + " raise the limit.",
                                        settings.optionPrefix + LargeMessageOptions.POLICY.key(),
                                        settings.policy,
                                        settings.optionPrefix
                                                + LargeMessageOptions.CLAIM_CHECK_PATH.key(),
                                        settings.optionPrefix
                                                + LargeMessageOptions.DEAD_LETTER_TOPIC.key());
        return new LargeMessageException(
                String.format(
                        "The %s message of %s, %s, is %d bytes, above the limit of %d bytes for"
                                + " topic '%s' (%s). %s",
                        change.type(), what, where, size, limit, topic, limitSource, advice));
    }

    private static String jsonEscape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public void close() {
        limits.close();
    }
}

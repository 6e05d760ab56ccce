package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.MemorySize;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.LargeMessageOptions;
import io.sluice.functions.encode.LargeMessagePolicy;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageLimits;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;

/** A job's large-message options, checked when the job is built; shipped to every encoder. */
@Internal
public final class LargeMessageSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    final LargeMessagePolicy policy;
    final long maxBytes;
    final String claimCheckPath;
    final String deadLetterTopic;
    final String extension;
    final MessageLimits.Factory limits;
    final String optionPrefix;

    private LargeMessageSettings(
            LargeMessagePolicy policy,
            long maxBytes,
            String claimCheckPath,
            String deadLetterTopic,
            String extension,
            MessageLimits.Factory limits,
            String optionPrefix) {
        this.policy = policy;
        this.maxBytes = maxBytes;
        this.claimCheckPath = claimCheckPath;
        this.deadLetterTopic = deadLetterTopic;
        this.extension = extension;
        this.limits = limits;
        this.optionPrefix = optionPrefix;
    }

    /**
     * The options in {@code config} for messages in {@code format} to a sink with {@code limits};
     * fails naming the option when one that the policy needs is missing or bad.
     */
    public static LargeMessageSettings from(
            OptionSection config, MessageFormat format, MessageLimits.Factory limits) {
        LargeMessagePolicy policy = config.get(LargeMessageOptions.POLICY);
        long maxBytes =
                config.getOptional(LargeMessageOptions.MAX_BYTES)
                        .map(MemorySize::getBytes)
                        .orElse(Long.MAX_VALUE);
        if (maxBytes < 1024) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' must be at least 1 kb, but is %s",
                            config.key(LargeMessageOptions.MAX_BYTES),
                            config.get(LargeMessageOptions.MAX_BYTES)));
        }
        String path = config.getOptional(LargeMessageOptions.CLAIM_CHECK_PATH).orElse(null);
        if (policy == LargeMessagePolicy.CLAIM_CHECK) {
            checkPath(config, path);
        }
        String topic = config.getOptional(LargeMessageOptions.DEAD_LETTER_TOPIC).orElse(null);
        if (policy == LargeMessagePolicy.DEAD_LETTER && (topic == null || topic.isBlank())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' is required when '%s' is '%s', but missing",
                            config.key(LargeMessageOptions.DEAD_LETTER_TOPIC),
                            config.key(LargeMessageOptions.POLICY),
                            policy));
        }
        return new LargeMessageSettings(
                policy,
                maxBytes,
                path == null ? null : path.replaceAll("/+$", ""),
                topic == null ? null : topic.trim(),
                format == MessageFormat.CANAL_BINARY ? ".pb" : ".json",
                limits,
                config.prefix());
    }

    private static void checkPath(OptionSection config, String path) {
        String key = config.key(LargeMessageOptions.CLAIM_CHECK_PATH);
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' is required when '%s' is '%s', but missing",
                            key,
                            config.key(LargeMessageOptions.POLICY),
                            LargeMessagePolicy.CLAIM_CHECK));
        }
        try {
            if (new URI(path).getScheme() == null) {
                throw new IllegalArgumentException(
                        String.format(
                                "Option '%s' must be a URI with a scheme (e.g. 's3://bucket/dir',"
                                        + " 'file:///dir'), but is '%s'",
                                key, path));
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    String.format("Option '%s' is not a URI: '%s'", key, path), e);
        }
    }
}

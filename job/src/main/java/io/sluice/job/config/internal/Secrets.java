package io.sluice.job.config.internal;

import org.apache.flink.annotation.Internal;

import java.util.List;
import java.util.Locale;

/** Which option values are secrets, so that no message, log or error text shows them. */
@Internal
public final class Secrets {

    public static final String MASK = "******";

    private static final List<String> SECRET_WORDS =
            List.of("password", "secret", "jaas", "token", "credential", "access-key", "private");

    private Secrets() {}

    /** Whether the value of {@code key} is a secret. */
    public static boolean isSecret(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return SECRET_WORDS.stream().anyMatch(lower::contains);
    }

    /** {@code value} as it may be shown for {@code key}. */
    public static String shown(String key, String value) {
        return isSecret(key) ? MASK : value;
    }

    /** A {@code key=value} argument as it may be shown. */
    public static String shownAssignment(String argument) {
        int eq = argument.indexOf('=');
        if (eq < 0) {
            return argument;
        }
        String key = argument.substring(0, eq);
        return key + "=" + shown(key.trim(), argument.substring(eq + 1));
    }
}

package io.sluice.job.config.internal;

import org.apache.flink.annotation.Internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * YAML keys renamed in this release, each still read for one release under its old name: the value
 * goes to the new key (to every new key when one option became one per sink) with one warning
 * naming both; giving the old and the new key together is an error naming both.
 */
@Internal
public final class RenamedKeys {

    private static final Logger LOG = LoggerFactory.getLogger(RenamedKeys.class);

    /** Old key, or old prefix ending in '.', to its new key(s) or prefix. */
    private static final Map<String, List<String>> RENAMED = new LinkedHashMap<>();

    static {
        rename("format", "encode.format");
        rename("format.group-rows", "encode.group-rows");
        rename("format.group-rows.max-bytes", "encode.group-rows.max-bytes");
        rename("format.group-rows.idle-flush", "encode.group-rows.idle-flush");
        rename(
                "sink.delivery-guarantee",
                "sink.kafka.delivery-guarantee",
                "sink.rocketmq.delivery-guarantee");
        rename("sink.transactional-id-prefix", "sink.kafka.transactional-id-prefix");
        rename("sink.transaction-timeout", "sink.kafka.transaction-timeout");
        rename("sink.properties.", "sink.kafka.properties.");
    }

    private RenamedKeys() {}

    private static void rename(String old, String... renamed) {
        RENAMED.put(old, List.of(renamed));
    }

    /** Every renamed key or prefix (ending in '.') and what it is now, in the docs' order. */
    public static Map<String, List<String>> table() {
        return Collections.unmodifiableMap(RENAMED);
    }

    /**
     * {@code given} (from one place: the file, or the {@code --set} arguments) with every old key
     * under its new name(s), in order; warns once per old key.
     *
     * @throws IllegalArgumentException when an old key and its new key are both given
     */
    public static Map<String, String> apply(Map<String, String> given) {
        Map<String, String> out = new LinkedHashMap<>();
        given.forEach(
                (key, value) -> {
                    List<String> renamed = renamed(key);
                    if (renamed.isEmpty()) {
                        out.put(key, value);
                        return;
                    }
                    for (String now : renamed) {
                        if (given.containsKey(now)) {
                            throw new IllegalArgumentException(
                                    String.format(
                                            "Options '%s' and '%s' are both given, but '%s' is"
                                                    + " the deprecated name of '%s': give only '%s'",
                                            key, now, key, now, now));
                        }
                    }
                    LOG.warn(
                            "Option '{}' is deprecated and will stop working in the next release;"
                                    + " write {} instead.",
                            key,
                            renamed.stream()
                                    .map(now -> "'" + now + "'")
                                    .collect(Collectors.joining(" or ")));
                    renamed.forEach(now -> out.put(now, value));
                });
        return out;
    }

    /** The new keys of {@code key}, or none when it was not renamed. */
    private static List<String> renamed(String key) {
        List<String> exact = RENAMED.get(key);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, List<String>> e : RENAMED.entrySet()) {
            String old = e.getKey();
            if (old.endsWith(".") && key.startsWith(old) && key.length() > old.length()) {
                String rest = key.substring(old.length());
                return e.getValue().stream().map(now -> now + rest).collect(Collectors.toList());
            }
        }
        return List.of();
    }
}

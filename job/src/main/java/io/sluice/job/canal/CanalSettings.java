package io.sluice.job.canal;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Canal instance's settings: {@code canal.properties} overridden by {@code instance.properties},
 * as Canal merges them. Tracks which keys the import has used, so that every key left over is
 * reported.
 */
final class CanalSettings {

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, CanalProperties> origins = new LinkedHashMap<>();
    private final Set<String> used = new HashSet<>();

    CanalSettings(List<CanalProperties> files) {
        for (CanalProperties file : files) {
            file.values()
                    .forEach(
                            (key, value) -> {
                                values.put(key, value);
                                origins.put(key, file);
                            });
        }
    }

    /** The value of {@code key}, marked as used; empty when missing or blank. */
    Optional<String> take(String key) {
        used.add(key);
        String value = values.get(key);
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    /** Whether {@code key} has a non-blank value (does not mark it used). */
    boolean has(String key) {
        String value = values.get(key);
        return value != null && !value.isEmpty();
    }

    /** The keys with this prefix not taken yet, in file order (not marked used). */
    List<String> keysUnder(String prefix) {
        return values.keySet().stream()
                .filter(k -> k.startsWith(prefix) && !used.contains(k))
                .collect(Collectors.toList());
    }

    /** The keys no translation has taken, in file order. */
    List<String> unused() {
        return values.keySet().stream().filter(k -> !used.contains(k)).collect(Collectors.toList());
    }

    /** The raw value, blank included (not marked used). */
    String raw(String key) {
        return values.getOrDefault(key, "");
    }

    /** {@code file:line} of the key, for messages. */
    String where(String key) {
        CanalProperties file = origins.get(key);
        return file == null ? "(not set)" : file.where(key);
    }

    /** A {@code true}/{@code false} value, Canal's way (anything but "true" is false). */
    static boolean isTrue(String value) {
        return "true".equals(value.trim().toLowerCase(Locale.ROOT));
    }
}

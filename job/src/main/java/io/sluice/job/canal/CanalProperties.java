package io.sluice.job.canal;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of Canal's property files ({@code canal.properties}, {@code instance.properties}), read as
 * Canal reads it ({@link Properties}: {@code \\} in a value is one backslash), with the line of
 * each key, so that an error can say where the key is.
 */
final class CanalProperties {

    /** A key at the start of a line, before '=', ':' or blanks; comments are skipped. */
    private static final Pattern KEY_LINE = Pattern.compile("^\\s*([^#!=:\\s]+)\\s*[=:\\s]?");

    private final Path file;
    private final Map<String, String> values;
    private final Map<String, Integer> lines;

    private CanalProperties(Path file, Map<String, String> values, Map<String, Integer> lines) {
        this.file = file;
        this.values = values;
        this.lines = lines;
    }

    /** Reads {@code file}; a missing or unreadable file fails, naming it. */
    static CanalProperties read(Path file) {
        Properties properties = new Properties();
        List<String> text;
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
            text = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(
                    "The Canal property file '" + file + "' does not exist", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "The Canal property file '" + file + "' cannot be read: " + e.getMessage(), e);
        }
        Map<String, Integer> lines = new HashMap<>();
        boolean continued = false;
        for (int i = 0; i < text.size(); i++) {
            String line = text.get(i);
            Matcher key = KEY_LINE.matcher(line);
            if (!continued && key.find()) {
                lines.put(key.group(1), i + 1); // The last occurrence wins, as in Properties.
            }
            continued = endsWithOddBackslashes(line);
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties.stringPropertyNames().stream()
                .sorted((a, b) -> Integer.compare(lineOf(lines, a), lineOf(lines, b)))
                .forEach(k -> values.put(k, properties.getProperty(k).trim()));
        return new CanalProperties(file, values, lines);
    }

    private static int lineOf(Map<String, Integer> lines, String key) {
        return lines.getOrDefault(key, Integer.MAX_VALUE);
    }

    private static boolean endsWithOddBackslashes(String line) {
        int count = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            count++;
        }
        return count % 2 == 1;
    }

    Path file() {
        return file;
    }

    /** Keys and values in the order of the file. */
    Map<String, String> values() {
        return Collections.unmodifiableMap(values);
    }

    /** {@code file:line} of {@code key}, or the file alone. */
    String where(String key) {
        Integer line = lines.get(key);
        return file.getFileName() + (line == null ? "" : ":" + line);
    }
}

package io.sluice.job.canal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code sluice.yaml} an import writes: settings grouped by their first key segment as in
 * {@code conf/sluice.yaml}, each with a comment saying which Canal key it came from.
 */
final class SluiceYaml {

    private static final List<String> SECTION_ORDER =
            List.of("job", "source", "encode", "filter", "route", "sink");

    /** Text YAML reads back unchanged without quotes. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./$][A-Za-z0-9_.,:/${}-]*");

    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, List<String>> comments = new LinkedHashMap<>();
    private final List<String> footer = new ArrayList<>();

    /** Sets {@code key} (a String or a List of String) with comment lines above it. */
    void set(String key, Object value, String... comment) {
        values.put(key, value);
        comments.put(key, List.of(comment));
    }

    /** A line at the end of the file. */
    void footer(String line) {
        footer.add(line);
    }

    Map<String, Object> values() {
        return values;
    }

    String render(String header) {
        StringBuilder out = new StringBuilder();
        header.lines().forEach(line -> out.append("# ").append(line).append('\n'));
        List<String> sections = new ArrayList<>(SECTION_ORDER);
        values.keySet().stream()
                .map(SluiceYaml::section)
                .filter(s -> !sections.contains(s))
                .distinct()
                .forEach(sections::add);
        for (String section : sections) {
            List<String> keys = new ArrayList<>();
            values.keySet().stream().filter(k -> section(k).equals(section)).forEach(keys::add);
            if (keys.isEmpty()) {
                continue;
            }
            out.append('\n');
            boolean nested = !keys.equals(List.of(section));
            if (nested) {
                out.append(section).append(":\n");
            }
            String indent = nested ? "  " : "";
            for (String key : keys) {
                comments.get(key).forEach(c -> comment(out, indent, c));
                String name = nested ? key.substring(section.length() + 1) : key;
                appendValue(out, indent, name, values.get(key));
            }
        }
        if (!footer.isEmpty()) {
            out.append('\n');
            footer.forEach(line -> comment(out, "", line));
        }
        return out.toString();
    }

    /** A comment, wrapped at about 100 characters. */
    private static void comment(StringBuilder out, String indent, String text) {
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && indent.length() + line.length() + word.length() > 96) {
                out.append(indent).append("# ").append(line).append('\n');
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        out.append(indent).append("# ").append(line).append('\n');
    }

    private static void appendValue(StringBuilder out, String indent, String name, Object value) {
        out.append(indent).append(name).append(':');
        if (value instanceof List) {
            List<?> items = (List<?>) value;
            if (items.isEmpty()) {
                out.append(" []\n");
                return;
            }
            out.append('\n');
            for (Object item : items) {
                out.append(indent).append("  - ").append(scalar(String.valueOf(item))).append('\n');
            }
        } else {
            out.append(' ').append(scalar(String.valueOf(value))).append('\n');
        }
    }

    /** Plain when YAML reads it back unchanged, else single-quoted (backslashes stay literal). */
    static String scalar(String text) {
        boolean special = text.equals("null") || text.equals("~");
        if (!special && PLAIN.matcher(text).matches() && !text.contains(": ")) {
            return text;
        }
        return "'" + text.replace("'", "''") + "'";
    }

    private static String section(String key) {
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }
}

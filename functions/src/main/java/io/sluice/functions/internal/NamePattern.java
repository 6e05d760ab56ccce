package io.sluice.functions.internal;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A name in Canal's routing syntax: a regular expression if it contains any of {@code
 * *?+|(){}[]\$^} (anchored, matched against the lower-cased name), otherwise an exact name compared
 * ignoring case. A dot alone does not make a regex.
 */
@Internal
public final class NamePattern implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final String REGEX_CHARS = "*?+|(){}[]\\$^";

    private final String text;
    private final Pattern regex;

    private NamePattern(String text, Pattern regex) {
        this.text = text;
        this.regex = regex;
    }

    /**
     * Parses one pattern; {@code option} and {@code item} only name the source of a bad regex in
     * the error.
     */
    public static NamePattern parse(String text, String option, String item) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format("Option '%s' has an empty name pattern in '%s'", option, item));
        }
        if (!isRegex(text)) {
            return new NamePattern(text, null);
        }
        try {
            return new NamePattern(text, Pattern.compile(text, Pattern.CASE_INSENSITIVE));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' has an invalid regular expression '%s' in '%s': %s",
                            option, text, item, e.getDescription()),
                    e);
        }
    }

    public static boolean isRegex(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (REGEX_CHARS.indexOf(text.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    public boolean isRegex() {
        return regex != null;
    }

    /** Whether this regex is meant for {@code schema.table} names: its text contains {@code \.}. */
    public boolean isTableRegex() {
        return regex != null && text.contains("\\.");
    }

    public boolean matches(String name) {
        return regex == null
                ? text.equalsIgnoreCase(name)
                : regex.matcher(name.toLowerCase(Locale.ROOT)).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}

package io.sluice.functions.source.internal;

import java.util.ArrayList;
import java.util.List;

/** Splits SQL into tokens, dropping whitespace and comments; the keyword scanners' input. */
final class SqlTokens {

    private SqlTokens() {}

    /** A word, a quoted name, a string literal or one punctuation character. */
    static final class Token {
        static final Token END = new Token("", false, false);

        final String text;
        final boolean quotedName;
        final boolean literal;

        Token(String text, boolean quotedName, boolean literal) {
            this.text = text;
            this.quotedName = quotedName;
            this.literal = literal;
        }

        /** Whether this is the unquoted keyword or punctuation {@code word}. */
        boolean is(String word) {
            return !quotedName && !literal && text.equalsIgnoreCase(word);
        }

        boolean isAny(String... words) {
            for (String word : words) {
                if (is(word)) {
                    return true;
                }
            }
            return false;
        }

        boolean isName() {
            if (quotedName) {
                return true;
            }
            if (literal || text.isEmpty()) {
                return false;
            }
            char c = text.charAt(0);
            return Character.isLetterOrDigit(c) || c == '_' || c == '$';
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** A position in a statement's tokens, for the keyword scanners. */
    abstract static class Cursor {
        protected final List<Token> tokens;
        protected int at;

        Cursor(List<Token> tokens) {
            this.tokens = tokens;
        }

        protected Token peek() {
            return at < tokens.size() ? tokens.get(at) : Token.END;
        }

        protected boolean accept(String keyword) {
            if (peek().is(keyword)) {
                at++;
                return true;
            }
            return false;
        }

        protected boolean acceptAny(String... keywords) {
            if (peek().isAny(keywords)) {
                at++;
                return true;
            }
            return false;
        }
    }

    static List<Token> of(String sql) {
        return of(sql, Integer.MAX_VALUE);
    }

    /** The first {@code limit} tokens of {@code sql}: a scanner that needs only the head. */
    static List<Token> of(String sql, int limit) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n && out.size() < limit) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || (c == '-' && sql.startsWith("--", i))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                // Versioned comment: its body is SQL. Skip the marker and version number.
                i += sql.charAt(i + 2) == 'M' ? 4 : 3;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (sql.startsWith("*/", i)) {
                i += 2;
            } else if (c == '`' || c == '\'' || c == '"') {
                StringBuilder text = new StringBuilder();
                i++;
                while (i < n) {
                    char d = sql.charAt(i);
                    if (d == c && i + 1 < n && sql.charAt(i + 1) == c) {
                        text.append(c);
                        i += 2;
                    } else if (d == c) {
                        i++;
                        break;
                    } else if (d == '\\' && c != '`' && i + 1 < n) {
                        text.append(sql.charAt(i + 1));
                        i += 2;
                    } else {
                        text.append(d);
                        i++;
                    }
                }
                out.add(new Token(text.toString(), c == '`', c != '`'));
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i))
                                || sql.charAt(i) == '_'
                                || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(sql.substring(start, i), false, false));
            } else {
                out.add(new Token(String.valueOf(c), false, false));
                i++;
            }
        }
        return out;
    }
}

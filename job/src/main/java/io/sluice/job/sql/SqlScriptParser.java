package io.sluice.job.sql;

import org.apache.flink.annotation.Internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at each {@code ;} that is outside a string literal ({@code
 * '...'} with {@code ''} escapes), a quoted identifier ({@code `...`} or {@code "..."}), a line
 * comment ({@code -- ...}) or a block comment ({@code /* ... *}{@code /}). Comments are dropped
 * (newlines kept, so Flink's positions within a statement stay right); empty statements are
 * skipped.
 */
@Internal
public final class SqlScriptParser {

    private SqlScriptParser() {}

    public static List<SqlStatement> split(String script) {
        List<SqlStatement> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int line = 1;
        int startLine = -1;
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException(
                            "The block comment opened at line " + line + " is never closed");
                }
                for (int j = i; j < end; j++) {
                    if (script.charAt(j) == '\n') {
                        current.append('\n');
                        line++;
                    }
                }
                current.append(' ');
                i = end + 2;
                continue;
            }
            if (c == '\'' || c == '`' || c == '"') {
                int open = line;
                if (startLine < 0) {
                    startLine = line;
                }
                current.append(c);
                i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException(
                                "The quote " + c + " opened at line " + open + " is never closed");
                    }
                    char q = script.charAt(i);
                    current.append(q);
                    i++;
                    if (q == '\n') {
                        line++;
                    }
                    if (q == c) {
                        // A doubled quote is an escaped quote, not the end.
                        if (i < n && script.charAt(i) == c) {
                            current.append(c);
                            i++;
                        } else {
                            break;
                        }
                    }
                }
                continue;
            }
            if (c == ';') {
                add(statements, current, startLine);
                current.setLength(0);
                startLine = -1;
                i++;
                continue;
            }
            if (c == '\n') {
                line++;
            } else if (!Character.isWhitespace(c) && startLine < 0) {
                startLine = line;
            }
            if (startLine >= 0 || !Character.isWhitespace(c)) {
                current.append(c);
            }
            i++;
        }
        add(statements, current, startLine);
        return statements;
    }

    private static void add(List<SqlStatement> statements, StringBuilder text, int line) {
        String statement = text.toString().strip();
        if (!statement.isEmpty()) {
            statements.add(new SqlStatement(statement, statements.size() + 1, line));
        }
    }
}

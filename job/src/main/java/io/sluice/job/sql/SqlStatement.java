package io.sluice.job.sql;

import org.apache.flink.annotation.Internal;

/** One statement of a script: its text (comments removed) and where it starts. */
@Internal
public final class SqlStatement {

    private final String text;
    private final int number;
    private final int line;

    SqlStatement(String text, int number, int line) {
        this.text = text;
        this.number = number;
        this.line = line;
    }

    public String text() {
        return text;
    }

    /** 1-based position among the script's statements. */
    public int number() {
        return number;
    }

    /** 1-based line of the script where the statement starts. */
    public int line() {
        return line;
    }

    /** "statement 3 (line 12: INSERT INTO mq SELECT ...)", for error messages. */
    public String describe() {
        String first = text.strip().split("\\R", 2)[0];
        if (first.length() > 80) {
            first = first.substring(0, 77) + "...";
        }
        return "statement " + number + " (line " + line + ": " + first + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}

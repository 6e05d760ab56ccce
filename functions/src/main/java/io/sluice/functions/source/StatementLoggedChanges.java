package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What the binlog reader does with a change of a captured table that the binlog holds as a SQL
 * statement instead of rows ({@link MySqlSourceOptions#STATEMENT_LOGGED_CHANGES}).
 */
@PublicEvolving
public enum StatementLoggedChanges {
    /** Fail the source, naming the table, the statement and its position. */
    FAIL("fail"),
    /** Pass over the statement, whose rows are then missing, with a warning and a count. */
    SKIP("skip");

    private final String value;

    StatementLoggedChanges(String value) {
        this.value = value;
    }

    @Override
    public String toString() {
        return value;
    }
}

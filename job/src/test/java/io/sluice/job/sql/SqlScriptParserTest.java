package io.sluice.job.sql;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlScriptParserTest {

    @Test
    void splitsAtSemicolonsOutsideStringsIdentifiersAndComments() {
        String script =
                "-- a comment; with a semicolon\n"
                        + "SET 'pipeline.name' = 'it''s; fine';\n"
                        + "\n"
                        + "/* block; comment\n spanning lines */ CREATE TABLE `a;b` (x INT)\n"
                        + "  WITH ('connector' = 'x');  -- trailing\n"
                        + "INSERT INTO t SELECT \"c;d\" FROM s\n";
        List<SqlStatement> statements = SqlScriptParser.split(script);
        assertThat(statements)
                .extracting(SqlStatement::text)
                .containsExactly(
                        "SET 'pipeline.name' = 'it''s; fine'",
                        "CREATE TABLE `a;b` (x INT)\n  WITH ('connector' = 'x')",
                        "INSERT INTO t SELECT \"c;d\" FROM s");
        assertThat(statements).extracting(SqlStatement::line).containsExactly(2, 5, 7);
        assertThat(statements).extracting(SqlStatement::number).containsExactly(1, 2, 3);
    }

    @Test
    void onlyCommentsAndBlanksMakeNoStatement() {
        assertThat(SqlScriptParser.split("-- nothing\n ; ;\n/* x */")).isEmpty();
    }

    @Test
    void unclosedQuoteNamesItsLine() {
        assertThatThrownBy(() -> SqlScriptParser.split("SELECT 1;\nSELECT 'oops"))
                .hasMessage("The quote ' opened at line 2 is never closed");
    }

    @Test
    void describeShowsNumberLineAndFirstLine() {
        SqlStatement statement = SqlScriptParser.split("\n\nINSERT INTO mq\nSELECT 1").get(0);
        assertThat(statement.describe()).isEqualTo("statement 1 (line 3: INSERT INTO mq)");
    }
}

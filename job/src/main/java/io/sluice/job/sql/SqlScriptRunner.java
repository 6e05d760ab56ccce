package io.sluice.job.sql;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a Sluice SQL script: {@code SET 'key' = 'value'} statements configure the job, every other
 * statement but INSERT runs as it comes, and every INSERT (plain, or inside {@code EXECUTE
 * STATEMENT SET BEGIN ... END}) joins ONE statement set, so all of them share one binlog reader per
 * source table and run as one job. Each INSERT is planned on its own first, so a bad one is
 * reported by its position in the script rather than as a failure of the whole set.
 *
 * <p>{@code ${NAME}} in a statement is replaced by the value given as {@code --define NAME=value},
 * {@code ${env:NAME}} by the environment variable, so secrets stay out of scripts.
 */
@Internal
public final class SqlScriptRunner {

    private static final Pattern SET =
            Pattern.compile("(?is)SET\\s+'((?:[^']|'')+)'\\s*=\\s*'((?:[^']|'')*)'");
    private static final Pattern BAD_SET = Pattern.compile("(?is)(SET|RESET)(\\s.*)?");
    private static final Pattern BLOCK_START =
            Pattern.compile(
                    "(?is)(?:EXECUTE\\s+STATEMENT\\s+SET|BEGIN\\s+STATEMENT\\s+SET)\\s*(?:BEGIN\\b)?(.*)");
    private static final Pattern INSERT = Pattern.compile("(?is)INSERT\\s.*");
    private static final Pattern INSERT_TARGET =
            Pattern.compile("(?is)INSERT\\s+(?:INTO|OVERWRITE)\\s+([`\\w.]+).*");
    private static final Pattern PLACEHOLDER =
            Pattern.compile("\\$\\{(env:)?([A-Za-z_][A-Za-z0-9_.-]*)}");

    private final List<SqlStatement> statements;
    private final Configuration settings = new Configuration();

    private SqlScriptRunner(List<SqlStatement> statements) {
        this.statements = statements;
    }

    /**
     * Parses {@code script} and resolves its placeholders.
     *
     * @param defines the values of {@code ${NAME}}
     * @param environment the values of {@code ${env:NAME}}
     */
    public static SqlScriptRunner parse(
            String script, Map<String, String> defines, Map<String, String> environment) {
        List<SqlStatement> resolved = new ArrayList<>();
        for (SqlStatement statement : SqlScriptParser.split(script)) {
            resolved.add(
                    new SqlStatement(
                            resolve(statement, defines, environment),
                            statement.number(),
                            statement.line()));
        }
        SqlScriptRunner runner = new SqlScriptRunner(resolved);
        for (SqlStatement statement : resolved) {
            Matcher set = SET.matcher(statement.text());
            if (set.matches()) {
                runner.settings.setString(unquote(set.group(1)), unquote(set.group(2)));
            } else if (BAD_SET.matcher(statement.text()).matches()) {
                throw new SqlScriptException(
                        statement,
                        "SET takes the form SET 'key' = 'value' (both quoted); RESET is not"
                                + " supported",
                        null);
            }
        }
        return runner;
    }

    /** The statements, placeholders resolved. */
    public List<SqlStatement> statements() {
        return statements;
    }

    /**
     * The job configuration: Sluice's defaults (no Kryo, object reuse, checkpoints every 10 s)
     * under the script's SET statements.
     */
    public Configuration configuration() {
        Configuration config = new Configuration();
        config.set(PipelineOptions.GENERIC_TYPES, false);
        // Rows pass the change by reference along chains; copying would serialize it per operator.
        config.set(PipelineOptions.OBJECT_REUSE, true);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(10));
        config.addAll(settings);
        return config;
    }

    /**
     * Runs the DDL on {@code tables} and returns the statement set of every INSERT, each already
     * planned once on its own; execute it, or attach it to the environment.
     */
    public StreamStatementSet plan(StreamTableEnvironment tables) {
        settings.toMap().forEach((k, v) -> tables.getConfig().getConfiguration().setString(k, v));
        StreamStatementSet set = tables.createStatementSet();
        List<SqlStatement> inserts = new ArrayList<>();
        boolean inBlock = false;
        for (SqlStatement statement : statements) {
            String text = statement.text();
            if (SET.matcher(text).matches()) {
                continue;
            }
            Matcher block = BLOCK_START.matcher(text);
            if (block.matches()) {
                if (inBlock) {
                    throw new SqlScriptException(
                            statement, "a statement set cannot open inside another", null);
                }
                inBlock = true;
                text = block.group(1).strip();
                if (text.isEmpty()) {
                    continue;
                }
            } else if (inBlock && text.equalsIgnoreCase("END")) {
                inBlock = false;
                continue;
            }
            SqlStatement current = new SqlStatement(text, statement.number(), statement.line());
            if (INSERT.matcher(text).matches()) {
                checkOneInsertPerTable(current, inserts);
                plan(tables, current);
                set.addInsertSql(text);
                inserts.add(current);
            } else if (inBlock) {
                throw new SqlScriptException(
                        current, "a statement set holds only INSERT statements", null);
            } else {
                try {
                    tables.executeSql(text);
                } catch (RuntimeException e) {
                    throw new SqlScriptException(current, "Flink refused it", e);
                }
            }
        }
        if (inBlock) {
            throw new SqlScriptException("The script's statement set is never closed with END");
        }
        if (inserts.isEmpty()) {
            throw new SqlScriptException(
                    "The script has no INSERT statement, so there is no job to run");
        }
        return set;
    }

    /**
     * Two INSERTs into one table make two sinks with the table's transactional-id prefix, which
     * fence each other's Kafka transactions: refused, with the way out.
     */
    private static void checkOneInsertPerTable(SqlStatement insert, List<SqlStatement> earlier) {
        String target = targetOf(insert);
        for (SqlStatement other : earlier) {
            if (target != null && target.equals(targetOf(other))) {
                throw new SqlScriptException(
                        insert,
                        "it writes to "
                                + target
                                + " like "
                                + other.describe()
                                + "; one table takes one INSERT (its sink's transactional ids"
                                + " would collide): combine the queries with UNION ALL, or"
                                + " write to a second table with its own"
                                + " 'transactional-id-prefix'",
                        null);
            }
        }
    }

    private static String targetOf(SqlStatement insert) {
        Matcher m = INSERT_TARGET.matcher(insert.text());
        return m.matches() ? m.group(1).replace("`", "").toLowerCase(java.util.Locale.ROOT) : null;
    }

    private static void plan(StreamTableEnvironment tables, SqlStatement insert) {
        try {
            tables.explainSql(insert.text());
        } catch (RuntimeException e) {
            throw new SqlScriptException(insert, "the INSERT cannot be planned", e);
        }
    }

    private static String resolve(
            SqlStatement statement, Map<String, String> defines, Map<String, String> env) {
        Matcher m = PLACEHOLDER.matcher(statement.text());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            boolean fromEnv = m.group(1) != null;
            String name = m.group(2);
            String value = fromEnv ? env.get(name) : defines.get(name);
            if (value == null) {
                throw new SqlScriptException(
                        statement,
                        fromEnv
                                ? "the environment variable '" + name + "' is not set"
                                : "'${"
                                        + name
                                        + "}' has no value; give it as --define "
                                        + name
                                        + "=value",
                        null);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String unquote(String quoted) {
        return quoted.replace("''", "'");
    }

    /** The job name: {@code pipeline.name} if the script sets it, else {@code fallback}. */
    public String jobName(String fallback) {
        return settings.getOptional(PipelineOptions.NAME).orElse(fallback);
    }
}

package io.sluice.job.sql;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.SinkModifyOperation;

import io.sluice.functions.table.SinkClaim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
        Map<SinkClaim, SqlStatement> claimed = new LinkedHashMap<>();
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
                checkClaim(tables, current, claimed);
                plan(tables, current);
                set.addInsertSql(text);
                if (!inserts.isEmpty()) {
                    planTogether(set, current, inserts);
                }
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
     * Refuses an INSERT whose sink claims what an earlier INSERT's sink claimed (an exactly-once
     * sink's transactional-id prefix or producer group, {@link SinkClaim}): checked on the parsed
     * statement, before planning, so the error names both statements. The connectors check it again
     * when the statement set is translated, which covers Flink's SQL client too.
     */
    private static void checkClaim(
            StreamTableEnvironment tables,
            SqlStatement insert,
            Map<SinkClaim, SqlStatement> claimed) {
        Optional<SinkClaim> claim = claimOf(tables, insert);
        if (claim.isEmpty()) {
            return;
        }
        for (Map.Entry<SinkClaim, SqlStatement> earlier : claimed.entrySet()) {
            if (claim.get().collidesWith(earlier.getKey())) {
                throw new SqlScriptException(
                        insert,
                        "its sink collides with that of "
                                + earlier.getValue().describe()
                                + ": "
                                + claim.get().conflictWith(earlier.getKey()),
                        null);
            }
        }
        claimed.put(claim.get(), insert);
    }

    private static Optional<SinkClaim> claimOf(StreamTableEnvironment tables, SqlStatement insert) {
        List<Operation> operations;
        try {
            operations = ((TableEnvironmentInternal) tables).getParser().parse(insert.text());
        } catch (RuntimeException e) {
            throw new SqlScriptException(insert, "the INSERT cannot be planned", e);
        }
        for (Operation operation : operations) {
            if (operation instanceof SinkModifyOperation) {
                ContextResolvedTable target =
                        ((SinkModifyOperation) operation).getContextResolvedTable();
                return SinkClaim.of(target.getIdentifier(), target.getResolvedTable().getOptions());
            }
        }
        return Optional.empty();
    }

    private static void plan(StreamTableEnvironment tables, SqlStatement insert) {
        try {
            tables.explainSql(insert.text());
        } catch (RuntimeException e) {
            throw new SqlScriptException(insert, "the INSERT cannot be planned", e);
        }
    }

    /**
     * Plans the statement set with {@code insert} added to the {@code earlier} ones, so that what
     * only the whole set can check (a sink table fed by two change tables, two change tables with
     * one server id, see the connectors) names the statement that broke it.
     */
    private static void planTogether(
            StreamStatementSet set, SqlStatement insert, List<SqlStatement> earlier) {
        try {
            set.explain();
        } catch (RuntimeException e) {
            throw new SqlScriptException(
                    insert,
                    "it cannot run in one job with "
                            + (earlier.size() == 1
                                    ? earlier.get(0).describe()
                                    : "statements "
                                            + earlier.stream()
                                                    .map(s -> Integer.toString(s.number()))
                                                    .collect(Collectors.joining(", "))),
                    e);
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

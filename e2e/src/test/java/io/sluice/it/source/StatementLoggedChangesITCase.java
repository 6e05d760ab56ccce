package io.sluice.it.source;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A session that sets {@code binlog_format='STATEMENT'} on a server whose format is ROW writes its
 * INSERT into a captured table as SQL text, with no rows event: the reader fails naming the table,
 * the statement, its position and the option, again after a restart at a position before it; with
 * {@code source.statement-logged-changes: skip} it passes the statement over, counted, and the ROW
 * changes around it come once, in order. A statement-logged INSERT into a table that is not
 * captured is passed over either way. On MariaDB and MySQL 8 at the reader; a job on MariaDB fails
 * once (no restart loop) and counts the skip in its metric.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StatementLoggedChangesITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final InMemoryReporter METRICS = InMemoryReporter.create();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(1, METRICS.addToConfiguration(new Configuration()));

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String STATEMENT = "INSERT INTO t VALUES (2, 'statement')";
    private static final ChangeEventQueue QUEUE = new ChangeEventQueue();

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void theReaderFailsOnAStatementOfACapturedTableAndSkipsItWhenToldTo(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        Written written = write(server, "stmt_reader");

        ReaderRun skipping =
                ReaderRun.read(
                        server, written.database, written.start, StatementLoggedChanges.SKIP);
        assertThat(skipping.keys())
                .as("the ROW changes around the statement, once, in order")
                .containsExactly(
                        "t INSERT null [\"1\", \"row\"]",
                        "t INSERT null [\"3\", \"row\"]",
                        "marker INSERT null [\"1\"]");
        assertThat(skipping.skipped).as("statements passed over").containsExactly(STATEMENT);

        // From the start, and from the position after the row before it (a checkpoint's): the
        // same failure, naming the table, the statement, where it is and the option.
        BinlogPosition afterFirstRow = skipping.changes.get(0).after;
        String failure = failure(server, written.database, written.start);
        assertThat(failure)
                .contains(
                        "captured table " + written.database + ".t as a SQL statement",
                        "at " + written.statementAt,
                        ": " + STATEMENT + ".",
                        "binlog_format=ROW",
                        "set 'source.statement-logged-changes' = 'skip'")
                .doesNotContain("stmt_other");
        assertThat(failure(server, written.database, afterFirstRow))
                .as("after a restart at %s", afterFirstRow)
                .isEqualTo(failure);
    }

    /**
     * A LOAD DATA logged as a statement comes as an Execute_load_query event, not a query event:
     * met the same way as an INSERT (MariaDB, whose root may read a file on the server's disk).
     */
    @Test
    void aLoadDataLoggedAsAStatementIsMetLikeAnInsert() throws Exception {
        DatabaseServer server = SERVERS.mariaDb();
        String database = server.createDatabase("stmt_load", null);
        server.execute(
                database,
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))",
                "CREATE TABLE marker (id INT PRIMARY KEY)");
        Path file = server.workDir().resolve(database + ".tsv");
        Files.writeString(file, "5\tloaded\n6\tloaded\n");
        BinlogPosition start = ReaderRun.current(server);
        server.execute(
                database,
                "INSERT INTO t VALUES (1, 'row')",
                "SET SESSION binlog_format = 'STATEMENT'",
                "LOAD DATA INFILE '" + file.toAbsolutePath() + "' INTO TABLE t",
                "SET SESSION binlog_format = 'ROW'",
                "INSERT INTO t VALUES (3, 'row')",
                "INSERT INTO marker VALUES (1)");

        ReaderRun skipping = ReaderRun.read(server, database, start, StatementLoggedChanges.SKIP);
        assertThat(skipping.keys())
                .containsExactly(
                        "t INSERT null [\"1\", \"row\"]",
                        "t INSERT null [\"3\", \"row\"]",
                        "marker INSERT null [\"1\"]");
        assertThat(skipping.skipped)
                .as("statements passed over")
                .singleElement()
                .asString()
                .startsWith("LOAD DATA")
                .contains("INTO TABLE `t`");
        assertThat(failure(server, database, start))
                .contains("captured table " + database + ".t as a SQL statement", "LOAD DATA");
    }

    /**
     * The job fails once, FAILED and not restarted although its restart strategy would, with the
     * reader's message; with skip, its metric counts the statement.
     */
    @Test
    void aJobFailsOnceAndWithSkipCountsTheStatement(@InjectClusterRESTAddress URI rest)
            throws Exception {
        DatabaseServer server = SERVERS.mariaDb();
        Written written = write(server, "stmt_job");

        JobClient failing = startJob(server, written, StatementLoggedChanges.FAIL, 5611);
        assertThatThrownBy(
                        () ->
                                failing.getJobExecutionResult()
                                        .get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .satisfies(
                        e -> {
                            Optional<SourceSetupException> cause =
                                    ExceptionUtils.findThrowable(e, SourceSetupException.class);
                            assertThat(cause).as("the source's setup error").isPresent();
                            assertThat(cause.get().getMessage())
                                    .contains(
                                            written.database + ".t",
                                            STATEMENT,
                                            written.statementAt,
                                            "'source.statement-logged-changes' = 'skip'");
                        });
        JobExceptions exceptions = JobExceptions.of(rest, failing.getJobID());
        assertThat(exceptions.failures()).as("failed once, never restarted").isEqualTo(1);
        assertThat(exceptions.rootException()).contains(written.database + ".t", STATEMENT);

        QUEUE.clear();
        JobClient skipping = startJob(server, written, StatementLoggedChanges.SKIP, 5612);
        try {
            List<String> rows =
                    QUEUE.takeThrough(skipping, e -> e.table().equals("marker"), WAIT).stream()
                            .filter(ChangeEvent::isRow)
                            .map(e -> e.table() + " " + e.after())
                            .collect(Collectors.toList());
            assertThat(rows)
                    .as("the ROW changes around the statement, once, in order")
                    .containsExactly("t [\"1\", \"row\"]", "t [\"3\", \"row\"]", "marker [\"1\"]");
            assertThat(skippedCount(skipping.getJobID())).as("the skip metric").isEqualTo(1);
        } finally {
            skipping.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** The binlog this class reads and where: a captured table's statement between ROW writes. */
    private static final class Written {
        final String database;
        final BinlogPosition start;

        /** {@code file:position} of the statement's query event. */
        final String statementAt;

        Written(String database, BinlogPosition start, String statementAt) {
            this.database = database;
            this.start = start;
            this.statementAt = statementAt;
        }
    }

    private static Written write(DatabaseServer server, String prefix) throws Exception {
        String database = server.createDatabase(prefix, null);
        String other = server.createDatabase("stmt_other", null);
        String table = "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20))";
        server.execute(database, table, "CREATE TABLE marker (id INT PRIMARY KEY)");
        server.execute(other, table);
        BinlogPosition start = ReaderRun.current(server);
        server.execute(
                database,
                "INSERT INTO t VALUES (1, 'row')",
                // Allowed while the server's format is ROW; this session's DML is logged as text.
                "SET SESSION binlog_format = 'STATEMENT'",
                "INSERT INTO " + other + ".t VALUES (1, 'statement')",
                STATEMENT,
                "SET SESSION binlog_format = 'ROW'",
                "INSERT INTO t VALUES (3, 'row')",
                "INSERT INTO marker VALUES (1)");
        return new Written(database, start, queryEventAt(server, start, STATEMENT));
    }

    /**
     * {@code file:position} of the query event from {@code start} on whose text has {@code sql}.
     */
    private static String queryEventAt(DatabaseServer server, BinlogPosition start, String sql)
            throws Exception {
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet events =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + start.file()
                                        + "' FROM "
                                        + start.position())) {
            while (events.next()) {
                if (events.getString("Event_type").equals("Query")
                        && events.getString("Info").endsWith(sql)) {
                    return events.getString("Log_name") + ":" + events.getLong("Pos");
                }
            }
        }
        throw new AssertionError("No query event '" + sql + "' in the binlog from " + start);
    }

    /** The message the reader from {@code start} fails with. */
    private static String failure(DatabaseServer server, String database, BinlogPosition start) {
        Throwable thrown =
                catchThrowable(
                        () -> ReaderRun.read(server, database, start, StatementLoggedChanges.FAIL));
        assertThat(thrown)
                .as("the reader from %s", start)
                .isNotNull()
                .hasCauseInstanceOf(SourceSetupException.class);
        return thrown.getCause().getMessage();
    }

    private static JobClient startJob(
            DatabaseServer server, Written written, StatementLoggedChanges action, int serverId)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        // Restarts allowed: a setup error must not use them.
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        jobConfig.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        env.configure(jobConfig);
        env.setParallelism(1);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(
                                source(server, written, action, serverId)),
                        WatermarkStrategy.noWatermarks(),
                        "reader-sluice")
                .sinkTo(QUEUE.sink())
                .name("queue");
        return env.executeAsync("statement-" + action + "-" + written.database);
    }

    private static OptionSection source(
            DatabaseServer server, Written written, StatementLoggedChanges action, int serverId) {
        Configuration config =
                SourceConfigs.startingAt(
                        SourceConfigs.connection(server, written.database + "\\..*"),
                        written.start.file(),
                        written.start.position());
        config.set(MySqlSourceOptions.SERVER_ID, String.valueOf(serverId));
        config.set(MySqlSourceOptions.READER, SourceReaderKind.SLUICE);
        config.set(MySqlSourceOptions.STATEMENT_LOGGED_CHANGES, action);
        return SourceConfigs.underSource(config);
    }

    /** The source's {@code sluice.statementLoggedChangesSkipped}. */
    private static long skippedCount(JobID job) {
        Map<String, Metric> found =
                METRICS.findMetrics(
                        job, ".*reader-sluice.*\\.sluice\\.statementLoggedChangesSkipped");
        assertThat(found).as("the metric, once").hasSize(1);
        return ((Counter) found.values().iterator().next()).getCount();
    }
}

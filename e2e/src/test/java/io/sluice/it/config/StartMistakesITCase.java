package io.sluice.it.config;

import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.internal.CheckedSource;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.LoopbackProxy;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlExtension;
import io.sluice.job.SluiceValidate;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Mistakes in the source's settings that only the database can tell stop the job when it first
 * starts, once, with the option, its value and the fix (FAILED, not a restart loop), and {@code
 * ./sluice validate} says the same: a 'tables' pattern that matches no table or names a database
 * that does not exist, a 'server-time-zone' that is not the server's, an unknown host or a port
 * nothing listens on. A database that goes away after the first start stays a recoverable failure.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StartMistakesITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void aTablePatternThatMatchesNoTable(
            DatabaseServer.Kind kind, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer server = server(kind);
        String database = server.createDatabase("unmatched", "ddl/counters.sql");
        String pattern = database + "\\.nothing_.*";
        assertRefused(
                rest,
                server,
                database + "\\.counters;" + pattern,
                "unmatched-" + database,
                List.of(),
                "Option 'source.tables' has '"
                        + pattern
                        + "', which matches no table that user '"
                        + server.cdcUser()
                        + "' can see on the server at "
                        + server.host()
                        + ":"
                        + server.port()
                        + "; '"
                        + database
                        + "' has counters: correct the pattern, create the tables before the job"
                        + " starts, or GRANT SELECT on them to '"
                        + server.cdcUser()
                        + "'.");
    }

    @Test
    void aTablePatternWhoseTablesAreAllExcluded(@InjectClusterRESTAddress URI rest)
            throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("excluded", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database + "\\..*",
                "excluded-" + database,
                List.of("source.tables-exclude=" + database + "\\.counters"),
                "Option 'source.tables' has '" + database + "\\..*', which matches no table",
                "(every table it matches is excluded by 'source.tables-exclude')");
    }

    @Test
    void aDatabaseThatDoesNotExist(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("present", "ddl/counters.sql");
        String missing = "absent_" + database.substring(database.length() - 6);
        assertRefused(
                rest,
                server,
                database + "\\.counters;" + missing + "\\.orders",
                "absent-" + database,
                List.of(),
                "Option 'source.tables' names database '"
                        + missing
                        + "' (in '"
                        + missing
                        + "\\.orders'), which user '"
                        + server.cdcUser()
                        + "' cannot see on the server at "
                        + server.host()
                        + ":"
                        + server.port()
                        + ": it does not exist, or the user has no privilege in it (it sees ",
                "Correct the name, create the database and its tables before the job starts, or"
                        + " GRANT SELECT ON `"
                        + missing
                        + "`.* TO '"
                        + server.cdcUser()
                        + "'.");
    }

    /** The test servers run at +00:00; Tokyo is nine hours ahead all year. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void aServerTimeZoneThatIsNotTheServers(
            DatabaseServer.Kind kind, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer server = server(kind);
        assertThat(server.timeZone()).isIn("UTC", "+00:00", "Z");
        String database = server.createDatabase("zone", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database + "\\..*",
                "zone-" + database,
                List.of("source.server-time-zone=Asia/Tokyo"),
                "Option 'source.server-time-zone' is 'Asia/Tokyo' (UTC+09:00 now), but the server"
                        + " at "
                        + server.host()
                        + ":"
                        + server.port()
                        + " runs at UTC+00:00 (time_zone +00:00, system_time_zone ",
                "so time values would be read shifted and the CDC source refuses to start: leave"
                        + " it unset (its default, 'UTC', agrees with the server).");
    }

    @Test
    void anUnknownHost(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("nohost", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database + "\\..*",
                "nohost-" + database,
                List.of("source.hostname=no-such-host.invalid"),
                "Option 'source.hostname' is 'no-such-host.invalid', a host name that does not"
                        + " resolve (unknown host): set it to the database server's host name or"
                        + " IP address.");
    }

    @Test
    void aPortNothingListensOn(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("noport", "ddl/counters.sql");
        int closed = FreePorts.next();
        assertRefused(
                rest,
                server,
                database + "\\..*",
                "noport-" + database,
                List.of("source.hostname=127.0.0.1", "source.port=" + closed),
                "Nothing accepts connections at 127.0.0.1:"
                        + closed
                        + " (connection refused): check that option 'source.port' ("
                        + closed
                        + ") is the port the database listens on, option 'source.hostname'"
                        + " ('127.0.0.1') its host, and that the database runs.");
    }

    /**
     * Once the source reached the database, the database going away is a failure Flink's restart
     * strategy retries: after a first start (the same source's enumerator created again, as on a
     * global failover before any checkpoint) and on a restore. Only a first start fails for good.
     */
    @Test
    void aDatabaseThatGoesAwayAfterTheFirstStartStaysRecoverable() throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("goesaway", "ddl/counters.sql");
        try (LoopbackProxy forwarder = new LoopbackProxy(server.port())) {
            Configuration config =
                    EmbeddedJobs.config(
                            server,
                            KAFKA.server(),
                            database + "\\..*",
                            "goesaway-" + database,
                            "source.hostname=127.0.0.1",
                            "source.port=" + forwarder.port());
            CheckedSource<Long, NumberSequenceSplit, Collection<NumberSequenceSplit>> started =
                    checkedSource(config);
            assertThat(started.createEnumerator(null)).isNotNull();
            CheckedSource<Long, NumberSequenceSplit, Collection<NumberSequenceSplit>> restored =
                    checkedSource(config);
            CheckedSource<Long, NumberSequenceSplit, Collection<NumberSequenceSplit>> neverStarted =
                    checkedSource(config);

            forwarder.goAway();

            assertThatThrownBy(() -> started.createEnumerator(null))
                    .as("created again after a first start")
                    .isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(
                            "Cannot connect to the database at 127.0.0.1:" + forwarder.port());
            assertThatThrownBy(() -> restored.restoreEnumerator(null, new ArrayList<>()))
                    .as("restored from a checkpoint")
                    .isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(
                            "Cannot connect to the database at 127.0.0.1:" + forwarder.port());
            assertThatThrownBy(() -> neverStarted.createEnumerator(null))
                    .as("a first start")
                    .isExactlyInstanceOf(SourceSetupException.class)
                    .hasMessageContaining(
                            "Nothing accepts connections at 127.0.0.1:"
                                    + forwarder.port()
                                    + " (connection refused)");
        }
    }

    /** The job's source check around a source that needs nothing of the database. */
    private static CheckedSource<Long, NumberSequenceSplit, Collection<NumberSequenceSplit>>
            checkedSource(Configuration config) {
        return CheckedSource.of(
                new NoSplits(),
                MySqlSourceFactory.serverCheck(PipelineSections.of(config).source()));
    }

    /** A number sequence source whose enumerators hand out nothing. */
    private static final class NoSplits extends NumberSequenceSource {

        private static final long serialVersionUID = 1L;

        NoSplits() {
            super(1, 1);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>>
                createEnumerator(SplitEnumeratorContext<NumberSequenceSplit> context) {
            return new Idle();
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>>
                restoreEnumerator(
                        SplitEnumeratorContext<NumberSequenceSplit> context,
                        Collection<NumberSequenceSplit> checkpoint) {
            return new Idle();
        }
    }

    /** An enumerator that hands out nothing. */
    private static final class Idle
            implements SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> {

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<NumberSequenceSplit> splits, int subtaskId) {}

        @Override
        public void addReader(int subtaskId) {}

        @Override
        public Collection<NumberSequenceSplit> snapshotState(long checkpointId) {
            return new ArrayList<>();
        }

        @Override
        public void close() {}
    }

    private static DatabaseServer server(DatabaseServer.Kind kind) {
        return kind == DatabaseServer.Kind.MARIADB ? MARIADB.server() : MYSQL.server();
    }

    /**
     * The job fails once, not restarting, with every {@code expected} text in its root exception,
     * and {@code ./sluice validate} reports the same and exits 1.
     */
    private static void assertRefused(
            URI rest,
            DatabaseServer server,
            String tables,
            String topic,
            List<String> overrides,
            String... expected)
            throws Exception {
        String[] args =
                EmbeddedJobs.args(
                        server, KAFKA.server(), tables, topic, overrides.toArray(String[]::new));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit =
                SluiceValidate.run(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        args);
        String report = err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("validate's exit code; it said: %s", report).isEqualTo(1);
        assertThat(report.lines())
                .as("validate's report")
                .singleElement()
                .satisfies(line -> assertThat(line).startsWith("source: ").contains(expected));

        String root =
                RefusedStart.assertFailsOnce(
                        rest,
                        args,
                        topic,
                        expected[0],
                        message ->
                                assertThat("source: " + message)
                                        .as("the job's message is validate's line")
                                        .isEqualTo(report.strip()));
        assertThat(report + root)
                .as("no password in any message")
                .doesNotContain(server.cdcPassword());
    }
}

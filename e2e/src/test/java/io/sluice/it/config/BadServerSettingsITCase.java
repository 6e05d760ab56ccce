package io.sluice.it.config;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.pipeline.Delivered;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.FreePorts;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database that cannot feed the job as configured stops it when it starts, once, with a message
 * that says what, where and how to fix it (FAILED, not a restart loop), and {@code ./sluice
 * validate} says the same before anything is submitted: the binlog off, STATEMENT format, MINIMAL
 * row images, a user without the binlog privileges and a wrong password (on MariaDB and on MySQL 8,
 * the shared server), MySQL 8 roles without REPLICATION SLAVE or not active at login, a purged
 * start file, a table without primary key and no chunk key column, statement texts asked of
 * MariaDB. A table without primary key snapshots with a chunk key column.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BadServerSettingsITCase {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            MariaDbExtension.own(
                    "SET GLOBAL binlog_format and binlog_row_image; a user of its own");

    @RegisterExtension
    static final MariaDbExtension NO_BINLOG =
            MariaDbExtension.own("a server without a binlog", "--skip-log-bin");

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();

    @RegisterExtension
    static final MySqlExtension MYSQL_TLS_ONLY =
            MySqlExtension.own("SET GLOBAL require_secure_transport");

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void theBinlogOff(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = NO_BINLOG.server();
        String database = server.createDatabase("nobinlog", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database,
                List.of(),
                "The binlog is off on the server at " + server.host() + ":" + server.port(),
                "--log-bin");
    }

    @Test
    void statementFormatAndMinimalRowImages(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("format", "ddl/counters.sql");
        server.execute(null, "SET GLOBAL binlog_format = 'STATEMENT'");
        try {
            assertRefused(
                    rest,
                    server,
                    database,
                    List.of(),
                    "binlog_format is STATEMENT on the server at",
                    "set binlog_format=ROW");
        } finally {
            server.execute(null, "SET GLOBAL binlog_format = 'ROW'");
        }
        server.execute(null, "SET GLOBAL binlog_row_image = 'MINIMAL'");
        try {
            assertRefused(
                    rest,
                    server,
                    database,
                    List.of(),
                    "binlog_row_image is MINIMAL on the server at",
                    "only the changed columns and the key",
                    "Set binlog_row_image=FULL");
        } finally {
            server.execute(null, "SET GLOBAL binlog_row_image = 'FULL'");
        }
    }

    /**
     * MariaDB and MySQL name the privilege for the binlog position differently; MySQL 8's
     * caching_sha2_password refuses a wrong password as MariaDB's native one does.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void aUserWithoutBinlogPrivilegesAndAWrongPassword(
            DatabaseServer.Kind kind, @InjectClusterRESTAddress URI rest) throws Exception {
        DatabaseServer server =
                kind == DatabaseServer.Kind.MARIADB ? MARIADB.server() : MYSQL.server();
        String database = server.createDatabase("grants", "ddl/counters.sql");
        String user = "reader_" + database.substring(database.length() - 6);
        server.createUser(user, "reader-pw", "SELECT, RELOAD, SHOW DATABASES");
        assertRefused(
                rest,
                server,
                database,
                List.of("source.username=" + user, "source.password=reader-pw"),
                "User '" + user + "' may not read the binlog position",
                kind == DatabaseServer.Kind.MARIADB
                        ? "GRANT BINLOG MONITOR ON *.* TO '" + user + "'"
                        : "GRANT REPLICATION CLIENT ON *.* TO '" + user + "'",
                "GRANT REPLICATION SLAVE ON *.* TO '" + user + "'");
        assertRefused(
                rest,
                server,
                database,
                List.of("source.password=not-the-password"),
                "refuses user 'cdc'",
                "Check 'source.username' and 'source.password'");
    }

    /**
     * MySQL 8 roles: SHOW GRANTS lists the privileges of the roles active at login, so a role's
     * grant is no proof of the privilege. A role without REPLICATION SLAVE is refused before the
     * binlog dump would be; a role granted but not active names SET DEFAULT ROLE.
     */
    @Test
    void mySqlRolesWithoutReplicationSlaveOrNotActive(@InjectClusterRESTAddress URI rest)
            throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("roles", "ddl/counters.sql");
        String suffix = database.substring(database.length() - 6);
        String partial = "partial_" + suffix;
        String inactive = "inactive_" + suffix;
        server.createUser(partial, "reader-pw", "USAGE");
        server.createUser(inactive, "reader-pw", "USAGE");
        List<String> statements = new ArrayList<>();
        statements.add("CREATE ROLE 'monitor_" + suffix + "', 'cdc_" + suffix + "'");
        statements.add(
                "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION CLIENT ON *.* TO 'monitor_"
                        + suffix
                        + "'");
        statements.add("GRANT " + MySqlServer.CDC_GRANTS + " ON *.* TO 'cdc_" + suffix + "'");
        for (String host : List.of("localhost", "127.0.0.1", "%")) {
            String partialAccount = "'" + partial + "'@'" + host + "'";
            String inactiveAccount = "'" + inactive + "'@'" + host + "'";
            statements.add("GRANT 'monitor_" + suffix + "' TO " + partialAccount);
            statements.add("SET DEFAULT ROLE ALL TO " + partialAccount);
            statements.add("GRANT 'cdc_" + suffix + "' TO " + inactiveAccount);
        }
        server.execute(null, statements.toArray(String[]::new));
        assertRefused(
                rest,
                server,
                database,
                List.of("source.username=" + partial, "source.password=reader-pw"),
                "User '" + partial + "' may not read the binlog on the server",
                "GRANT REPLICATION SLAVE ON *.* TO '" + partial + "'");
        assertRefused(
                rest,
                server,
                database,
                List.of("source.username=" + inactive, "source.password=reader-pw"),
                "User '" + inactive + "' may not read the binlog",
                "not active when it logs in",
                "SET DEFAULT ROLE ALL TO '" + inactive + "'",
                // Without its roles the user has no SELECT either: no table of 'tables' to see.
                "names database '"
                        + database
                        + "' (in '"
                        + database
                        + "\\..*'), which user '"
                        + inactive
                        + "' cannot see");
    }

    /**
     * A MySQL that accepts only TLS, and the source's default source.ssl-mode disabled: the job
     * fails once with what to change instead of restarting on a refused connection.
     */
    @Test
    void aMySqlThatRequiresTls(@InjectClusterRESTAddress URI rest) throws Exception {
        MySqlServer server = MYSQL_TLS_ONLY.server();
        String database = server.createDatabase("tlsonly", "ddl/counters.sql");
        server.execute(null, "SET GLOBAL require_secure_transport = ON");
        try {
            assertRefused(
                    rest,
                    server,
                    database,
                    List.of(),
                    "accepts only TLS connections (require_secure_transport=ON)",
                    "but option 'source.ssl-mode' is disabled: set it to required, verify-ca or"
                            + " verify-identity");
        } finally {
            try (Connection connection =
                            DriverManager.getConnection(
                                    "jdbc:mysql://"
                                            + server.host()
                                            + ":"
                                            + server.port()
                                            + "/?sslMode=REQUIRED",
                                    server.rootUser(),
                                    server.rootPassword());
                    Statement statement = connection.createStatement()) {
                statement.execute("SET GLOBAL require_secure_transport = OFF");
            }
        }
    }

    @Test
    void aStartFileTheServerNoLongerHas(@InjectClusterRESTAddress URI rest) throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("purged", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database,
                List.of(
                        "source.startup.mode=binlog-position",
                        "source.startup.binlog-file=mysql-bin.000999",
                        "source.startup.binlog-position=4"),
                "Option 'source.startup.binlog-file' names"
                        + " 'mysql-bin.000999', which the server",
                "no longer has (purged)",
                "it has mysql-bin.000001 to mysql-bin.");
    }

    @Test
    void statementTextsOnMariaDbWithFlinkCdcsReader(@InjectClusterRESTAddress URI rest)
            throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("queries", "ddl/counters.sql");
        assertRefused(
                rest,
                server,
                database,
                // Sluice's reader reads MariaDB's annotate-rows events; Flink CDC's cannot.
                List.of("source.reader=flink-cdc", "source.include-queries=true"),
                "Option 'source.include-queries' needs MySQL",
                "annotate-rows events");
    }

    @Test
    void aTableWithoutPrimaryKeyNeedsAChunkKeyColumn(@InjectClusterRESTAddress URI rest)
            throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("nopk", null);
        List<String> seed = new ArrayList<>();
        seed.add("CREATE TABLE events (id INT NOT NULL, body VARCHAR(16), KEY (id))");
        for (int id = 0; id < 50; id++) {
            seed.add("INSERT INTO events VALUES (" + id + ", 'seed')");
        }
        server.execute(database, seed.toArray(String[]::new));
        assertRefused(
                rest,
                server,
                database,
                List.of("source.snapshot.chunk-size=10"),
                "Tables without a primary key cannot be snapshotted in chunks: [" + database,
                "'source.snapshot.chunk-key-columns', e.g. '" + database + ".events:<column>'");

        String topic = topicOf(database);
        KAFKA.server().createTopic(topic, 3);
        String[] good =
                EmbeddedJobs.args(
                        server,
                        KAFKA.server(),
                        database + "\\..*",
                        topic,
                        "source.snapshot.chunk-key-columns=" + database + ".events:id");
        Validated passes = Validated.of(good);
        assertThat(passes.exit).as("validate passes with a chunk key column: %s", passes).isZero();
        assertThat(passes.out).startsWith("ok: ");
        JobClient job =
                EmbeddedJobs.start(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        EmbeddedJobs.config(
                                server,
                                KAFKA.server(),
                                database + "\\..*",
                                topic,
                                "format=" + MessageFormat.CANAL_FLAT,
                                "job.checkpoint-interval=500ms",
                                "source.snapshot.chunk-size=10",
                                "source.snapshot.chunk-key-columns=" + database + ".events:id"),
                        "nopk-" + database);
        try {
            for (String path :
                    List.of("/jobs/" + job.getJobID() + "/config", "/jobmanager/config")) {
                assertThat(JobExceptions.get(rest, path))
                        .as("the REST API's %s", path)
                        .doesNotContain(MariaDbServer.CDC_PASSWORD);
            }
            List<Delivered> snapshot =
                    Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, 50, WAIT);
            assertThat(snapshot)
                    .extracting(row -> row.get("id"))
                    .as("every snapshot row once")
                    .doesNotHaveDuplicates()
                    .hasSize(50);
            server.execute(database, "UPDATE events SET body = 'later' WHERE id < 5");
            List<Delivered> all =
                    Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, 55, WAIT);
            assertThat(all).hasSize(55);
            assertThat(all.subList(50, 55))
                    .allSatisfy(row -> assertThat(row.get("body")).isEqualTo("later"))
                    .extracting(row -> row.partition)
                    .as("rows of a table without primary key share one partition")
                    .containsOnly(all.get(50).partition);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void validateNamesUnreachableBrokers() throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("nobroker", "ddl/counters.sql");
        int closed = FreePorts.next();
        Validated validated =
                Validated.of(
                        EmbeddedJobs.args(
                                server,
                                KAFKA.server(),
                                database + "\\..*",
                                topicOf(database),
                                "sink.kafka.bootstrap-servers=127.0.0.1:" + closed));
        assertThat(validated.exit).isEqualTo(1);
        assertThat(validated.err)
                .isEqualTo(
                        "sink: Cannot reach the Kafka brokers at 127.0.0.1:"
                                + closed
                                + " within 10 s (TimeoutException); check"
                                + " 'sink.kafka.bootstrap-servers' and the security settings under"
                                + " 'sink.kafka.properties.'. (Sluice asked for"
                                + " transaction.max.timeout.ms to check option"
                                + " 'sink.kafka.transaction-timeout'.)"
                                + System.lineSeparator());
    }

    @Test
    void validateNamesATopicThatRefusesLargeMessages() throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("small", "ddl/counters.sql");
        String topic = topicOf(database);
        KAFKA.server().createTopic(topic, 1, Map.of("max.message.bytes", "1000"));
        Validated validated =
                Validated.of(EmbeddedJobs.args(server, KAFKA.server(), database + "\\..*", topic));
        assertThat(validated.exit).isEqualTo(1);
        assertThat(validated.err)
                .isEqualTo(
                        "sink: Topic '"
                                + topic
                                + "' takes messages of at most 1000 bytes (max.message.bytes), but"
                                + " the producer may send 1048576 (sink.properties.max.request.size):"
                                + " a larger row fails its write. Raise the topic's"
                                + " max.message.bytes, or lower the producer's."
                                + System.lineSeparator());
    }

    /**
     * The job fails once, not restarting, with every {@code expected} text in its root exception,
     * and {@code ./sluice validate} reports the same and exits 1.
     */
    private static void assertRefused(
            URI rest,
            DatabaseServer server,
            String database,
            List<String> overrides,
            String... expected)
            throws Exception {
        String topic = topicOf(database) + "-" + Math.abs(String.join(",", overrides).hashCode());
        String[] args =
                EmbeddedJobs.args(
                        server,
                        KAFKA.server(),
                        database + "\\..*",
                        topic,
                        overrides.toArray(String[]::new));

        Validated validated = Validated.of(args);
        String report = validated.err;
        assertThat(validated.exit).as("validate's exit code; it said: %s", report).isEqualTo(1);
        assertThat(report).contains(expected);
        assertOnlyExpected(report, expected);

        String root =
                RefusedStart.assertFailsOnce(
                        rest,
                        args,
                        topic,
                        expected[0],
                        message -> {
                            assertThat(message).contains(expected);
                            assertOnlyExpected(message, expected);
                        });
        for (String secret : List.of(MariaDbServer.CDC_PASSWORD, "reader-pw", "not-the-password")) {
            assertThat(report + root).as("no password in any message").doesNotContain(secret);
        }
        // In no line that Flink, the CDC source or Sluice logged (the ITCases' one log file).
        Path log = Path.of(System.getProperty("sluice.it.logDir", "target/it-logs"), "tests.log");
        assertThat(Files.readString(log, StandardCharsets.UTF_8))
                .as("the log %s", log)
                .isNotEmpty()
                .doesNotContain(MariaDbServer.CDC_PASSWORD, "reader-pw", "not-the-password");
    }

    /** Every line reports one of the expected problems: no other check fired. */
    private static void assertOnlyExpected(String report, String... expected) {
        assertThat(report.lines())
                .as("problems reported")
                .allSatisfy(line -> assertThat(line).containsAnyOf(expected));
    }

    /** What {@code ./sluice validate} printed and returned for {@code args}. */
    private record Validated(int exit, String out, String err) {
        static Validated of(String... args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit =
                    SluiceValidate.run(
                            new PrintStream(out, true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8),
                            args);
            return new Validated(
                    exit,
                    out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8));
        }
    }

    private static String topicOf(String database) {
        return "bad-" + database;
    }
}

package io.sluice.it.source;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.TableDecoders;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.flink.JobMetrics;
import io.sluice.it.pipeline.Delivered;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.LoopbackProxy;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.server.Waits;
import io.sluice.job.SluiceValidate;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database primary fails over while the job reads it through one address (a {@link
 * LoopbackProxy}, as a virtual IP or DNS name): a MariaDB primary and a replica started here
 * ({@code MASTER_USE_GTID=slave_pos}, {@code log_slave_updates}; and a MySQL 8 pair, {@code
 * gtid_mode=ON}, {@code SOURCE_AUTO_POSITION=1}), a live load with primary-key changes ({@link
 * AuditedLoad}), the primary killed (or locked for a planned switchover) with a transaction open,
 * the replica promoted and the address moved to it, the load going on there.
 *
 * <p>Sluice's reader follows the new primary by the GTIDs it read, inside the running job: the
 * read_committed drain holds exactly what the surviving server committed, in its order, and the job
 * never restarted. A promoted replica that lacks transactions Sluice already published fails the
 * job with them named, and nothing it wrote after them is published; a position without GTIDs is
 * not resumed on another server's binlog file of the same name.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PrimaryFailoverITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final long PRIMARY_ID = 11;
    private static final long REPLICA_ID = 12;

    /** How the primary goes away. */
    enum Move {
        /** kill -9, as a crash: the replica has what it received. */
        CRASH,
        /** FLUSH TABLES WITH READ LOCK on the old primary, the replica caught up, then promoted. */
        SWITCHOVER
    }

    /** The servers and how the primary goes away. */
    enum Failover {
        MARIADB_CRASH(DatabaseServer.Kind.MARIADB, Move.CRASH),
        MARIADB_SWITCHOVER(DatabaseServer.Kind.MARIADB, Move.SWITCHOVER),
        MYSQL_CRASH(DatabaseServer.Kind.MYSQL, Move.CRASH);

        final DatabaseServer.Kind kind;
        final Move move;

        Failover(DatabaseServer.Kind kind, Move move) {
            this.kind = kind;
            this.move = move;
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Failover.class)
    void followsThePromotedReplicaByGtidExactlyOnceWithoutARestart(
            Failover failover, @InjectClusterRESTAddress URI rest) throws Exception {
        Move move = failover.move;
        try (Replicated servers =
                Replicated.start(failover.kind, "failover_" + failover.name().toLowerCase())) {
            String topic = "failover-" + servers.database;
            KAFKA.server().createTopic(topic, 1);
            assertThat(validate(servers.primary, servers.database + ".items", topic))
                    .contains(
                            "note: source: failover by GTID is possible from the server at"
                                    + " 127.0.0.1:"
                                    + servers.primary.port()
                                    + " (GTIDs on, "
                                    + (failover.kind == DatabaseServer.Kind.MARIADB
                                            ? "log_slave_updates"
                                            : "log_replica_updates")
                                    + "=ON)");
            JobClient job = servers.startJob(topic);
            try (AuditedLoad load = servers.load()) {
                awaitCommitted(topic, 100); // a checkpoint committed changes of the old primary
                load.holdOpen(); // a transaction open on the old primary
                Connection lock = null;
                if (move == Move.SWITCHOVER) {
                    lock = servers.primary.connect(null);
                    try (Statement statement = lock.createStatement()) {
                        statement.execute("FLUSH TABLES WITH READ LOCK");
                    }
                }
                servers.replicaCaughtUp();
                if (move == Move.CRASH) {
                    servers.killPrimary();
                }
                servers.promoteReplica();
                load.release();
                long before = load.committed();
                Waits.until(
                        "100 transactions on the new primary",
                        WAIT,
                        () -> load.committed() >= before + 100);
                if (lock != null) {
                    lock.close();
                }
            }
            List<String> expected;
            try (Connection replica = servers.replica.connect(servers.database)) {
                expected = AuditedLoad.expected(replica);
            }
            List<String> delivered = changes(topic, expected.size());
            // One writer, one partition: the drain is every change once, in commit order (each
            // key's history in order with it).
            assertThat(delivered).containsExactlyElementsOf(expected);
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
            assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                    .as("the job never failed or restarted")
                    .isZero();
            assertMovedToReplica(rest, job);
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * The replica stopped replicating before the last transactions, which Sluice published, then
     * was promoted: the job fails, non-recoverably, naming what the server lacks; what it wrote
     * after that is not published.
     */
    @Test
    void aPromotedReplicaBehindWhatWasPublishedFailsTheJobNamingTheMissingGtids(
            @InjectClusterRESTAddress URI rest) throws Exception {
        try (Replicated servers =
                Replicated.start(DatabaseServer.Kind.MARIADB, "failover_behind")) {
            String topic = "failover-" + servers.database;
            KAFKA.server().createTopic(topic, 1);
            servers.replicaCaughtUp();
            servers.replica.execute(null, "STOP SLAVE");
            JobClient job = servers.startJob(topic);
            List<String> published;
            try (AuditedLoad load = servers.load()) {
                awaitCommitted(topic, 50);
                load.holdOpen();
                try (Connection primary = servers.primary.connect(servers.database)) {
                    published = AuditedLoad.expected(primary);
                }
                awaitCommitted(topic, published.size());
                String primaryGtids = gtids(servers.primary, "@@gtid_binlog_pos");
                servers.killPrimary();
                servers.promoteReplica();
                load.release();
                Waits.until(
                        "the job to fail",
                        WAIT,
                        () -> job.getJobStatus().get().isGloballyTerminalState());
                String root = JobExceptions.of(rest, job.getJobID()).rootException();
                // The reader is after the primary's last transaction, or inside it (its changes
                // out, the position the GTID set before it).
                long last =
                        Long.parseLong(primaryGtids.substring(primaryGtids.lastIndexOf('-') + 1));
                String lastGtid = "0-" + PRIMARY_ID + "-" + last;
                String beforeLast = "0-" + PRIMARY_ID + "-" + (last - 1);
                assertThat(root)
                        .contains("SourceSetupException")
                        .contains("the new server " + REPLICA_ID)
                        .containsPattern(
                                "lacks ("
                                        + lastGtid
                                        + " |"
                                        + beforeLast
                                        + " .* and the transaction after them)")
                        .containsPattern("its binlog ends at 0-" + REPLICA_ID + "-\\d+")
                        .contains("already published");
                assertThat(load.committed()).as("the new primary took writes").isPositive();
            }
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.FAILED);
            assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                    .as("failed once, never restarted")
                    .isEqualTo(1);
            // The job is over, so the topic is final: what was published, and nothing of the new
            // primary's.
            assertThat(changes(topic, published.size())).containsExactlyElementsOf(published);
        }
    }

    /**
     * A position without a GTID set, read from server 99's binlog, on a server at the same address
     * that is not server 99 and has a binlog file of that name: refused, not read from there.
     */
    @Test
    void aPositionWithoutGtidsIsNotResumedInAnotherServersFileOfTheSameName() throws Exception {
        MariaDbServer other = MARIADB.server();
        String database = other.createDatabase("failover_nogtid", null);
        other.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
        String[] end = other.binlogEnd();
        BinlogPosition elsewhere = BinlogPosition.of(end[0], 4, 0, 0, "", 99, "99");
        List<String> read = new ArrayList<>();
        AtomicReference<BinlogReader> running = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(
                                other.host(),
                                other.port(),
                                MariaDbServer.CDC_USER,
                                MariaDbServer.CDC_PASSWORD)
                        .serverId(5501)
                        .heartbeatInterval(Duration.ofSeconds(1))
                        .reconnectAttempts(1, Duration.ofMillis(100))
                        .build(
                                TableDecoders.fromInformationSchema(
                                        SourceJdbc.of(
                                                other.host(),
                                                other.port(),
                                                MariaDbServer.CDC_USER,
                                                MariaDbServer.CDC_PASSWORD),
                                        (db, table) -> db.equals(database),
                                        ZoneId.of("UTC")),
                                new BinlogReader.Output() {
                                    // Reading there at all is the failure: stop at once.
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        read.add(change.toString());
                                        running.get().close();
                                    }

                                    @Override
                                    public void heartbeat(BinlogPosition at) {
                                        read.add("heartbeat at " + at);
                                        running.get().close();
                                    }
                                });
        running.set(reader);
        assertThatThrownBy(() -> reader.run(elsewhere))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("a position in the binlog of server 99")
                .hasMessageContaining("is now server 1")
                .hasMessageContaining("has no GTID set")
                .hasMessageContaining("refuses to guess");
        assertThat(read).isEmpty();
        // The shared server does not log what it replicates (MariaDB's default).
        assertThat(validate(other, database + ".t", "failover-" + database))
                .contains(
                        "note: source: failover by GTID is not possible from the server at"
                                + " 127.0.0.1:"
                                + other.port()
                                + ": log_slave_updates is OFF here");
    }

    /**
     * {@code source.hostname} lists the primary, then its replica (read-only, as replicas are): the
     * reader starts on the primary; killed after a checkpoint, with a transaction open, and the
     * replica promoted, it goes on on the second host inside the running job, by GTID.
     */
    @Test
    void aHostListFollowsThePrimaryToTheNextWritableHost(@InjectClusterRESTAddress URI rest)
            throws Exception {
        try (Replicated servers = Replicated.start(DatabaseServer.Kind.MARIADB, "hosts_list")) {
            servers.replica.execute(null, "SET GLOBAL read_only = 1");
            String topic = "failover-" + servers.database;
            KAFKA.server().createTopic(topic, 1);
            assertThat(validate(servers.primary, servers.database + ".items", topic, servers))
                    .contains(
                            "note: source: host 1 of 2 in 'source.hostname', 127.0.0.1:"
                                    + servers.primary.port()
                                    + ": reachable, writable, GTIDs on, log_slave_updates=ON")
                    .contains(
                            "note: source: host 2 of 2 in 'source.hostname', 127.0.0.1:"
                                    + servers.replica.port()
                                    + ": reachable, read-only (read_only=ON), GTIDs on,"
                                    + " log_slave_updates=ON");
            JobClient job = servers.startJob(topic, servers.hostList(), "source.server-id=5711");
            try (AuditedLoad load = servers.load()) {
                awaitCommitted(topic, 100); // a checkpoint committed changes of the first host
                load.holdOpen();
                servers.replicaCaughtUp();
                servers.killPrimary();
                servers.promoteReplica(); // read_only off; the load's proxy moves there too
                load.release();
                long before = load.committed();
                Waits.until(
                        "100 transactions on the new primary",
                        WAIT,
                        () -> load.committed() >= before + 100);
            }
            List<String> expected;
            try (Connection replica = servers.replica.connect(servers.database)) {
                expected = AuditedLoad.expected(replica);
            }
            // One writer, one partition: every change once, in commit order (so in key order).
            assertThat(changes(topic, expected.size())).containsExactlyElementsOf(expected);
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
            assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                    .as("the job never failed or restarted")
                    .isZero();
            assertOnReplica(rest, job, servers);
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * The primary of a host list killed and its replica left read-only: without {@code
     * source.failover.allow-replica} the reader retries, then the job fails naming it; with it the
     * reader goes on on the replica, which has every GTID it published.
     */
    @ParameterizedTest(name = "allow-replica {0}")
    @ValueSource(booleans = {false, true})
    void aReadOnlyReplicaOfTheListIsReadOnlyWithAllowReplica(
            boolean allowReplica, @InjectClusterRESTAddress URI rest) throws Exception {
        try (Replicated servers =
                Replicated.start(DatabaseServer.Kind.MARIADB, "hosts_replica_" + allowReplica)) {
            servers.replica.execute(null, "SET GLOBAL read_only = 1");
            String topic = "failover-" + servers.database;
            KAFKA.server().createTopic(topic, 1);
            JobClient job =
                    servers.startJob(
                            topic,
                            servers.hostList(),
                            "source.failover.allow-replica=" + allowReplica,
                            "source.server-id=" + (allowReplica ? 5713 : 5712));
            try (AuditedLoad load = servers.load()) {
                awaitCommitted(topic, 50);
                load.holdOpen();
                servers.replicaCaughtUp();
                servers.killPrimary(); // and no promotion: the replica stays read-only
                // The load's root user may write on a read-only server (READ_ONLY ADMIN): changes
                // that only the replica has, which the reader can only get there.
                servers.proxy.moveTo(servers.replica.port());
                load.release();
                long before = load.committed();
                Waits.until(
                        "50 transactions on the read-only replica",
                        WAIT,
                        () -> load.committed() >= before + 50);
            }
            if (!allowReplica) {
                Waits.until(
                        "the job to fail",
                        WAIT,
                        () -> job.getJobStatus().get().isGloballyTerminalState());
                assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.FAILED);
                assertThat(JobExceptions.of(rest, job.getJobID()).rootException())
                        .contains("No host of option 'source.hostname'")
                        .contains(
                                "127.0.0.1:"
                                        + servers.replica.port()
                                        + ": read-only (read_only=ON)")
                        .contains("Option 'source.failover.allow-replica' is false");
                return;
            }
            List<String> expected;
            try (Connection replica = servers.replica.connect(servers.database)) {
                expected = AuditedLoad.expected(replica);
            }
            assertThat(changes(topic, expected.size())).containsExactlyElementsOf(expected);
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
            assertThat(JobExceptions.of(rest, job.getJobID()).failures()).isZero();
            assertOnReplica(rest, job, servers);
            EmbeddedJobs.cancel(job);
        }
    }

    /** The reader's metrics say it is on the replica's host, having moved there once. */
    private static void assertOnReplica(URI rest, JobClient job, Replicated servers)
            throws Exception {
        assertMovedToReplica(rest, job);
        assertThat(JobMetrics.texts(rest, job.getJobID(), "sluice.sourceHost"))
                .containsExactly("127.0.0.1:" + servers.replica.port());
    }

    /** The reader's metrics say it is on the replica, having moved there once. */
    private static void assertMovedToReplica(URI rest, JobClient job) throws Exception {
        Map<String, Long> metrics = new TreeMap<>();
        Waits.until(
                "the reader's server metrics in the REST store",
                WAIT,
                () -> {
                    metrics.clear();
                    metrics.putAll(JobMetrics.sums(rest, job.getJobID()));
                    return Long.valueOf(REPLICA_ID).equals(metrics.get("sluice.serverId"));
                });
        assertThat(metrics.get("sluice.failovers")).isEqualTo(1L);
    }

    /** What {@code ./sluice validate} prints on standard output for a job on {@code tables}. */
    private static String validate(DatabaseServer server, String tables, String topic) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SluiceValidate.run(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                EmbeddedJobs.args(server, KAFKA.server(), tables, topic));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The same, with {@code source.hostname} the list of both servers. */
    private static String validate(
            DatabaseServer server, String tables, String topic, Replicated servers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SluiceValidate.run(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                EmbeddedJobs.args(
                        server,
                        KAFKA.server(),
                        tables,
                        topic,
                        servers.hostList(),
                        "source.reader=sluice"));
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    /** Waits until the topic's read_committed messages number at least {@code count}. */
    private static void awaitCommitted(String topic, int count) {
        Waits.until(
                count + " committed messages in " + topic,
                WAIT,
                () ->
                        KAFKA.server().count(topic, "read_committed", Duration.ofMillis(200))
                                >= count);
    }

    /** The topic's committed changes as {@code "OP id version"}, in offset order. */
    private static List<String> changes(String topic, int expected) {
        List<String> changes = new ArrayList<>();
        for (Delivered row :
                Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, expected, WAIT)) {
            changes.add(row.row.type + " " + row.get("id") + " " + row.get("version"));
        }
        return changes;
    }

    private static String gtids(DatabaseServer server, String variable) throws Exception {
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT " + variable)) {
            result.next();
            return result.getString(1);
        }
    }

    /** A primary and its replica, started for one test, and the proxy the job reads through. */
    private static final class Replicated implements AutoCloseable {
        final DatabaseServer primary;
        final DatabaseServer replica;
        final LoopbackProxy proxy;
        final String database;
        private final boolean mariaDb;

        private Replicated(
                DatabaseServer primary, DatabaseServer replica, LoopbackProxy proxy, String db) {
            this.mariaDb = primary.kind() == DatabaseServer.Kind.MARIADB;
            this.primary = primary;
            this.replica = replica;
            this.proxy = proxy;
            this.database = db;
        }

        static Replicated start(DatabaseServer.Kind kind, String prefix) throws Exception {
            DatabaseServer primary;
            DatabaseServer replica;
            if (kind == DatabaseServer.Kind.MARIADB) {
                primary =
                        MariaDbServer.start("--server-id=" + PRIMARY_ID, "--log-slave-updates=ON");
                replica =
                        MariaDbServer.start("--server-id=" + REPLICA_ID, "--log-slave-updates=ON");
                // Its binlog differs from the primary's in files and positions, as a replica's
                // does (here they would mirror each other, and a file+position resume could pass).
                replica.execute(null, "FLUSH BINARY LOGS");
                replica.execute(
                        null,
                        "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT="
                                + primary.port()
                                + ", MASTER_USER='"
                                + primary.rootUser()
                                + "', MASTER_PASSWORD='"
                                + primary.rootPassword()
                                + "', MASTER_USE_GTID=slave_pos, MASTER_SSL=0,"
                                + " MASTER_CONNECT_RETRY=1",
                        "START SLAVE");
            } else {
                // gtid_mode=ON; log_replica_updates is on by default.
                primary = MySqlServer.start("--server-id=" + PRIMARY_ID);
                replica = MySqlServer.start("--server-id=" + REPLICA_ID);
                replica.execute(
                        null,
                        "CHANGE REPLICATION SOURCE TO SOURCE_HOST='127.0.0.1', SOURCE_PORT="
                                + primary.port()
                                + ", SOURCE_USER='"
                                + primary.rootUser()
                                + "', SOURCE_PASSWORD='"
                                + primary.rootPassword()
                                + "', SOURCE_AUTO_POSITION=1, GET_SOURCE_PUBLIC_KEY=1,"
                                + " SOURCE_CONNECT_RETRY=1",
                        "START REPLICA");
            }
            String database = primary.createDatabase(prefix, null);
            primary.execute(database, AuditedLoad.TABLES.split(";"));
            return new Replicated(primary, replica, new LoopbackProxy(primary.port()), database);
        }

        /** The job, from the primary's binlog end, through the proxy. */
        JobClient startJob(String topic) throws Exception {
            return startJob(topic, "source.hostname=127.0.0.1", "source.port=" + proxy.port());
        }

        /** {@code source.hostname} listing the primary, then the replica (no proxy). */
        String hostList() {
            return "source.hostname=127.0.0.1:" + primary.port() + ",127.0.0.1:" + replica.port();
        }

        /** The job, from the primary's binlog end, reading where {@code source} says. */
        JobClient startJob(String topic, String... source) throws Exception {
            String[] end = primary.binlogEnd();
            // MySQL: at a GTID set, so that positions have one from the start (at a file and
            // position they get it at the next file's start).
            List<String> start =
                    mariaDb
                            ? List.of(
                                    "source.startup.mode=binlog-position",
                                    "source.startup.binlog-file=" + end[0],
                                    "source.startup.binlog-position=" + end[1])
                            : List.of(
                                    "source.startup.mode=gtid",
                                    "source.startup.gtid-set=" + gtids(primary, "@@gtid_executed"));
            List<String> settings = new ArrayList<>(start);
            settings.addAll(
                    List.of(
                            "source.reader=sluice",
                            "source.heartbeat-interval=1s",
                            "job.checkpoint-interval=1s",
                            "parallelism.source=1",
                            "parallelism.encode=1",
                            "parallelism.sink=1"));
            settings.addAll(List.of(source));
            Configuration config =
                    EmbeddedJobs.config(
                            primary,
                            KAFKA.server(),
                            database + ".items",
                            topic,
                            settings.toArray(new String[0]));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            return EmbeddedJobs.start(env, config, "failover-" + database);
        }

        AuditedLoad load() {
            String url =
                    primary.jdbcUrl(database)
                            .replace(":" + primary.port() + "/", ":" + proxy.port() + "/");
            return new AuditedLoad(url, primary.rootUser(), primary.rootPassword());
        }

        /** Waits until the replica applied all the primary's binlog holds. */
        void replicaCaughtUp() throws Exception {
            String position = gtids(primary, mariaDb ? "@@gtid_binlog_pos" : "@@gtid_executed");
            String wait =
                    mariaDb
                            ? "SELECT MASTER_GTID_WAIT('" + position + "', 60)"
                            : "SELECT WAIT_FOR_EXECUTED_GTID_SET('" + position + "', 60)";
            try (Connection connection = replica.connect(null);
                    Statement statement = connection.createStatement();
                    ResultSet result = statement.executeQuery(wait)) {
                result.next();
                assertThat(result.getInt(1)).as("the replica applied " + position).isZero();
            }
        }

        void killPrimary() throws Exception {
            ProcessHandle process = primary.process().orElseThrow();
            process.destroyForcibly();
            process.onExit().get(30, TimeUnit.SECONDS);
        }

        /** The replica becomes the primary, and the address moves to it. */
        void promoteReplica() {
            if (mariaDb) {
                replica.execute(null, "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = 0");
            } else {
                replica.execute(
                        null,
                        "STOP REPLICA",
                        "RESET REPLICA ALL",
                        "SET GLOBAL super_read_only = 0",
                        "SET GLOBAL read_only = 0");
            }
            proxy.moveTo(replica.port());
        }

        @Override
        public void close() throws Exception {
            try (proxy;
                    primary;
                    replica) {
                // closed in reverse order
            }
        }
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole job with {@code source.reader: sluice} from a binlog position: inserts, updates and
 * deletes, in statements and in a transaction, around ALTER TABLE statements (a column added, then
 * dropped with another one widened) reach Kafka exactly as written: the read_committed drain holds
 * every change once, each key's changes in order in Canal's partition for the key, each row with
 * the columns and mysqlType of its point in the binlog, and each ALTER once per partition. The job
 * is stopped with a savepoint after the column was added and restored after it was dropped: the
 * rows between can only be read with the table schemas the savepoint holds, not with
 * information_schema's; the first job runs with either reader, so a savepoint of Flink CDC's reader
 * restores into Sluice's. Other jobs start at a MariaDB GTID position alone, and at a MySQL 8 GTID
 * set alone with either reader, with statement texts; at a timestamp, on both servers; and at the
 * binlog's end ({@code latest}), on both servers with either reader.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SluiceReaderPipelineITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final MessageFormat FORMAT = MessageFormat.CANAL_FLAT;
    private static final String ADD = "ALTER TABLE counters ADD COLUMN extra VARCHAR(8) AFTER note";
    private static final String DROP =
            "ALTER TABLE counters DROP COLUMN extra, MODIFY note VARCHAR(64)";

    /** Each key's changes as written: {@code TYPE version note-type extra}. */
    private final Map<Integer, List<String>> written = new TreeMap<>();

    private int changes;

    /**
     * The first job reads with {@code firstReader}, the restored one with Sluice's: a savepoint of
     * Flink CDC's reader restores into Sluice's at the same position, with the table schemas Flink
     * CDC's split carries.
     */
    @ParameterizedTest(name = "first job with source.reader={0}")
    @ValueSource(strings = {"sluice", "flink-cdc"})
    void everyChangeOnceWithTheColumnsOfItsPointAcrossASavepoint(
            String firstReader, @TempDir Path savepoints) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("sluicereader", "ddl/counters.sql");
        String topic = "sluicereader-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        String[] start = mariaDb.binlogEnd();
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.startup.mode=binlog-position",
                        "source.startup.binlog-file=" + start[0],
                        "source.startup.binlog-position=" + start[1],
                        "parallelism.source=2",
                        "parallelism.encode=2",
                        "parallelism.sink=2");
        config.setString("source.reader", "sluice");
        Configuration firstConfig = new Configuration(config);
        firstConfig.setString("source.reader", firstReader);
        String note = "varchar(32)";
        JobClient first = start(new Configuration(), firstConfig, "sluice-reader-" + database);
        String savepoint;
        try {
            insert(mariaDb, database, 1, 50, note, null);
            update(mariaDb, database, "id <= 25", 1, 25, 2, note, null);
            delete(mariaDb, database, "id >= 40", 40, 50, 1, note, null);
            // The reader read its start schemas from information_schema before the ALTER: a
            // fresh start behind a DDL statement would read the older rows with the newer columns.
            assertThat(Delivered.drain(KAFKA.server(), topic, FORMAT, changes, WAIT))
                    .as("the changes before the ALTER, committed")
                    .hasSize(changes);
            mariaDb.execute(database, ADD);
            insert(mariaDb, database, 51, 70, note, "y");
            // The ALTER goes to every partition, before the table's rows there.
            assertThat(Delivered.drain(KAFKA.server(), topic, FORMAT, changes + PARTITIONS, WAIT))
                    .as("the changes before the savepoint, committed")
                    .hasSize(changes + PARTITIONS);
            savepoint =
                    first.stopWithSavepoint(
                                    false,
                                    savepoints.toUri().toString(),
                                    SavepointFormatType.DEFAULT)
                            .get(2, TimeUnit.MINUTES);
        } catch (Exception | AssertionError e) {
            first.cancel().get(1, TimeUnit.MINUTES);
            throw e;
        }

        // While the job is stopped: rows with the added column, then the columns change again,
        // so information_schema no longer has the columns of the savepoint's position.
        update(mariaDb, database, "id BETWEEN 51 AND 60", 51, 60, 3, note, "y");
        mariaDb.execute(database, DROP);
        note = "varchar(64)";
        update(mariaDb, database, "id <= 10", 1, 10, 4, note, null);

        Configuration restore = new Configuration();
        SavepointRestoreSettings.toConfiguration(
                SavepointRestoreSettings.forPath(savepoint, false), restore);
        JobClient second = start(restore, config, "sluice-reader-restored-" + database);
        try {
            delete(mariaDb, database, "id BETWEEN 61 AND 63", 61, 63, 1, note, null);
            try (Connection connection = mariaDb.connect(database);
                    Statement statement = connection.createStatement()) {
                connection.setAutoCommit(false);
                statement.execute("INSERT INTO counters SELECT seq, 1, 'tx' FROM seq_71_to_80");
                statement.execute("UPDATE counters SET version = 5 WHERE id BETWEEN 71 AND 75");
                statement.execute("DELETE FROM counters WHERE id = 80");
                connection.commit();
            }
            for (int id = 71; id <= 80; id++) {
                add(id, "INSERT", 1, note, null);
            }
            for (int id = 71; id <= 75; id++) {
                add(id, "UPDATE", 5, note, null);
            }
            add(80, "DELETE", 1, note, null);

            verify(
                    database,
                    Delivered.drain(KAFKA.server(), topic, FORMAT, changes + 2 * PARTITIONS, WAIT));
        } finally {
            EmbeddedJobs.cancel(second);
        }
    }

    /**
     * MariaDB's GTID position with Sluice's reader (Flink CDC's cannot start at one); MySQL's GTID
     * set with both readers, the texts from rows-query events of a session that logs them.
     */
    @ParameterizedTest(name = "{0} with source.reader={1}")
    @CsvSource({"MARIADB, sluice", "MYSQL, sluice", "MYSQL, flink-cdc"})
    void startsAtAGtidPositionWithEachStatementsText(DatabaseServer.Kind kind, String reader)
            throws Exception {
        boolean mariaDb = kind == DatabaseServer.Kind.MARIADB;
        DatabaseServer server = mariaDb ? MARIADB.server() : MYSQL.server();
        String database = server.createDatabase("sluicegtid", "ddl/counters.sql");
        String topic = "sluicegtid-" + database;
        KAFKA.server().createTopic(topic, 1);
        server.execute(
                database,
                "INSERT INTO counters VALUES (1, 1, 'n'), (2, 1, 'n'), (3, 1, 'n'), (4, 1, 'n'),"
                        + " (5, 1, 'n')");
        String gtids;
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                mariaDb
                                        ? "SELECT @@gtid_binlog_pos"
                                        : "SELECT @@global.gtid_executed")) {
            result.next();
            gtids = result.getString(1);
        }
        String insert = "INSERT INTO counters VALUES (6, 1, 'n'), (7, 1, 'n'), (8, 1, 'n')";
        String update = "UPDATE counters SET version = 2 WHERE id <= 2";
        if (mariaDb) {
            server.execute(database, insert, update);
        } else {
            server.execute(
                    database, "SET SESSION binlog_rows_query_log_events = ON", insert, update);
        }
        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.reader=" + reader,
                        "source.startup.mode=gtid",
                        "source.startup.gtid-set=" + gtids,
                        "source.include-queries=true");
        JobClient job = start(new Configuration(), config, "sluice-reader-gtid-" + database);
        try {
            assertThat(Delivered.drain(KAFKA.server(), topic, FORMAT, 7, WAIT))
                    .as("the statements after %s, each text before its rows", gtids)
                    .extracting(
                            d ->
                                    d.row.type
                                            + " "
                                            + (d.row.type.equals("QUERY")
                                                    ? d.row.sql
                                                    : d.get("id") + " " + d.get("version")))
                    .containsExactly(
                            "QUERY " + insert,
                            "INSERT 6 1",
                            "INSERT 7 1",
                            "INSERT 8 1",
                            "QUERY " + update,
                            "UPDATE 1 2",
                            "UPDATE 2 2");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /**
     * A start at a timestamp: the changes from that second on (binlog events carry whole seconds),
     * none of the earlier ones, in a file the start is resolved into by its events' times. MariaDB
     * and MySQL 8 (GTIDs) with Sluice's reader, MySQL with Flink CDC's.
     */
    @ParameterizedTest(name = "{0} with source.reader={1}")
    @CsvSource({"MARIADB, sluice", "MYSQL, sluice", "MYSQL, flink-cdc"})
    void startsAtATimestampWithTheChangesFromThatSecondOn(DatabaseServer.Kind kind, String reader)
            throws Exception {
        DatabaseServer server =
                kind == DatabaseServer.Kind.MARIADB ? MARIADB.server() : MYSQL.server();
        String database = server.createDatabase("sluicets", "ddl/counters.sql");
        String topic = "sluicets-" + database;
        KAFKA.server().createTopic(topic, 1);
        server.execute(
                database,
                "INSERT INTO counters VALUES (1, 1, 'before'), (2, 1, 'before')",
                "FLUSH BINARY LOGS",
                "INSERT INTO counters VALUES (3, 1, 'before')");
        long startMillis = (serverMillis(server) / 1000 + 1) * 1000;
        Waits.until(
                "the server's clock to pass " + startMillis,
                Duration.ofSeconds(10),
                () -> serverMillis(server) >= startMillis);
        server.execute(
                database,
                "INSERT INTO counters VALUES (4, 1, 'after')",
                "UPDATE counters SET version = 2 WHERE id = 1");
        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.reader=" + reader,
                        "source.startup.mode=timestamp",
                        "source.startup.timestamp-millis=" + startMillis);
        JobClient job = start(new Configuration(), config, "sluice-reader-ts-" + database);
        try {
            assertThat(Delivered.drain(KAFKA.server(), topic, FORMAT, 2, WAIT))
                    .as("the changes from %s on", startMillis)
                    .extracting(d -> d.row.type + " " + d.get("id") + " " + d.get("version"))
                    .containsExactly("INSERT 4 1", "UPDATE 1 2");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /**
     * A start at the binlog's end ({@code latest}), on both servers with both readers: the changes
     * committed before the job started are in the binlog but not delivered; those committed after
     * its reader connected are, each once, from the first on. The job reads as a user of its own,
     * so its binlog dump thread tells when the reader has its start (resolved before it connects).
     * On MySQL the reader asks for the binlog after a GTID set ({@code Binlog Dump GTID}), and the
     * first change delivered is the transaction right after the server's GTID set then: the start
     * is that set. On MariaDB Sluice's reader names the transaction after {@code gtid_binlog_pos};
     * Flink CDC's gives no MariaDB GTID.
     */
    @ParameterizedTest(name = "{0} with source.reader={1}")
    @CsvSource({"MARIADB, sluice", "MARIADB, flink-cdc", "MYSQL, sluice", "MYSQL, flink-cdc"})
    void startsAtTheBinlogsEndWithTheChangesAfterIt(DatabaseServer.Kind kind, String reader)
            throws Exception {
        boolean mariaDb = kind == DatabaseServer.Kind.MARIADB;
        DatabaseServer server = mariaDb ? MARIADB.server() : MYSQL.server();
        String database = server.createDatabase("sluicelatest", "ddl/counters.sql");
        String topic = "sluicelatest-" + database;
        KAFKA.server().createTopic(topic, 1);
        String user = "latest_" + database.substring(database.length() - 6);
        server.createUser(
                user, "latest-pw", mariaDb ? MariaDbServer.CDC_GRANTS : MySqlServer.CDC_GRANTS);

        String[] before = server.binlogEnd();
        server.execute(
                database,
                "INSERT INTO counters VALUES (1, 1, 'before'), (2, 1, 'before')",
                "UPDATE counters SET version = 2 WHERE id = 1");
        assertThat(rowsEvents(server, before, database))
                .as("the changes before the start, in the binlog from %s", List.of(before))
                .containsExactly("Write_rows", "Update_rows");

        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.reader=" + reader,
                        "source.username=" + user,
                        "source.password=latest-pw",
                        "source.startup.mode=latest");
        JobClient job = start(new Configuration(), config, "sluice-reader-latest-" + database);
        try {
            String dump = binlogDump(server, user);
            String[] executed = executedGtids(server);
            String next = mariaDb && reader.equals("flink-cdc") ? "" : nextGtid(kind, executed);
            if (!mariaDb) {
                assertThat(dump).as("the reader's dump request").isEqualTo("Binlog Dump GTID");
            }
            server.execute(
                    database,
                    "INSERT INTO counters VALUES (3, 1, 'after')",
                    "UPDATE counters SET version = 3 WHERE id = 2",
                    "DELETE FROM counters WHERE id = 1");
            List<Delivered> delivered = Delivered.drain(KAFKA.server(), topic, FORMAT, 3, WAIT);
            assertThat(delivered)
                    .as("the changes after the start (%s), each once", executed[1])
                    .extracting(d -> d.row.type + " " + d.get("id") + " " + d.get("version"))
                    .containsExactly("INSERT 3 1", "UPDATE 2 3", "DELETE 1 2");
            assertThat(delivered.get(0).row.gtid)
                    .as("the first change's GTID, the transaction after %s", executed[1])
                    .isEqualTo(next);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * The rows events of {@code database}'s tables in the binlog from {@code from} (file and
     * position) on, by type ({@code Write_rows}, MariaDB's {@code _v1} left off).
     */
    private static List<String> rowsEvents(DatabaseServer server, String[] from, String database)
            throws Exception {
        List<String> types = new ArrayList<>();
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet events =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '" + from[0] + "' FROM " + from[1])) {
            boolean ours = false;
            while (events.next()) {
                String type = events.getString("Event_type");
                if (type.equals("Table_map")) {
                    ours = events.getString("Info").contains("(" + database + ".");
                } else if (type.endsWith("_rows") || type.endsWith("_rows_v1")) {
                    if (ours) {
                        types.add(type.replace("_v1", ""));
                    }
                    ours = false;
                }
            }
        }
        return types;
    }

    /** The command of {@code user}'s binlog dump thread, once there is one. */
    private static String binlogDump(DatabaseServer server, String user) {
        String[] command = new String[1];
        Waits.until(
                "a binlog dump thread of " + user,
                WAIT,
                () -> {
                    try (Connection connection = server.connect(null);
                            Statement statement = connection.createStatement();
                            ResultSet threads =
                                    statement.executeQuery(
                                            "SELECT command FROM information_schema.processlist"
                                                    + " WHERE user = '"
                                                    + user
                                                    + "' AND command LIKE 'Binlog Dump%'")) {
                        if (!threads.next()) {
                            return false;
                        }
                        command[0] = threads.getString(1);
                        return true;
                    }
                });
        return command[0];
    }

    /**
     * The server's id for its own GTIDs ({@code @@server_uuid}, MariaDB's {@code @@server_id}) and
     * its GTID state ({@code @@global.gtid_executed}, MariaDB's {@code @@gtid_binlog_pos}).
     */
    private static String[] executedGtids(DatabaseServer server) throws Exception {
        boolean mariaDb = server.kind() == DatabaseServer.Kind.MARIADB;
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                mariaDb
                                        ? "SELECT @@server_id, @@gtid_binlog_pos"
                                        : "SELECT @@server_uuid, @@global.gtid_executed")) {
            result.next();
            return new String[] {result.getString(1), result.getString(2).replace("\n", "")};
        }
    }

    /**
     * The GTID of the next transaction the server writes, after {@code executed}: MySQL's {@code
     * uuid:n}, MariaDB's {@code domain-server-seq}.
     */
    private static String nextGtid(DatabaseServer.Kind kind, String[] executed) {
        String own = executed[0];
        for (String part : executed[1].split(",")) {
            part = part.trim();
            if (kind == DatabaseServer.Kind.MARIADB) {
                String[] gtid = part.split("-");
                if (gtid[1].equals(own)) {
                    return gtid[0] + "-" + own + "-" + (Long.parseLong(gtid[2]) + 1);
                }
            } else if (part.startsWith(own + ":")) {
                String last = part.substring(part.lastIndexOf(':') + 1);
                long end = Long.parseLong(last.substring(last.indexOf('-') + 1));
                return own + ":" + (end + 1);
            }
        }
        throw new AssertionError("No GTID of the server's own (" + own + ") in " + executed[1]);
    }

    private static long serverMillis(DatabaseServer server) throws Exception {
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)")) {
            result.next();
            return result.getLong(1);
        }
    }

    /**
     * Each key's changes once, in order, in Canal's partition, with the columns of their point;
     * each ALTER once in every partition.
     */
    private void verify(String database, List<Delivered> delivered) {
        Map<Integer, List<String>> got = new TreeMap<>();
        Map<Integer, List<String>> ddl = new TreeMap<>();
        for (Delivered row : delivered) {
            if (row.row.ddl) {
                ddl.computeIfAbsent(row.partition, k -> new ArrayList<>()).add(row.row.sql);
                continue;
            }
            int id = Integer.parseInt(row.get("id"));
            assertThat(row.partition)
                    .as("Canal's $pk$ partition of %s", row)
                    .isEqualTo(Delivered.canalPartition(database, PARTITIONS, "" + id));
            String extra =
                    row.row.data.containsKey("extra") ? String.valueOf(row.get("extra")) : "-";
            got.computeIfAbsent(id, k -> new ArrayList<>())
                    .add(
                            row.row.type
                                    + " "
                                    + row.get("version")
                                    + " "
                                    + row.row.mysqlType.get("note")
                                    + " "
                                    + extra);
        }
        assertThat(ddl)
                .as("the ALTER statements, once each in every partition")
                .isEqualTo(
                        Map.of(
                                0,
                                List.of(ADD, DROP),
                                1,
                                List.of(ADD, DROP),
                                2,
                                List.of(ADD, DROP)));
        assertThat(got)
                .as("each key's changes once, in order, with the columns of their point")
                .isEqualTo(written);
    }

    private static JobClient start(Configuration envConfig, Configuration config, String name)
            throws Exception {
        return EmbeddedJobs.start(
                StreamExecutionEnvironment.getExecutionEnvironment(envConfig), config, name);
    }

    private void insert(
            MariaDbServer mariaDb, String database, int from, int to, String note, String extra)
            throws Exception {
        mariaDb.execute(
                database,
                String.format(
                        "INSERT INTO counters SELECT seq, 1, 'n'%s FROM seq_%d_to_%d",
                        extra == null ? "" : ", '" + extra + "'", from, to));
        for (int id = from; id <= to; id++) {
            add(id, "INSERT", 1, note, extra);
        }
    }

    private void update(
            MariaDbServer mariaDb,
            String database,
            String where,
            int from,
            int to,
            int version,
            String note,
            String extra)
            throws Exception {
        mariaDb.execute(database, "UPDATE counters SET version = " + version + " WHERE " + where);
        for (int id = from; id <= to; id++) {
            add(id, "UPDATE", version, note, extra);
        }
    }

    /** Deletes rows {@code from..to}, whose version is {@code version}. */
    private void delete(
            MariaDbServer mariaDb,
            String database,
            String where,
            int from,
            int to,
            int version,
            String note,
            String extra)
            throws Exception {
        mariaDb.execute(database, "DELETE FROM counters WHERE " + where);
        for (int id = from; id <= to; id++) {
            add(id, "DELETE", version, note, extra);
        }
    }

    private void add(int id, String type, int version, String note, String extra) {
        written.computeIfAbsent(id, k -> new ArrayList<>())
                .add(type + " " + version + " " + note + " " + (extra == null ? "-" : extra));
        changes++;
    }
}

package io.sluice.it.source;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A replay from a binlog position over CREATE TABLE, rows, ALTER TABLE, rows, DROP TABLE and the
 * table created again under its name, with rows: every statement of the window reaches each of the
 * topic's partitions once, in binlog order with its table's rows, carrying the binlog event's own
 * time (flat {@code es}, binary {@code executeTime}) and position (binary {@code logfileName} and
 * {@code logfileOffset}), as Canal writes them, and in binary its transaction's GTID. Either the
 * table does not exist when the job starts (the job starts first), or it already does (the
 * statements ran before the job started, and the replay starts before them). With Sluice's reader
 * every statement's text is the binlog's, as Canal's; with Flink CDC's, DROP TABLE is Debezium's
 * own text, and on MariaDB the GTID is empty. On MySQL 8.0 (GTIDs on, each DDL statement a
 * transaction of its own behind a GTID event) the binary format runs with either start and Sluice's
 * reader, and with the statements run before the start and Flink CDC's.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DdlReplayITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int PARTITIONS = 3;
    private static final int ROWS_PER_PHASE = 6;

    /** The window: each statement followed by the rows that come after it in the binlog. */
    private static final String[] STATEMENTS = {
        "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(8))",
        "ALTER TABLE t ADD COLUMN b INT",
        "DROP TABLE t",
        "CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(8))"
    };

    /** Columns of the rows after each statement; DROP is followed by no rows. */
    private static final List<Set<String>> COLUMNS =
            List.of(Set.of("id", "a"), Set.of("id", "a", "b"), Set.of(), Set.of("id", "c"));

    @ParameterizedTest(name = "{0}: {1}, tables exist at job start: {2}, {3} reader")
    @CsvSource({
        "MARIADB, CANAL_FLAT, false, SLUICE",
        "MARIADB, CANAL_FLAT, true, SLUICE",
        "MARIADB, CANAL_BINARY, false, SLUICE",
        "MARIADB, CANAL_BINARY, true, SLUICE",
        "MARIADB, CANAL_FLAT, false, FLINK_CDC",
        "MARIADB, CANAL_BINARY, true, FLINK_CDC",
        "MYSQL, CANAL_BINARY, false, SLUICE",
        "MYSQL, CANAL_BINARY, true, SLUICE",
        "MYSQL, CANAL_BINARY, true, FLINK_CDC"
    })
    void statementsCarryTheirBinlogTimeAndPosition(
            DatabaseServer.Kind kind,
            MessageFormat format,
            boolean tablesExist,
            SourceReaderKind reader)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("replay", null);
        server.execute(database, "CREATE TABLE marker (id INT PRIMARY KEY)");
        String[] start = server.binlogEnd();
        String topic = "replay-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        Configuration config =
                EmbeddedJobs.config(
                        server,
                        KAFKA.server(),
                        database + "\\..*",
                        topic,
                        "format=" + format,
                        "source.reader=" + reader,
                        "job.checkpoint-interval=500ms",
                        "source.startup.mode=binlog-position",
                        "source.startup.binlog-file=" + start[0],
                        "source.startup.binlog-position=" + start[1]);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);

        int expected = ROWS_PER_PHASE * 3 + STATEMENTS.length * PARTITIONS;
        JobClient job;
        if (tablesExist) {
            runWindow(server, database);
            job = EmbeddedJobs.start(env, config, "ddl-replay-" + database);
        } else {
            job = EmbeddedJobs.start(env, config, "ddl-replay-" + database);
            // The binlog reader has met the database's tables once the marker row arrives; the
            // window's table does not exist then.
            server.execute(database, "INSERT INTO marker VALUES (1)");
            assertThat(KAFKA.server().drainReadCommitted(topic, 1, WAIT)).hasSize(1);
            runWindow(server, database);
            expected++;
        }
        try {
            List<BinlogStatements.Logged> logged =
                    BinlogStatements.read(server, database, start[0], Long.parseLong(start[1]));
            // Both servers log DROP TABLE as "DROP TABLE `t` /* generated by server */".
            assertThat(logged)
                    .extracting(
                            s -> s.sql.replace("`", "").replace(" /* generated by server */", ""))
                    .containsExactly(STATEMENTS);
            // Each statement a transaction of its own, behind its GTID event.
            assertThat(logged)
                    .extracting(s -> s.gtid)
                    .allMatch(
                            gtid ->
                                    gtid.matches(
                                            kind == DatabaseServer.Kind.MYSQL
                                                    ? "[0-9a-f-]{36}:[0-9]+"
                                                    : "[0-9]+-[0-9]+-[0-9]+"))
                    .doesNotHaveDuplicates();

            List<ConsumerRecord<byte[], byte[]>> records =
                    KAFKA.server().drainReadCommitted(topic, expected, WAIT);
            Map<Integer, List<Item>> byPartition = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                List<Item> items =
                        byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>());
                decode(format, record.value(), items);
            }
            assertThat(byPartition).hasSize(PARTITIONS);
            for (Map.Entry<Integer, List<Item>> partition : byPartition.entrySet()) {
                assertPartition(
                        kind,
                        format,
                        reader,
                        database,
                        partition.getKey(),
                        partition.getValue(),
                        logged);
            }
            assertThat(records).hasSize(expected);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void runWindow(DatabaseServer server, String database) {
        for (int phase = 0; phase < STATEMENTS.length; phase++) {
            server.execute(database, STATEMENTS[phase]);
            if (phase == 2) {
                continue; // the table is dropped
            }
            int from = (phase == 3 ? 2 : phase) * ROWS_PER_PHASE + 1;
            for (int id = from; id < from + ROWS_PER_PHASE; id++) {
                String values = phase == 1 ? id + ", 'a" + id + "', " + id : id + ", 'v" + id + "'";
                server.execute(database, "INSERT INTO t VALUES (" + values + ")");
            }
        }
    }

    /**
     * In one partition: every statement once, in order, with the binlog's time and position; each
     * row of {@code t} after the statements that preceded it in the binlog and before the rest,
     * with that phase's columns.
     */
    private static void assertPartition(
            DatabaseServer.Kind kind,
            MessageFormat format,
            SourceReaderKind reader,
            String database,
            int partition,
            List<Item> items,
            List<BinlogStatements.Logged> logged) {
        List<Item> statements = new ArrayList<>();
        for (Item item : items) {
            if (item.ddl) {
                statements.add(item);
            } else if (item.table.equals("t")) {
                int id = Integer.parseInt(item.data.get("id"));
                int phase = id <= ROWS_PER_PHASE ? 0 : id <= 2 * ROWS_PER_PHASE ? 1 : 3;
                assertThat(statements.size())
                        .as("statements before row %s in partition %s: %s", id, partition, items)
                        .isEqualTo(phase + 1);
                assertThat(item.data.keySet())
                        .as("columns of row %s in partition %s", id, partition)
                        .isEqualTo(COLUMNS.get(phase));
            }
        }
        // As the binlog holds them (Canal's text), but Debezium writes its own for DROP TABLE.
        assertThat(statements)
                .as("statements in partition %s", partition)
                .extracting(s -> s.sql)
                .containsExactlyElementsOf(
                        logged.stream()
                                .map(
                                        s ->
                                                reader == SourceReaderKind.FLINK_CDC
                                                                && s.sql.startsWith("DROP")
                                                        ? "DROP TABLE `" + database + "`.`t`"
                                                        : s.sql)
                                .toList());
        for (int i = 0; i < STATEMENTS.length; i++) {
            Item statement = statements.get(i);
            BinlogStatements.Logged binlog = logged.get(i);
            assertThat(statement.executeTime)
                    .as("time of '%s' in partition %s, binlog %s", statement.sql, partition, binlog)
                    .isEqualTo(binlog.timestampMs);
            if (format == MessageFormat.CANAL_BINARY) {
                assertThat(statement.file + ":" + statement.offset)
                        .as("position of '%s' in partition %s", statement.sql, partition)
                        .isEqualTo(binlog.file + ":" + binlog.position);
                // Debezium 1.9 tracks no MariaDB GTID (docs/value-rendering.md).
                boolean gtidKnown =
                        reader == SourceReaderKind.SLUICE || kind == DatabaseServer.Kind.MYSQL;
                assertThat(statement.gtid)
                        .as("GTID of '%s' in partition %s", statement.sql, partition)
                        .isEqualTo(gtidKnown ? binlog.gtid : "");
            }
        }
    }

    /** A row or statement as a Canal consumer reads it; file, offset and GTID only in binary. */
    private static final class Item {
        final boolean ddl;
        final String table;
        final String sql;
        final long executeTime;
        final String file;
        final long offset;
        final String gtid;
        final Map<String, String> data;

        Item(
                boolean ddl,
                String table,
                String sql,
                long executeTime,
                String file,
                long offset,
                String gtid,
                Map<String, String> data) {
            this.ddl = ddl;
            this.table = table;
            this.sql = sql;
            this.executeTime = executeTime;
            this.file = file;
            this.offset = offset;
            this.gtid = gtid;
            this.data = data;
        }

        @Override
        public String toString() {
            return ddl
                    ? "[" + sql + " @" + executeTime + " " + file + ":" + offset + " " + gtid + "]"
                    : table + data;
        }
    }

    private static void decode(MessageFormat format, byte[] value, List<Item> items)
            throws Exception {
        if (format == MessageFormat.CANAL_FLAT) {
            FlatMessage flat = JSON.parseObject(value, FlatMessage.class);
            if (Boolean.TRUE.equals(flat.getIsDdl())) {
                items.add(
                        new Item(
                                true,
                                flat.getTable(),
                                flat.getSql(),
                                flat.getEs(),
                                null,
                                -1,
                                null,
                                null));
                return;
            }
            for (Map<String, String> row : flat.getData()) {
                items.add(
                        new Item(false, flat.getTable(), null, flat.getEs(), null, -1, null, row));
            }
            return;
        }
        Message message = CanalMessageDeserializer.deserializer(value);
        for (CanalEntry.Entry entry : message.getEntries()) {
            if (entry.getEntryType() != CanalEntry.EntryType.ROWDATA) {
                continue;
            }
            CanalEntry.Header header = entry.getHeader();
            CanalEntry.RowChange change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            if (change.getIsDdl()) {
                items.add(
                        new Item(
                                true,
                                header.getTableName(),
                                change.getSql(),
                                header.getExecuteTime(),
                                header.getLogfileName(),
                                header.getLogfileOffset(),
                                header.getGtid(),
                                null));
                continue;
            }
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                Map<String, String> data = new TreeMap<>();
                for (CanalEntry.Column column : row.getAfterColumnsList()) {
                    data.put(column.getName(), column.getValue());
                }
                items.add(
                        new Item(
                                false,
                                header.getTableName(),
                                null,
                                header.getExecuteTime(),
                                header.getLogfileName(),
                                header.getLogfileOffset(),
                                header.getGtid(),
                                data));
            }
        }
    }
}

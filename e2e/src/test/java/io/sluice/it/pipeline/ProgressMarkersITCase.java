package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry.Column;
import com.alibaba.otter.canal.protocol.CanalEntry.Entry;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.CanalEntry.Pair;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.Waits;
import io.sluice.job.canal.CaughtUp;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Progress markers keep their promise (docs/pipeline.md, "Progress markers"): a load of numbered
 * multi-table transactions into 8 partitions, through 2 source, 2 route and 2 encode subtasks and 3
 * partition owners, read back with Canal's own classes. For every marker of every partition: every
 * change of a transaction before the marker's came before it, none of a later one after it, and of
 * the marker's own transaction a prefix of its statements (in binary, where messages carry their
 * binlog position: every message before the marker is at or before its position and every later one
 * after it); its message count is the messages since the previous marker; each checkpoint's
 * markers, read in every partition, rebuild exactly the state the load's statements up to that
 * point made. Markers keep coming into partitions no row reaches, and the database's final state is
 * the load's.
 *
 * <p>Binary runs through a TaskManager killed while a checkpoint's output is uncommitted (no marker
 * may repeat or count the aborted messages); flat JSON runs without a failure.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProgressMarkersITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int PARTITIONS = 8;
    private static final String[] TABLES = {"a", "b", "c"};
    private static final String PRIMER = "p";
    private static final int WAVE = 15;
    private static final Duration WAIT = Duration.ofMinutes(3);

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @Test
    void binaryMarkersHoldTheirPromiseThroughAFailure(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        run("canal-binary", cluster);
    }

    @Test
    void flatMarkersHoldTheirPromise() throws Exception {
        run("canal-flat", null);
    }

    private void run(String format, MiniCluster killIn) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("marks", "ddl/progress.sql");
        String topic = "marks-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);
        Load load = new Load(mariaDb, database);

        JobClient job = startJob(mariaDb, database, topic, format);
        try {
            // Markers begin with the binlog phase (snapshot rows carry no position).
            Waits.until(
                    "a first marker",
                    WAIT,
                    () -> {
                        load.prime();
                        return read(topic, format).markers() > 0;
                    });
            load.transactions(1, WAVE);
            KAFKA.server().drainReadCommitted(topic, load.statements(), WAIT);
            load.transactions(WAVE + 1, 2 * WAVE);
            if (killIn != null) {
                int written = load.statements();
                Waits.until(
                        "uncommitted records appear",
                        WAIT,
                        () ->
                                KAFKA.server()
                                                .count(
                                                        topic,
                                                        "read_uncommitted",
                                                        Duration.ofMillis(100))
                                        >= written);
                killIn.startTaskManager();
                killIn.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
                liveTaskManager++;
            }
            load.transactions(2 * WAVE + 1, 3 * WAVE);

            // Caught up: every partition has a marker at or after the last change, and two
            // checkpoints later, so idle partitions have shown theirs.
            Read[] read = new Read[1];
            Waits.until(
                    "markers past the last change in every partition",
                    WAIT,
                    () -> {
                        read[0] = read(topic, format);
                        return read[0].caughtUp(load);
                    });
            Read topicRead = read[0];

            // The operator's tool: every partition has passed a marker covering the whole load.
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            int exit =
                    CaughtUp.run(
                            new PrintStream(printed, true, StandardCharsets.UTF_8),
                            System.err,
                            "--bootstrap-servers",
                            KAFKA.server().bootstrapServers(),
                            "--topic",
                            topic);
            String report = printed.toString(StandardCharsets.UTF_8);
            assertThat(exit).as(report).isZero();
            assertThat(report).contains("caught up to checkpoint ");
            Properties client = new Properties();
            client.put("bootstrap.servers", KAFKA.server().bootstrapServers());
            Map<String, JsonNode> lastMarkers = CaughtUp.lastMarkers(client, List.of(topic));
            assertThat(lastMarkers).hasSize(PARTITIONS);
            for (JsonNode marker : lastMarkers.values()) {
                Item item =
                        new Item(
                                true,
                                "",
                                0,
                                0,
                                0,
                                marker.path("binlogFile").asText(),
                                marker.path("binlogPosition").asLong(),
                                marker.path("rowInEvent").asInt(),
                                marker.path("checkpointId").asLong(),
                                marker.path("messages").asLong());
                assertThat(load.cutOf(item)).isGreaterThanOrEqualTo(2 * load.last - 1);
            }

            topicRead.checkEachMarker(load);
            topicRead.checkCuts(load);
            assertThat(topicRead.dataMessages())
                    .as("every statement once")
                    .isEqualTo(load.statements() + load.primers);
            assertThat(load.databaseState())
                    .as("the load's model is the database")
                    .isEqualTo(load.state(Integer.MAX_VALUE, 0));
            if (killIn != null) {
                assertThat(KAFKA.server().count(topic, "read_uncommitted", Duration.ofSeconds(2)))
                        .as("the failure cut an open transaction: aborted records in the log")
                        .isGreaterThan(topicRead.records());
            }
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    private static JobClient startJob(
            MariaDbServer mariaDb, String database, String topic, String format) throws Exception {
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        String.join(
                                ";",
                                database + ".a",
                                database + ".b",
                                database + ".c",
                                database + "." + PRIMER),
                        topic,
                        "job.checkpoint-interval=1s",
                        "encode.format=" + format,
                        "encode.progress-markers=checkpoint",
                        "parallelism.source=2",
                        "parallelism.route=2",
                        "parallelism.encode=2",
                        "parallelism.sink=3");
        return EmbeddedJobs.start(
                StreamExecutionEnvironment.getExecutionEnvironment(),
                config,
                "progress-markers-" + database);
    }

    private static Read read(String topic, String format) {
        List<ConsumerRecord<byte[], byte[]>> records =
                KAFKA.server().drainReadCommitted(topic, Duration.ofMillis(300));
        return new Read(records, format.equals("canal-flat"));
    }

    /** The numbered transactions, where the binlog ended after each, and what they wrote. */
    private static final class Load {
        private final MariaDbServer mariaDb;
        private final String database;

        /** Where the binlog ended after each transaction (0: before the first). */
        private final Map<Integer, String[]> endAfter = new HashMap<>();

        private int last;
        private int primers;

        Load(MariaDbServer mariaDb, String database) {
            this.mariaDb = mariaDb;
            this.database = database;
        }

        /** Statement {@code stmt} (1..3) of a transaction writes this table. */
        static String table(int stmt) {
            return TABLES[stmt - 1];
        }

        static int id(int txn, int stmt) {
            return (txn * 5 + stmt * 3) % 16;
        }

        /** A row of the primer table, outside the load's model. */
        void prime() {
            primers++;
            mariaDb.execute(database, "INSERT INTO " + PRIMER + " VALUES (" + primers + ", 0, 0)");
        }

        void transactions(int from, int to) throws Exception {
            endAfter.putIfAbsent(0, mariaDb.binlogEnd());
            try (Connection connection = mariaDb.connect(database);
                    Statement statement = connection.createStatement()) {
                for (int txn = from; txn <= to; txn++) {
                    connection.setAutoCommit(false);
                    for (int stmt = 1; stmt <= TABLES.length; stmt++) {
                        statement.execute(
                                "INSERT INTO "
                                        + table(stmt)
                                        + " VALUES ("
                                        + id(txn, stmt)
                                        + ", "
                                        + txn
                                        + ", "
                                        + stmt
                                        + ") ON DUPLICATE KEY UPDATE txn = VALUES(txn),"
                                        + " stmt = VALUES(stmt)");
                    }
                    connection.commit();
                    connection.setAutoCommit(true);
                    endAfter.put(txn, mariaDb.binlogEnd());
                    last = txn;
                }
            }
        }

        int statements() {
            return last * TABLES.length;
        }

        /**
         * Where {@code marker}'s position falls in the load, in halves: 2k-1 within transaction k
         * (the marker may cut it), 2k after transaction k and before the next one. Independent of
         * Sluice: the server's binlog end after each commit bounds each transaction's events.
         */
        int cutOf(Item marker) {
            for (int txn = 1; txn <= last; txn++) {
                if (isBefore(marker, endAfter.get(txn))) {
                    return isBefore(marker, endAfter.get(txn - 1)) ? 2 * txn - 2 : 2 * txn - 1;
                }
            }
            return 2 * last;
        }

        private static boolean isBefore(Item marker, String[] end) {
            int byFile = marker.file.compareTo(end[0]);
            return byFile < 0 || byFile == 0 && marker.position < Long.parseLong(end[1]);
        }

        /**
         * The rows after every transaction before {@code txn} and {@code stmts} statements of it.
         */
        Map<String, String> state(int txn, int stmts) {
            Map<String, String> rows = new TreeMap<>();
            for (int t = 1; t <= Math.min(txn, last); t++) {
                for (int s = 1; s <= TABLES.length; s++) {
                    if (t == txn && s > stmts) {
                        break;
                    }
                    rows.put(table(s) + ":" + id(t, s), t + "." + s);
                }
            }
            return rows;
        }

        Map<String, String> databaseState() throws Exception {
            Map<String, String> rows = new TreeMap<>();
            try (Connection connection = mariaDb.connect(database);
                    Statement statement = connection.createStatement()) {
                for (String table : TABLES) {
                    try (ResultSet rs =
                            statement.executeQuery("SELECT id, txn, stmt FROM " + table)) {
                        while (rs.next()) {
                            rows.put(table + ":" + rs.getInt(1), rs.getInt(2) + "." + rs.getInt(3));
                        }
                    }
                }
            }
            return rows;
        }
    }

    /** A row change or a marker, as read from one partition. */
    private record Item(
            boolean marker,
            String table,
            int id,
            int txn,
            int stmt,
            String file,
            long position,
            int row,
            long checkpoint,
            long messages) {

        @Override
        public String toString() {
            return marker
                    ? "M" + checkpoint + "(" + messages + ")@" + position + "#" + row
                    : txn + "." + stmt + "@" + position;
        }

        int comparePosition(Item other) {
            int byFile = file.compareTo(other.file);
            if (byFile != 0) {
                return byFile;
            }
            int byPosition = Long.compare(position, other.position);
            return byPosition != 0 ? byPosition : Integer.compare(row, other.row);
        }
    }

    /** A topic read back: each partition's rows and markers in offset order. */
    private static final class Read {
        private final Map<Integer, List<Item>> partitions = new TreeMap<>();
        private final boolean flat;
        private final int records;

        Read(List<ConsumerRecord<byte[], byte[]>> read, boolean flat) {
            this.flat = flat;
            this.records = read.size();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.put(p, new ArrayList<>());
            }
            for (ConsumerRecord<byte[], byte[]> record : read) {
                partitions
                        .get(record.partition())
                        .add(flat ? fromFlat(record.value()) : fromBinary(record.value()));
            }
        }

        int records() {
            return records;
        }

        long markers() {
            return partitions.values().stream()
                    .flatMap(List::stream)
                    .filter(item -> item.marker)
                    .count();
        }

        int dataMessages() {
            return (int)
                    partitions.values().stream()
                            .flatMap(List::stream)
                            .filter(item -> !item.marker)
                            .count();
        }

        /**
         * Every statement read, and every partition's last marker two checkpoints past the first
         * one in or after the load's last transaction (MariaDB gives its rows the transaction's
         * start position): idle partitions got theirs too.
         */
        boolean caughtUp(Load load) {
            long first = Long.MAX_VALUE;
            for (List<Item> items : partitions.values()) {
                for (Item item : items) {
                    if (item.marker && load.cutOf(item) >= 2 * load.last - 1) {
                        first = Math.min(first, item.checkpoint);
                    }
                }
            }
            if (first == Long.MAX_VALUE) {
                return false;
            }
            for (List<Item> items : partitions.values()) {
                Item lastMarker = null;
                for (Item item : items) {
                    if (item.marker) {
                        lastMarker = item;
                    }
                }
                if (lastMarker == null || lastMarker.checkpoint < first + 2) {
                    return false;
                }
            }
            return dataMessages() >= load.statements() + load.primers;
        }

        void checkEachMarker(Load load) {
            for (Map.Entry<Integer, List<Item>> partition : partitions.entrySet()) {
                List<Item> items = partition.getValue();
                long previousCheckpoint = 0;
                int sinceMarker = 0;
                for (int i = 0; i < items.size(); i++) {
                    Item marker = items.get(i);
                    if (!marker.marker) {
                        sinceMarker++;
                        continue;
                    }
                    String where =
                            "partition " + partition.getKey() + ", checkpoint " + marker.checkpoint;
                    assertThat(marker.checkpoint)
                            .as("%s: checkpoints rise, none repeats", where)
                            .isGreaterThan(previousCheckpoint);
                    previousCheckpoint = marker.checkpoint;
                    assertThat(marker.messages)
                            .as("%s: messages since the previous marker in %s", where, items)
                            .isEqualTo(sinceMarker);
                    sinceMarker = 0;
                    // In halves: 2k-1 is within transaction k, 2k after it.
                    int cut = load.cutOf(marker);
                    for (int j = 0; j < items.size(); j++) {
                        Item row = items.get(j);
                        if (row.marker || row.table.equals(PRIMER)) {
                            continue;
                        }
                        String change = where + ", txn " + row.txn + " stmt " + row.stmt;
                        if (j < i) {
                            assertThat(2 * row.txn - 1)
                                    .as("%s before the marker (cut %s)", change, cut)
                                    .isLessThanOrEqualTo(cut);
                            if (!flat) {
                                assertThat(row.comparePosition(marker))
                                        .as("%s before the marker", change)
                                        .isLessThanOrEqualTo(0);
                            }
                        } else {
                            assertThat(2 * row.txn)
                                    .as("%s after the marker (cut %s)", change, cut)
                                    .isGreaterThan(cut);
                            if (!flat) {
                                // MariaDB gives a transaction's rows its start position.
                                assertThat(row.comparePosition(marker))
                                        .as("%s after the marker", change)
                                        .isGreaterThanOrEqualTo(0);
                            }
                        }
                    }
                }
                assertThat(previousCheckpoint)
                        .as("partition %s has markers", partition.getKey())
                        .isPositive();
            }
        }

        /**
         * For each checkpoint with a marker in every partition: what came before those markers is
         * every transaction before the markers' position and a prefix of the statements of the one
         * it cuts, and that state is the load's there.
         */
        void checkCuts(Load load) {
            Map<Long, Integer> partitionsMarked = new TreeMap<>();
            for (List<Item> items : partitions.values()) {
                for (Item item : items) {
                    if (item.marker) {
                        partitionsMarked.merge(item.checkpoint, 1, Integer::sum);
                    }
                }
            }
            int cuts = 0;
            int inside = 0;
            for (Map.Entry<Long, Integer> checkpoint : partitionsMarked.entrySet()) {
                if (checkpoint.getValue() != PARTITIONS) {
                    continue;
                }
                long id = checkpoint.getKey();
                Map<String, String> rebuilt = new TreeMap<>();
                Set<Integer> cutStatements = new HashSet<>();
                Item cutMarker = null;
                List<Item> before = new ArrayList<>();
                for (List<Item> items : partitions.values()) {
                    for (Item item : items) {
                        if (item.marker && item.checkpoint == id) {
                            cutMarker = item;
                            break;
                        }
                        if (!item.marker && !item.table.equals(PRIMER)) {
                            rebuilt.put(item.table + ":" + item.id, item.txn + "." + item.stmt);
                            before.add(item);
                        }
                    }
                }
                int cut = load.cutOf(cutMarker);
                if (cut < 2 * load.last - 1) {
                    inside++;
                }
                int txn = (cut + 1) / 2;
                int stmts = 0;
                if (cut % 2 == 1) {
                    for (Item item : before) {
                        if (item.txn == txn) {
                            cutStatements.add(item.stmt);
                        }
                    }
                    stmts = cutStatements.size();
                    for (int s = 1; s <= stmts; s++) {
                        assertThat(cutStatements)
                                .as("checkpoint %s: a prefix of transaction %s", id, txn)
                                .contains(s);
                    }
                } else {
                    txn = cut / 2 + 1;
                }
                assertThat(rebuilt)
                        .as("checkpoint %s: the state at the markers", id)
                        .isEqualTo(load.state(txn, stmts));
                cuts++;
            }
            assertThat(cuts).as("checkpoints marked in every partition").isGreaterThanOrEqualTo(3);
            // The checkpoint that committed the first wave cut the load before the second.
            assertThat(inside).as("cuts inside the load: %s", partitions).isPositive();
        }

        private static Item fromFlat(byte[] value) {
            FlatMessage message = JSON.parseObject(value, FlatMessage.class);
            if ("PROGRESS".equals(message.getType())) {
                assertThat(message.getData()).isNull();
                JSONObject progress = JSON.parseObject(value).getJSONObject("sluiceProgress");
                return marker(progress);
            }
            Map<String, String> row = message.getData().get(0);
            return new Item(
                    false,
                    message.getTable(),
                    Integer.parseInt(row.get("id")),
                    Integer.parseInt(row.get("txn")),
                    Integer.parseInt(row.get("stmt")),
                    "",
                    0,
                    0,
                    0,
                    0);
        }

        private static Item fromBinary(byte[] value) {
            try {
                Entry entry = CanalMessageDeserializer.deserializer(value).getEntries().get(0);
                if (entry.getEntryType() == EntryType.TRANSACTIONEND) {
                    for (Pair pair : entry.getHeader().getPropsList()) {
                        if (pair.getKey().equals("sluiceProgress")) {
                            return marker(JSON.parseObject(pair.getValue()));
                        }
                    }
                    throw new AssertionError("TRANSACTIONEND without sluiceProgress: " + entry);
                }
                RowChange change = RowChange.parseFrom(entry.getStoreValue());
                Map<String, String> row = new HashMap<>();
                for (Column column : change.getRowDatas(0).getAfterColumnsList()) {
                    row.put(column.getName(), column.getValue());
                }
                return new Item(
                        false,
                        entry.getHeader().getTableName(),
                        Integer.parseInt(row.get("id")),
                        Integer.parseInt(row.get("txn")),
                        Integer.parseInt(row.get("stmt")),
                        entry.getHeader().getLogfileName(),
                        entry.getHeader().getLogfileOffset(),
                        0,
                        0,
                        0);
            } catch (Exception e) {
                throw new AssertionError("Canal's deserializer cannot read a message", e);
            }
        }

        private static Item marker(JSONObject progress) {
            return new Item(
                    true,
                    "",
                    0,
                    0,
                    0,
                    progress.getString("binlogFile"),
                    progress.getLongValue("binlogPosition"),
                    progress.getIntValue("rowInEvent"),
                    progress.getLongValue("checkpointId"),
                    progress.getLongValue("messages"));
        }
    }
}

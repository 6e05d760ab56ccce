package io.sluice.it.format;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DebeziumEngineProcess;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MySqlExtension;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.server.SqlScript;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debezium itself judges {@code format: debezium-json}: Debezium 3.6.1's embedded MySQL connector
 * (in a JVM of its own, {@link DebeziumEngineProcess}) and the Sluice job read the same binlog of
 * MySQL 8.0, and every record between two fence rows must be the same, key and value, as JSON
 * trees: inserts (one of two rows in one event), updates, a primary-key change (delete, tombstone,
 * create), deletes and their tombstones, a composite key, a table without a key, every column type
 * of {@code all_types.sql}, ADD COLUMN and TRUNCATE ({@code ddl/debezium_judge_dml.sql}). The only
 * differences allowed are {@link DebeziumJsonDifferences}, which {@code docs/formats.md} lists. And
 * Flink SQL's own {@code debezium-json} format rebuilds a table from Sluice's topic.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DebeziumJsonJudgeITCase {

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int START_FENCE = 500_000;
    private static final int END_FENCE = 1_000_000;
    private static final String PREFIX = "sluice";

    @Test
    void sluiceWritesWhatDebeziumWrites() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("dbzjudge", "ddl/debezium_judge.sql");
        String topic = "dbzjudge-" + database;
        KAFKA.server().createTopic(topic, 1);
        String tables =
                String.join(
                        ";",
                        database + ".items",
                        database + ".pairs",
                        database + ".nokey",
                        database + ".all_types",
                        database + ".fence");
        Configuration config =
                EmbeddedJobs.config(
                        mysql,
                        KAFKA.server(),
                        tables,
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.startup.mode=latest",
                        "encode.format=debezium-json",
                        "encode.format.debezium.topic-prefix=" + PREFIX);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        JobClient job = EmbeddedJobs.start(env, config, "dbzjudge-" + database);
        try (DebeziumEngineProcess debezium =
                DebeziumEngineProcess.start(engine(mysql, database))) {
            // Both read the binlog once each has a fence row of its own; then the fence the
            // comparison starts after, the changes, and the fence it ends at.
            int[] fence = {0};
            Waits.until(
                    "Debezium and Sluice to read the binlog",
                    WAIT,
                    () -> {
                        mysql.execute(database, "INSERT INTO fence VALUES (" + ++fence[0] + ")");
                        Thread.sleep(500);
                        return debezium.records().stream().anyMatch(l -> l.contains(".fence\t"))
                                && !sluice(topic).isEmpty();
                    });
            mysql.execute(database, "INSERT INTO fence VALUES (" + START_FENCE + ")");
            List<String> dml = SqlScript.statements("ddl/debezium_judge_dml.sql");
            mysql.execute(database, dml.toArray(new String[0]));
            mysql.execute(database, "INSERT INTO fence VALUES (" + END_FENCE + ")");
            Waits.until(
                    "Debezium's end fence",
                    WAIT,
                    () -> between(fromDebezium(debezium.records())) != null);
            Waits.until("Sluice's end fence", WAIT, () -> between(sluice(topic)) != null);

            List<Message> expected = between(fromDebezium(debezium.records()));
            List<Message> actual = between(sluice(topic));
            DebeziumJsonDifferences.assertSame(expected, actual);
            // 21 row changes, the key change's second half, 7 tombstones.
            assertThat(actual.size()).as("records of debezium_judge_dml.sql").isEqualTo(29);
        } finally {
            EmbeddedJobs.cancel(job);
        }
    }

    /**
     * Flink SQL as a consumer: its own {@code debezium-json} format, with {@code
     * debezium-json.schema-include}, reads Sluice's topic and rebuilds the table, which must then
     * equal the database. The topic holds two tables; the reader keeps one by its {@code
     * source.table} metadata.
     */
    @Test
    void flinkSqlRebuildsTheTableFromSluicesTopic() throws Exception {
        MySqlServer mysql = MYSQL.server();
        String database = mysql.createDatabase("dbzsql", "ddl/debezium_judge.sql");
        String topic = "dbzsql-" + database;
        KAFKA.server().createTopic(topic, 1);
        Configuration config =
                EmbeddedJobs.config(
                        mysql,
                        KAFKA.server(),
                        database + ".items;" + database + ".fence",
                        topic,
                        "job.checkpoint-interval=1s",
                        "source.startup.mode=latest",
                        "encode.format=debezium-json");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        JobClient job = EmbeddedJobs.start(env, config, "dbzsql-" + database);
        try {
            int[] fence = {0};
            Waits.until(
                    "Sluice to read the binlog",
                    WAIT,
                    () -> {
                        mysql.execute(database, "INSERT INTO fence VALUES (" + ++fence[0] + ")");
                        Thread.sleep(500);
                        return !sluice(topic).isEmpty();
                    });
            mysql.execute(
                    database,
                    "INSERT INTO items VALUES (1, 'one', 10), (2, 'two', 20), (5, 'five', 50)",
                    "UPDATE items SET qty = 11 WHERE id = 1",
                    "UPDATE items SET id = 3, qty = 30 WHERE id = 2",
                    "DELETE FROM items WHERE id = 1",
                    "INSERT INTO items VALUES (4, 'four', 40)",
                    "UPDATE items SET name = 'FOUR' WHERE id = 4",
                    "INSERT INTO fence VALUES (" + END_FENCE + ")");
            Waits.until(
                    "Sluice's end fence",
                    WAIT,
                    () -> sluice(topic).stream().anyMatch(m -> m.isFence(END_FENCE)));
        } finally {
            EmbeddedJobs.cancel(job);
        }

        StreamTableEnvironment sql =
                StreamTableEnvironment.create(
                        StreamExecutionEnvironment.getExecutionEnvironment().setParallelism(1));
        sql.executeSql(
                "CREATE TABLE items (id INT, name STRING, qty INT,"
                        + " tbl STRING METADATA FROM 'value.source.table' VIRTUAL,"
                        + " PRIMARY KEY (id) NOT ENFORCED) WITH ("
                        + "'connector' = 'kafka', 'topic' = '"
                        + topic
                        + "', 'properties.bootstrap.servers' = '"
                        + KAFKA.server().bootstrapServers()
                        + "', 'properties.isolation.level' = 'read_committed',"
                        + " 'scan.startup.mode' = 'earliest-offset',"
                        + " 'scan.bounded.mode' = 'latest-offset',"
                        + " 'format' = 'debezium-json', 'debezium-json.schema-include' = 'true')");
        Map<Integer, String> rebuilt = new TreeMap<>();
        try (CloseableIterator<Row> rows =
                sql.executeSql("SELECT id, name, qty FROM items WHERE tbl = 'items'").collect()) {
            rows.forEachRemaining(
                    row -> {
                        int id = (Integer) row.getField(0);
                        if (row.getKind() == RowKind.INSERT
                                || row.getKind() == RowKind.UPDATE_AFTER) {
                            rebuilt.put(id, row.getField(1) + "/" + row.getField(2));
                        } else {
                            rebuilt.remove(id);
                        }
                    });
        }
        Map<Integer, String> inDatabase = new TreeMap<>();
        try (Connection connection = mysql.connect(database);
                ResultSet rows =
                        connection
                                .createStatement()
                                .executeQuery("SELECT id, name, qty FROM items")) {
            while (rows.next()) {
                inDatabase.put(rows.getInt(1), rows.getString(2) + "/" + rows.getInt(3));
            }
        }
        assertThat(rebuilt).isEqualTo(inDatabase).hasSize(3);
    }

    /** Debezium's settings: its defaults, but no snapshot of rows and schema history in memory. */
    private static Map<String, String> engine(MySqlServer mysql, String database) {
        return Map.ofEntries(
                Map.entry("name", "judge-" + database),
                Map.entry("connector.class", "io.debezium.connector.mysql.MySqlConnector"),
                Map.entry(
                        "offset.storage",
                        "org.apache.kafka.connect.storage.MemoryOffsetBackingStore"),
                Map.entry("database.hostname", mysql.host()),
                Map.entry("database.port", Integer.toString(mysql.port())),
                Map.entry("database.user", mysql.rootUser()),
                Map.entry("database.password", mysql.rootPassword()),
                Map.entry(
                        "database.server.id",
                        Integer.toString(ThreadLocalRandom.current().nextInt(100_000, 200_000))),
                Map.entry("topic.prefix", PREFIX),
                Map.entry("database.include.list", database),
                Map.entry(
                        "schema.history.internal",
                        "io.debezium.relational.history.MemorySchemaHistory"),
                Map.entry("snapshot.mode", "no_data"));
    }

    /** One record: its table, key and value as JSON (value null for a tombstone). */
    record Message(String table, JsonNode key, JsonNode value) {
        boolean isFence(int id) {
            return table.equals("fence")
                    && value != null
                    && id == payload(value).path("after").path("id").asInt(-1);
        }

        @Override
        public String toString() {
            return table + " key=" + key + " value=" + value;
        }
    }

    static JsonNode payload(JsonNode value) {
        return value.has("payload") ? value.get("payload") : value;
    }

    /** The records after the start fence and before the end fence, or null before the end. */
    private static List<Message> between(List<Message> all) {
        int start = -1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).isFence(START_FENCE)) {
                start = i;
            } else if (start >= 0 && all.get(i).isFence(END_FENCE)) {
                return new ArrayList<>(all.subList(start + 1, i));
            }
        }
        return null;
    }

    /** Debezium's data records ({@code <prefix>.<db>.<table>}), not its schema-change topic. */
    private static List<Message> fromDebezium(List<String> lines) throws Exception {
        List<Message> out = new ArrayList<>();
        for (String line : lines) {
            String[] parts = line.split("\t", 3);
            String[] topic = parts[0].split("\\.");
            if (topic.length != 3) {
                continue;
            }
            JsonNode value = parse(parts[2]);
            out.add(new Message(tableOf(value, out, topic[2]), parse(parts[1]), value));
        }
        return out;
    }

    private static List<Message> sluice(String topic) throws Exception {
        List<Message> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record :
                KAFKA.server()
                        .drainReadCommitted(topic, Integer.MAX_VALUE, Duration.ofSeconds(1))) {
            JsonNode value = record.value() == null ? null : JSON.readTree(record.value());
            JsonNode key = record.key() == null ? null : JSON.readTree(record.key());
            String table =
                    value == null ? null : payload(value).path("source").path("table").asText();
            out.add(new Message(tableOf(value, out, table), key, value));
        }
        return out;
    }

    /** A record's table; a tombstone's is its DELETE's, the record before it. */
    private static String tableOf(JsonNode value, List<Message> before, String table) {
        return value == null && !before.isEmpty() ? before.get(before.size() - 1).table() : table;
    }

    private static JsonNode parse(String json) throws Exception {
        return json.equals("null") ? null : JSON.readTree(json.getBytes(StandardCharsets.UTF_8));
    }
}

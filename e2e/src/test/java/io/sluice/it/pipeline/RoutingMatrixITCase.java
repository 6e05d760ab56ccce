package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The routing matrix against Canal's rules: {@code route.dynamic-topic} with an exact table, a
 * table regex, an exact schema and a schema regex (with and without explicit topics, where the
 * table pass beats an earlier schema item), the {@code route.topic-template} for the rest; {@code
 * route.partition-hash} on the primary key (also composite), on columns ({@code col1^col2}, NULL
 * included), on the table name, and Sluice's primary-key default for unmatched tables; topics of 1
 * and 3 partitions. Every row's topic, partition and key is checked against what Canal's documented
 * rules give, computed here independently, and every snapshot and binlog row arrives exactly once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RoutingMatrixITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final int SNAPSHOT_ROWS = 12;
    private static final int BINLOG_INSERTS = 6;

    /** One captured table: how to write row {@code i}, where its rows must land. */
    private static final class Table {
        final String database;
        final String name;
        final String ddl;
        final IntFunction<String> insert;
        final IntFunction<String> update;
        final IntFunction<String> delete;

        /** The text of row {@code i}'s identifying column, as Canal writes it. */
        final IntFunction<String> id;

        final String idColumn;
        final List<String> keyColumns;
        final String topic;

        /** Canal's partition of a row (given its data image). */
        final Function<Map<String, String>, Integer> partition;

        Table(
                String database,
                String name,
                String ddl,
                IntFunction<String> insert,
                IntFunction<String> update,
                IntFunction<String> delete,
                IntFunction<String> id,
                String idColumn,
                List<String> keyColumns,
                String topic,
                Function<Map<String, String>, Integer> partition) {
            this.database = database;
            this.name = name;
            this.ddl = ddl;
            this.insert = insert;
            this.update = update;
            this.delete = delete;
            this.id = id;
            this.idColumn = idColumn;
            this.keyColumns = keyColumns;
            this.topic = topic;
            this.partition = partition;
        }

        String qualified() {
            return database + "." + name;
        }
    }

    @Test
    void everyRowLandsOnCanalsTopicAndPartition() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String a = mariaDb.createDatabase("rta", null);
        String b = mariaDb.createDatabase("rtb", null);
        String c = mariaDb.createDatabase("rtc", null);
        String suffix = a.substring(a.lastIndexOf('_') + 1);

        String schemaTopicA = "rt_schema_a_" + suffix;
        String usersTopic = "rt_users_" + suffix;
        String ordersTopic = "rt_orders_" + suffix;
        String betaTopic = c + "_beta"; // a table regex without topic: the name, '.' -> '_'
        String templateTopic = "tpl-" + c + "-alpha";
        Map<String, Integer> partitions = new LinkedHashMap<>();
        partitions.put(schemaTopicA, 3);
        partitions.put(usersTopic, 3);
        partitions.put(ordersTopic, 3);
        partitions.put(b, 3); // a schema regex without topic: the schema's name
        partitions.put(betaTopic, 3);
        partitions.put(templateTopic, 1);
        partitions.forEach((topic, count) -> KAFKA.server().createTopic(topic, count));

        List<Table> tables = new ArrayList<>();
        // Exact table rule (listed after a schema rule for the same schema: the table pass wins);
        // composite primary key hashed with $pk$.
        tables.add(
                new Table(
                        a,
                        "users",
                        "CREATE TABLE users (tenant INT NOT NULL, id INT NOT NULL,"
                                + " name VARCHAR(16), PRIMARY KEY (tenant, id))",
                        i -> "INSERT INTO users VALUES (" + (i % 3) + ", " + i + ", 'u" + i + "')",
                        i -> "UPDATE users SET name = 'v" + i + "' WHERE id = " + i,
                        i -> "DELETE FROM users WHERE id = " + i,
                        Integer::toString,
                        "id",
                        List.of("tenant", "id"),
                        usersTopic,
                        row -> Delivered.canalPartition(a, 3, row.get("tenant"), row.get("id"))));
        // Table regex with an explicit topic, hashed on two columns, one sometimes NULL; the
        // update moves rows to other partitions.
        tables.add(
                new Table(
                        a,
                        "orders",
                        "CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer VARCHAR(16),"
                                + " region VARCHAR(8) NULL, amount INT)",
                        i ->
                                "INSERT INTO orders VALUES ("
                                        + i
                                        + ", 'cust"
                                        + (i % 5)
                                        + "', "
                                        + (i % 4 == 0 ? "NULL" : "'r" + (i % 3) + "'")
                                        + ", "
                                        + (i * 10)
                                        + ")",
                        i ->
                                "UPDATE orders SET customer = 'cust"
                                        + ((i + 2) % 5)
                                        + "', region = "
                                        + (i % 2 == 0 ? "NULL" : "'r9'")
                                        + " WHERE id = "
                                        + i,
                        i -> "DELETE FROM orders WHERE id = " + i,
                        Integer::toString,
                        "id",
                        List.of("id"),
                        ordersTopic,
                        row ->
                                Delivered.canalPartition(
                                        a, 3, row.get("customer"), row.get("region"))));
        // Same table regex; hashed by its table name (a rule without column spec).
        tables.add(
                new Table(
                        a,
                        "order_items",
                        "CREATE TABLE order_items (id INT NOT NULL PRIMARY KEY, order_id INT,"
                                + " sku VARCHAR(16))",
                        i ->
                                "INSERT INTO order_items VALUES ("
                                        + i
                                        + ", "
                                        + (i / 2)
                                        + ", 'sku"
                                        + i
                                        + "')",
                        i -> "UPDATE order_items SET sku = 'SKU" + i + "' WHERE id = " + i,
                        i -> "DELETE FROM order_items WHERE id = " + i,
                        Integer::toString,
                        "id",
                        List.of("id"),
                        ordersTopic,
                        row -> Delivered.canalTablePartition("order_items", 3)));
        // No table rule: the exact schema rule listed first; no hash rule: primary key.
        tables.add(
                new Table(
                        a,
                        "misc",
                        "CREATE TABLE misc (id INT NOT NULL PRIMARY KEY, note VARCHAR(16))",
                        i -> "INSERT INTO misc VALUES (" + i + ", 'm" + i + "')",
                        i -> "UPDATE misc SET note = 'n" + i + "' WHERE id = " + i,
                        i -> "DELETE FROM misc WHERE id = " + i,
                        Integer::toString,
                        "id",
                        List.of("id"),
                        schemaTopicA,
                        row -> Delivered.canalPartition(a, 3, row.get("id"))));
        // Schema regex (no '\.': second pass only) without topic; hash rule by table regex, $pk$.
        for (String name : List.of("events", "logs")) {
            long base = name.equals("logs") ? 5_000_000_000L : 0;
            tables.add(
                    new Table(
                            b,
                            name,
                            "CREATE TABLE "
                                    + name
                                    + " (id BIGINT NOT NULL PRIMARY KEY, line VARCHAR(16))",
                            i ->
                                    "INSERT INTO "
                                            + name
                                            + " VALUES ("
                                            + (base + i)
                                            + ", 'l"
                                            + i
                                            + "')",
                            i ->
                                    "UPDATE "
                                            + name
                                            + " SET line = 'x"
                                            + i
                                            + "' WHERE id = "
                                            + (base + i),
                            i -> "DELETE FROM " + name + " WHERE id = " + (base + i),
                            i -> Long.toString(base + i),
                            "id",
                            List.of("id"),
                            b,
                            row -> Delivered.canalPartition(b, 3, row.get("id"))));
        }
        // Table regex without topic; hashed on one non-key column that the update changes.
        tables.add(
                new Table(
                        c,
                        "beta",
                        "CREATE TABLE beta (code VARCHAR(16) NOT NULL PRIMARY KEY, v INT)",
                        i -> "INSERT INTO beta VALUES ('c" + i + "', " + i + ")",
                        i -> "UPDATE beta SET v = v + 7 WHERE code = 'c" + i + "'",
                        i -> "DELETE FROM beta WHERE code = 'c" + i + "'",
                        i -> "c" + i,
                        "code",
                        List.of("code"),
                        betaTopic,
                        row -> Delivered.canalPartition(c, 3, row.get("v"))));
        // Nothing matches: the template, one partition.
        tables.add(
                new Table(
                        c,
                        "alpha",
                        "CREATE TABLE alpha (id INT NOT NULL PRIMARY KEY, v VARCHAR(16))",
                        i -> "INSERT INTO alpha VALUES (" + i + ", 'a" + i + "')",
                        i -> "UPDATE alpha SET v = 'b" + i + "' WHERE id = " + i,
                        i -> "DELETE FROM alpha WHERE id = " + i,
                        Integer::toString,
                        "id",
                        List.of("id"),
                        templateTopic,
                        row -> 0));

        List<String> expected = new ArrayList<>();
        for (Table table : tables) {
            mariaDb.execute(table.database, table.ddl);
            for (int i = 0; i < SNAPSHOT_ROWS; i++) {
                mariaDb.execute(table.database, table.insert.apply(i));
                expected.add(change(table, "INSERT", table.id.apply(i)));
            }
        }

        String dynamicTopic =
                String.join(
                        ";",
                        schemaTopicA + ":" + a,
                        usersTopic + ":" + a + ".users",
                        ordersTopic + ":" + a + "\\.order.*",
                        "rtb_.*",
                        c + "\\.bet[a]");
        String partitionHash =
                String.join(
                        ",",
                        a + ".users:$pk$",
                        a + "\\.orders:customer^region",
                        a + ".order_items",
                        b + "\\..*:$pk$",
                        ".*\\.beta:v");
        String sourceTables =
                tables.stream().map(Table::qualified).collect(Collectors.joining(";"));
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        sourceTables,
                        "rt-default-" + suffix,
                        "route.dynamic-topic=" + dynamicTopic,
                        "route.topic-template=tpl-{database}-{table}",
                        "route.partition-hash=" + partitionHash,
                        "job.checkpoint-interval=1s",
                        "parallelism.source=2",
                        "parallelism.encode=2",
                        "parallelism.sink=2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        JobClient job = EmbeddedJobs.start(env, config, "routing-matrix-" + a);
        try {
            // Snapshot first, so the binlog changes below are binlog changes.
            Map<String, Integer> snapshotCounts = new LinkedHashMap<>();
            tables.forEach(t -> snapshotCounts.merge(t.topic, SNAPSHOT_ROWS, Integer::sum));
            snapshotCounts.forEach(
                    (topic, count) ->
                            assertThat(
                                            Delivered.drain(
                                                    KAFKA.server(),
                                                    topic,
                                                    MessageFormat.CANAL_FLAT,
                                                    count,
                                                    WAIT))
                                    .as("snapshot rows on %s", topic)
                                    .hasSize(count));

            for (Table table : tables) {
                List<String> statements = new ArrayList<>();
                for (int i = SNAPSHOT_ROWS; i < SNAPSHOT_ROWS + BINLOG_INSERTS; i++) {
                    statements.add(table.insert.apply(i));
                    expected.add(change(table, "INSERT", table.id.apply(i)));
                }
                for (int i : new int[] {0, 1, 2, 3, SNAPSHOT_ROWS}) {
                    statements.add(table.update.apply(i));
                    expected.add(change(table, "UPDATE", table.id.apply(i)));
                }
                for (int i : new int[] {4, 5, SNAPSHOT_ROWS + 1}) {
                    statements.add(table.delete.apply(i));
                    expected.add(change(table, "DELETE", table.id.apply(i)));
                }
                mariaDb.execute(table.database, statements.toArray(new String[0]));
            }

            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String change : expected) {
                String qualified = change.substring(0, change.indexOf(' '));
                Table table =
                        tables.stream()
                                .filter(t -> t.qualified().equals(qualified))
                                .findFirst()
                                .get();
                counts.merge(table.topic, 1, Integer::sum);
            }
            List<String> seen = new ArrayList<>();
            Map<String, Set<Integer>> used = new HashMap<>();
            for (Map.Entry<String, Integer> topic : counts.entrySet()) {
                List<Delivered> rows =
                        Delivered.drain(
                                KAFKA.server(),
                                topic.getKey(),
                                MessageFormat.CANAL_FLAT,
                                topic.getValue(),
                                WAIT);
                for (Delivered row : rows) {
                    Table table =
                            tables.stream()
                                    .filter(
                                            t ->
                                                    t.database.equals(row.row.database)
                                                            && t.name.equals(row.row.table))
                                    .findFirst()
                                    .orElseThrow(() -> new AssertionError("unknown " + row));
                    assertThat(row.topic).as("topic of %s", row).isEqualTo(table.topic);
                    assertThat(row.partition)
                            .as("Canal's partition of %s", row)
                            .isEqualTo(table.partition.apply(row.row.data));
                    assertThat(row.key).as("key of %s", row).isEqualTo(keyOf(table, row));
                    seen.add(change(table, row.row.type, row.get(table.idColumn)));
                    used.computeIfAbsent(row.topic, t -> new TreeSet<>()).add(row.partition);
                }
            }
            // The hashes really spread rows, so a wrong hash cannot pass by luck.
            for (String topic : List.of(schemaTopicA, usersTopic, ordersTopic, b, betaTopic)) {
                assertThat(used.get(topic))
                        .as("partitions used on %s", topic)
                        .hasSizeGreaterThan(1);
            }
            assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static String change(Table table, String type, String id) {
        return table.qualified() + " " + type + " " + id;
    }

    /** Sluice's message key: {@code ["db","table",pk...]} in key column order. */
    private static String keyOf(Table table, Delivered row) {
        StringBuilder key = new StringBuilder("[\"" + table.database + "\",\"" + table.name + "\"");
        for (String column : table.keyColumns) {
            key.append(",\"").append(row.get(column)).append('"');
        }
        return key.append(']').toString();
    }
}

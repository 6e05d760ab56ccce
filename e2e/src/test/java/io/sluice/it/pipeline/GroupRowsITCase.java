package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.CommittedMessages;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.job.SluiceSqlRunner;
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code format.group-rows: event} on a real Kafka and a real RocketMQ, through the YAML job and
 * the SQL door's sink tables, messages decoded by Canal's own classes: the rows of one multi-row
 * INSERT, UPDATE or DELETE share a message per partition, each UPDATE row's {@code old} holds that
 * row's own changed columns, every row arrives exactly once, and each key's changes arrive in
 * binlog order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GroupRowsITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int PARTITIONS = 2;
    private static final int ROWS = 10;
    private static final String END = "999";

    /**
     * Every pair of door, broker and format at least once (a covering array of four cases, not all
     * eight): each door groups into both formats and writes to both brokers, and each broker
     * carries both formats.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "yaml, kafka, canal-flat",
        "yaml, rocketmq, canal-binary",
        "sql, kafka, canal-binary",
        "sql, rocketmq, canal-flat"
    })
    void rowsOfOneStatementShareAMessagePerPartition(String door, String broker, String formatName)
            throws Exception {
        MessageFormat format =
                formatName.equals("canal-flat")
                        ? MessageFormat.CANAL_FLAT
                        : MessageFormat.CANAL_BINARY;
        MariaDbServer mariaDb = MARIADB.server();
        String db = mariaDb.createDatabase("grp_rows", null);
        mariaDb.execute(
                db,
                "CREATE TABLE items (id INT PRIMARY KEY, qty INT, note VARCHAR(16))",
                "INSERT INTO items VALUES (0, 0, 'snap')");
        String topic = "grp-" + db;
        CommittedMessages server = broker.equals("kafka") ? KAFKA.server() : ROCKETMQ.server();
        if (broker.equals("kafka")) {
            KAFKA.server().createTopic(topic, PARTITIONS, Map.of());
        } else {
            ROCKETMQ.server().createTopic(topic, PARTITIONS);
        }
        JobClient job =
                door.equals("yaml")
                        ? start(broker, format, db, topic)
                        : startSql(broker, format, db, topic);
        try {
            assertThat(server.committedValues(topic, 1, WAIT)).hasSize(1);
            StringBuilder values = new StringBuilder();
            for (int id = 1; id <= ROWS; id++) {
                values.append(id == 1 ? "" : ",").append("(" + id + ", " + id + ", 'n')");
            }
            mariaDb.execute(
                    db,
                    "INSERT INTO items VALUES " + values,
                    // Even rows change qty, odd rows the note: Canal would accumulate both.
                    "UPDATE items SET qty = IF(id % 2 = 0, qty + 100, qty),"
                            + " note = IF(id % 2 = 1, 'odd', note) WHERE id >= 1",
                    "DELETE FROM items WHERE id > 7",
                    "UPDATE items SET qty = qty + 1 WHERE id >= 1",
                    // Two rows events in one transaction: on MariaDB both carry its position.
                    "START TRANSACTION",
                    "INSERT INTO items VALUES (11, 11, 't'), (12, 12, 't'), (13, 13, 't')",
                    "INSERT INTO items VALUES (14, 14, 't'), (15, 15, 't'), (16, 16, 't')",
                    "COMMIT",
                    "INSERT INTO items VALUES (" + END + ", 0, 'end')");

            List<List<Row>> messages = untilEnd(server, topic, format);

            // Each key's changes, in the order its partition holds them, exactly once.
            Map<String, List<String>> byKey = new LinkedHashMap<>();
            for (List<Row> message : messages) {
                for (Row row : message) {
                    byKey.computeIfAbsent(row.data.get("id"), k -> new ArrayList<>())
                            .add(describe(row));
                }
            }
            assertThat(byKey.keySet()).hasSize(ROWS + 2 + 6);
            for (int id = 11; id <= 16; id++) {
                assertThat(byKey.get(String.valueOf(id)))
                        .containsExactly("INSERT qty=" + id + " note=t");
            }
            assertThat(byKey.get("0")).containsExactly("INSERT qty=0 note=snap");
            for (int id = 1; id <= ROWS; id++) {
                boolean even = id % 2 == 0;
                int qty = even ? id + 100 : id;
                String note = even ? "n" : "odd";
                List<String> expected = new ArrayList<>();
                expected.add("INSERT qty=" + id + " note=n");
                expected.add(
                        "UPDATE qty="
                                + qty
                                + " note="
                                + note
                                + (even ? " old={qty=" + id + "}" : " old={note=n}"));
                if (id > 7) {
                    expected.add("DELETE qty=" + qty + " note=" + note);
                } else {
                    expected.add(
                            "UPDATE qty=" + (qty + 1) + " note=" + note + " old={qty=" + qty + "}");
                }
                assertThat(byKey.get(String.valueOf(id)))
                        .as("changes of id %d", id)
                        .containsExactlyElementsOf(expected);
            }

            // Grouped: each statement's rows take one message per partition they went to.
            Map<String, Integer> messagesPerStatement = new LinkedHashMap<>();
            for (List<Row> message : messages) {
                String statement = statementOf(message.get(0));
                assertThat(message)
                        .as("one message holds the rows of one statement")
                        .extracting(GroupRowsITCase::statementOf)
                        .containsOnly(statement);
                messagesPerStatement.merge(statement, 1, Integer::sum);
            }
            assertThat(messagesPerStatement)
                    .containsEntry("snapshot", 1)
                    .containsEntry("end", 1)
                    .containsKeys("INSERT in a transaction 1", "INSERT in a transaction 2")
                    .hasSize(8);
            messagesPerStatement.forEach(
                    (statement, count) ->
                            assertThat(count)
                                    .as("messages of %s", statement)
                                    .isLessThanOrEqualTo(PARTITIONS));
            assertThat(messages).anySatisfy(m -> assertThat(m).hasSizeGreaterThan(2));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** Which of the test's statements wrote {@code row}. */
    private static String statementOf(Row row) {
        String id = row.data.get("id");
        if (id.equals("0")) {
            return "snapshot";
        }
        if (id.equals(END)) {
            return "end";
        }
        int key = Integer.parseInt(id);
        if (key > ROWS) {
            return "INSERT in a transaction " + (key <= 13 ? 1 : 2);
        }
        if (!row.type.equals("UPDATE")) {
            return row.type;
        }
        // The first UPDATE changed the note, or qty by 100; the second qty by 1.
        boolean first =
                row.old.containsKey("note")
                        || Integer.parseInt(row.data.get("qty"))
                                        - Integer.parseInt(row.old.get("qty"))
                                == 100;
        return first ? "UPDATE 1" : "UPDATE 2";
    }

    private static String describe(Row row) {
        return row.type
                + " qty="
                + row.data.get("qty")
                + " note="
                + row.data.get("note")
                + (row.old == null ? "" : " old=" + row.old);
    }

    /** The committed messages, each decoded into its rows, once the last row has arrived. */
    private static List<List<Row>> untilEnd(
            CommittedMessages server, String topic, MessageFormat format) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<List<Row>> messages = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            messages.clear();
            boolean ended = false;
            for (byte[] value : server.committedValues(topic, 1, WAIT)) {
                List<Row> rows = CanalMessages.decode(format, value);
                messages.add(rows);
                ended |= rows.stream().anyMatch(r -> END.equals(r.data.get("id")));
            }
            if (ended) {
                return messages;
            }
        }
        throw new AssertionError("The last row never arrived; read " + messages);
    }

    /** The same through the SQL door: the catalog's change table into a sink table. */
    private static JobClient startSql(
            String broker, MessageFormat format, String db, String topic) {
        String connector =
                broker.equals("kafka")
                        ? "'connector' = 'sluice-kafka', 'bootstrap-servers' = '"
                                + KAFKA.server().bootstrapServers()
                                + "', 'transactional-id-prefix' = '"
                                + topic
                                + "'"
                        : "'connector' = 'sluice-rocketmq', 'name-server' = '"
                                + ROCKETMQ.server().nameServerAddress()
                                + "', 'producer-group' = '"
                                + topic
                                + "'";
        String script =
                "SET 'execution.checkpointing.interval' = '1s';\n"
                        // One path: an event's rows meet in one encoder.
                        + "SET 'parallelism.default' = '1';\n"
                        + "CREATE CATALOG cdc WITH ('type' = 'sluice', 'hostname' ="
                        + " '${SOURCE_HOST}', 'port' = '${SOURCE_PORT}', 'username' ="
                        + " '${SOURCE_USER}', 'password' = '${SOURCE_PASSWORD}', 'table-pattern'"
                        + " = 'items');\n"
                        + "CREATE TABLE mq WITH ("
                        + connector
                        + ", 'format' = '"
                        + format
                        + "', 'topic' = '"
                        + topic
                        + "', 'format.group-rows' = 'event', 'partition-hash' ="
                        + " '${DATABASE}.items:$pk$') LIKE cdc.${DATABASE}.changes (EXCLUDING"
                        + " ALL);\n"
                        + "INSERT INTO mq SELECT change FROM cdc.${DATABASE}.changes;\n";
        Map<String, String> defines = new HashMap<>();
        MariaDbServer mariaDb = MARIADB.server();
        defines.put("SOURCE_HOST", mariaDb.host());
        defines.put("SOURCE_PORT", Integer.toString(mariaDb.port()));
        defines.put("SOURCE_USER", MariaDbServer.CDC_USER);
        defines.put("SOURCE_PASSWORD", MariaDbServer.CDC_PASSWORD);
        defines.put("DATABASE", db);
        return SluiceSqlRunner.start(script, "group-rows-sql-" + db, defines, Map.of());
    }

    private static JobClient start(String broker, MessageFormat format, String db, String topic)
            throws Exception {
        List<String> overrides = new ArrayList<>();
        overrides.add("job.checkpoint-interval=1s");
        overrides.add("format=" + format);
        overrides.add("format.group-rows=event");
        overrides.add("route.partition-hash=" + db + "\\.items:$pk$");
        if (broker.equals("rocketmq")) {
            overrides.add("sink.type=rocketmq");
            overrides.add("sink.rocketmq.name-server=" + ROCKETMQ.server().nameServerAddress());
            overrides.add("sink.rocketmq.producer-group=" + topic);
        }
        Configuration config =
                EmbeddedJobs.config(
                        MARIADB.server(),
                        KAFKA.server(),
                        db + ".items",
                        topic,
                        overrides.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return EmbeddedJobs.start(env, config, "group-rows-" + db);
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.job.EmbeddedJobs;
import io.sluice.it.server.CommittedMessages;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.RocketMqExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code format.group-rows: event} on a real Kafka and a real RocketMQ, messages decoded by Canal's
 * own classes: the rows of one multi-row INSERT, UPDATE or DELETE share a message per partition,
 * each UPDATE row's {@code old} holds that row's own changed columns, every row arrives exactly
 * once, and each key's changes arrive in binlog order.
 */
class GroupRowsITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
    @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int PARTITIONS = 2;
    private static final int ROWS = 10;
    private static final String END = "999";

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "kafka, canal-flat",
        "kafka, canal-binary",
        "rocketmq, canal-flat",
        "rocketmq, canal-binary"
    })
    void rowsOfOneStatementShareAMessagePerPartition(String broker, String formatName)
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
        JobClient job = start(broker, format, db, topic);
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
            assertThat(byKey.keySet()).hasSize(ROWS + 2);
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
                assertThat(message)
                        .as("one message holds one type")
                        .extracting(r -> r.type)
                        .containsOnly(message.get(0).type);
                String statement = statementOf(message.get(0));
                messagesPerStatement.merge(statement, 1, Integer::sum);
            }
            assertThat(messagesPerStatement)
                    .containsEntry("snapshot", 1)
                    .containsEntry("end", 1)
                    .hasSize(6);
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

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
import io.sluice.tools.job.EmbeddedJobs;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter options on a real Kafka and a real RocketMQ, messages decoded by Canal's own classes:
 * cut and masked columns are absent from data, old, mysqlType and sqlType (flat) and from the
 * protobuf columns (binary); an UPDATE of excluded columns alone is dropped; row predicates and
 * change kinds drop exactly the changes they should, in order with the rest.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FilterITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final String SALT = "pepper";

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "kafka, canal-flat",
        "kafka, canal-binary",
        "rocketmq, canal-flat",
        "rocketmq, canal-binary"
    })
    void columnsAreCutAndMaskedInBothFormats(String broker, String formatName) throws Exception {
        MessageFormat format =
                formatName.equals("canal-flat")
                        ? MessageFormat.CANAL_FLAT
                        : MessageFormat.CANAL_BINARY;
        MariaDbServer mariaDb = MARIADB.server();
        String db = mariaDb.createDatabase("flt_cols", null);
        mariaDb.execute(
                db,
                "CREATE TABLE users (id INT PRIMARY KEY, email VARCHAR(64), phone VARCHAR(32),"
                        + " note VARCHAR(64), secret VARCHAR(64))",
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(16),"
                        + " amount DECIMAL(10,2), internal VARCHAR(64))",
                "INSERT INTO users VALUES (1, 'a@b.c', '5551234', 'hello', 's1')",
                "INSERT INTO orders VALUES (1, 'paid', 12.50, 'x')");
        Target target = new Target(broker, db, "flt-" + db, format);
        target.createTopic();
        JobClient job =
                start(
                        target,
                        db + "\\.(users|orders)",
                        "filter.columns.exclude=" + db + ".users:secret",
                        "filter.columns.include=" + db + "\\.ord.*:status",
                        "filter.columns.mask="
                                + db
                                + ".users:email=hash,phone=truncate(3),note=replace(***)",
                        "filter.mask-salt=" + SALT,
                        "filter.drop-empty-updates=true");
        try {
            target.drain(2);
            mariaDb.execute(
                    db,
                    "UPDATE users SET secret = 's2' WHERE id = 1",
                    "UPDATE users SET email = 'x@y.z' WHERE id = 1",
                    "INSERT INTO orders VALUES (2, 'new', 1.00, 'y')");

            List<Row> rows = new ArrayList<>();
            for (byte[] value : target.drain(4)) {
                rows.addAll(CanalMessages.decode(format, value));
            }

            List<String> seen = new ArrayList<>();
            for (Row row : rows) {
                seen.add(row.type + " " + row.table + " " + row.data.get("id"));
            }
            // The snapshot reads the two tables in no fixed order; the binlog comes after.
            assertThat(seen.subList(0, 2))
                    .containsExactlyInAnyOrder("INSERT users 1", "INSERT orders 1");
            assertThat(seen.subList(2, seen.size()))
                    .as("the update of secret alone is dropped")
                    .containsExactly("UPDATE users 1", "INSERT orders 2");
            // Flat data is a map to Canal's FlatMessage: its order is not part of the format.
            Row user = rows.get(seen.indexOf("INSERT users 1"));
            assertThat(user.data)
                    .containsOnly(
                            Map.entry("id", "1"),
                            Map.entry("email", sha256("a@b.c")),
                            Map.entry("phone", "555"),
                            Map.entry("note", "***"));
            assertThat(user.mysqlType)
                    .containsOnlyKeys("id", "email", "phone", "note")
                    .containsEntry("email", "char(64)")
                    .containsEntry("phone", "varchar(32)");
            assertThat(user.sqlType).containsOnlyKeys("id", "email", "phone", "note");
            Row update = rows.get(2);
            assertThat(update.data)
                    .containsEntry("email", sha256("x@y.z"))
                    .doesNotContainKey("secret");
            assertThat(update.old).containsExactly(Map.entry("email", sha256("a@b.c")));
            Row order = rows.get(seen.indexOf("INSERT orders 1"));
            assertThat(order.data).containsOnly(Map.entry("id", "1"), Map.entry("status", "paid"));
            assertThat(order.mysqlType).containsOnlyKeys("id", "status");
            assertThat(order.sqlType).containsOnlyKeys("id", "status");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kafka", "rocketmq"})
    void rowPredicatesAndChangeKindsDropExactlyTheirChanges(String broker) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String db = mariaDb.createDatabase("flt_rows", null);
        mariaDb.execute(
                db,
                "CREATE TABLE orders (id INT PRIMARY KEY, status VARCHAR(16),"
                        + " amount DECIMAL(10,2))",
                "INSERT INTO orders VALUES (1, 'paid', 12.50)",
                "INSERT INTO orders VALUES (2, 'paid', 3.00)");
        Target target = new Target(broker, db, "flt-" + db, MessageFormat.CANAL_FLAT);
        target.createTopic();
        JobClient job =
                start(
                        target,
                        db + ".orders",
                        "filter.rows=" + db + "\\.orders: status = 'paid' and amount > 10",
                        "filter.types=insert;update;ddl");
        try {
            target.drain(1);
            mariaDb.execute(
                    db,
                    "INSERT INTO orders VALUES (3, 'new', 50)",
                    "INSERT INTO orders VALUES (4, 'paid', 10.01)",
                    "INSERT INTO orders VALUES (5, 'paid', NULL)",
                    "DELETE FROM orders WHERE id = 1",
                    "UPDATE orders SET amount = 99 WHERE id = 2",
                    "ALTER TABLE orders ADD COLUMN note VARCHAR(8)",
                    "INSERT INTO orders VALUES (6, 'paid', 100, 'n')");

            List<String> seen = new ArrayList<>();
            for (byte[] value : target.drain(5)) {
                for (Row row : CanalMessages.decode(MessageFormat.CANAL_FLAT, value)) {
                    seen.add(row.ddl ? row.type : row.type + " " + row.data.get("id"));
                }
            }

            assertThat(seen)
                    .containsExactly("INSERT 1", "INSERT 4", "UPDATE 2", "ALTER", "INSERT 6");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static String sha256(String value) throws Exception {
        return HexFormat.of()
                .formatHex(
                        MessageDigest.getInstance("SHA-256")
                                .digest((SALT + value).getBytes(StandardCharsets.UTF_8)));
    }

    private static JobClient start(Target target, String tables, String... extra) throws Exception {
        List<String> overrides = new ArrayList<>();
        overrides.add("job.checkpoint-interval=1s");
        overrides.add("format=" + target.format);
        if (target.broker.equals("rocketmq")) {
            overrides.add("sink.type=rocketmq");
            overrides.add("sink.rocketmq.name-server=" + ROCKETMQ.server().nameServerAddress());
            overrides.add("sink.rocketmq.producer-group=" + target.topic);
        }
        overrides.addAll(List.of(extra));
        Configuration config =
                EmbeddedJobs.config(
                        MARIADB.server(),
                        KAFKA.server(),
                        tables,
                        target.topic,
                        overrides.toArray(String[]::new));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return EmbeddedJobs.start(env, config, "filter-" + target.database);
    }

    /** Where a test's messages go: a broker, a one-partition topic and the format. */
    private record Target(String broker, String database, String topic, MessageFormat format) {

        void createTopic() {
            if (broker.equals("kafka")) {
                KAFKA.server().createTopic(topic, 1, Map.of());
            } else {
                ROCKETMQ.server().createTopic(topic, 1);
            }
        }

        /** The committed messages, in order, once at least {@code count} arrived. */
        List<byte[]> drain(int count) {
            CommittedMessages server = broker.equals("kafka") ? KAFKA.server() : ROCKETMQ.server();
            List<byte[]> values = server.committedValues(topic, count, WAIT);
            assertThat(values).as("messages in %s", topic).hasSizeGreaterThanOrEqualTo(count);
            return values;
        }
    }
}

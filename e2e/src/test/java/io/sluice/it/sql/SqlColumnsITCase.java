package io.sluice.it.sql;

import org.apache.flink.core.execution.JobClient;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
 * The column options of the SQL sink tables ({@code columns.exclude}, {@code columns.mask}, {@code
 * mask-salt}, {@code drop-empty-updates}) on a real Kafka and a real RocketMQ, the messages decoded
 * by Canal's own classes: the same shaping as the YAML job's {@code filter.*} keys.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlColumnsITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(2);

    private static final Duration WAIT = Duration.ofMinutes(2);

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"kafka, canal-flat", "rocketmq, canal-binary"})
    void sinkTablesCutAndMaskColumns(String broker, String formatName) throws Exception {
        MessageFormat format =
                formatName.equals("canal-flat")
                        ? MessageFormat.CANAL_FLAT
                        : MessageFormat.CANAL_BINARY;
        MariaDbServer mariaDb = MARIADB.server();
        String db = mariaDb.createDatabase("sql_cols", null);
        mariaDb.execute(
                db,
                "CREATE TABLE users (id INT PRIMARY KEY, email VARCHAR(64), secret VARCHAR(64))",
                "INSERT INTO users VALUES (1, 'a@b.c', 's1')");
        String topic = "sqlcols-" + db;
        String connector;
        if (broker.equals("kafka")) {
            KAFKA.server().createTopic(topic, 1, Map.of());
            connector =
                    "'connector' = 'sluice-kafka', 'bootstrap-servers' = '"
                            + KAFKA.server().bootstrapServers()
                            + "', 'transactional-id-prefix' = '"
                            + topic
                            + "'";
        } else {
            ROCKETMQ.server().createTopic(topic, 1);
            connector =
                    "'connector' = 'sluice-rocketmq', 'name-server' = '"
                            + ROCKETMQ.server().nameServerAddress()
                            + "', 'producer-group' = '"
                            + topic
                            + "'";
        }
        Map<String, String> defines = SqlJobs.defines(mariaDb, db);
        String script =
                "SET 'execution.checkpointing.interval' = '1s';\n"
                        + "CREATE CATALOG cdc WITH ('type' = 'sluice', 'hostname' ="
                        + " '${SOURCE_HOST}', 'port' = '${SOURCE_PORT}', 'username' ="
                        + " '${SOURCE_USER}', 'password' = '${SOURCE_PASSWORD}', 'table-pattern'"
                        + " = 'users');\n"
                        + "CREATE TABLE mq WITH ("
                        + connector
                        + ", 'format' = '"
                        + formatName
                        + "', 'topic' = '"
                        + topic
                        + "', 'columns.exclude' = '${DATABASE}.users:secret',"
                        + " 'columns.mask' = '${DATABASE}.users:email=hash', 'mask-salt' ="
                        + " 'pepper', 'drop-empty-updates' = 'true')"
                        + " LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);\n"
                        + "INSERT INTO mq SELECT change FROM cdc.${DATABASE}.changes;\n";
        JobClient job = SqlJobs.start(script, "sql-columns-" + db, defines);
        try {
            drain(broker, topic, 1);
            mariaDb.execute(
                    db,
                    "UPDATE users SET secret = 's2' WHERE id = 1",
                    "UPDATE users SET email = 'x@y.z' WHERE id = 1");
            List<Row> rows = new ArrayList<>();
            for (byte[] value : drain(broker, topic, 2)) {
                rows.addAll(CanalMessages.decode(format, value));
            }

            assertThat(rows)
                    .extracting(r -> r.type + " " + r.data.get("id"))
                    .as("the update of secret alone is dropped")
                    .containsExactly("INSERT 1", "UPDATE 1");
            assertThat(rows.get(0).data)
                    .containsOnly(Map.entry("id", "1"), Map.entry("email", sha256("a@b.c")));
            assertThat(rows.get(0).mysqlType).containsOnlyKeys("id", "email");
            assertThat(rows.get(0).sqlType).containsOnlyKeys("id", "email");
            assertThat(rows.get(1).old).containsOnly(Map.entry("email", sha256("a@b.c")));
            assertThat(rows.get(1).data).containsEntry("email", sha256("x@y.z"));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static List<byte[]> drain(String broker, String topic, int count) {
        CommittedMessages server = broker.equals("kafka") ? KAFKA.server() : ROCKETMQ.server();
        List<byte[]> values = server.committedValues(topic, count, WAIT);
        assertThat(values).as("messages in %s", topic).hasSizeGreaterThanOrEqualTo(count);
        return values;
    }

    private static String sha256(String value) throws Exception {
        return HexFormat.of()
                .formatHex(
                        MessageDigest.getInstance("SHA-256")
                                .digest(("pepper" + value).getBytes(StandardCharsets.UTF_8)));
    }
}

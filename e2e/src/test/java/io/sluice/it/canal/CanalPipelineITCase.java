package io.sluice.it.canal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.tools.job.EmbeddedJobs;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job end to end, in both formats: snapshot rows (read in parallel), then binlog
 * INSERT/UPDATE/DELETE, a DDL and a primary-key change from a real MariaDB, read back with
 * read_committed and decoded by Canal's own classes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CanalPipelineITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(2);

    @ParameterizedTest
    @EnumSource(
            value = MessageFormat.class,
            names = {"CANAL_FLAT", "CANAL_BINARY"})
    void snapshotBinlogAndDdlDecodeWithCanal(MessageFormat format) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("canal", "ddl/skeleton.sql");
        String topic = "canal-" + database;
        KAFKA.server().createTopic(topic, 1);

        JobClient job = startJob(mariaDb, database, topic, format);
        try {
            List<Row> snapshot = decode(format, KAFKA.server().drainReadCommitted(topic, 3, WAIT));
            assertThat(snapshot).extracting(r -> r.type).containsOnly("INSERT");
            assertThat(snapshot)
                    .extracting(r -> r.data.get("id"))
                    .containsExactlyInAnyOrder("1", "2", "3");
            Row fig = snapshot.stream().filter(r -> r.data.get("id").equals("3")).findFirst().get();
            assertThat(fig.database).isEqualTo(database);
            assertThat(fig.table).isEqualTo("items");
            assertThat(fig.ddl).isFalse();
            // Sluice keeps the declared scale where Canal would write "10.0".
            assertThat(fig.data).containsEntry("price", "10.00").containsEntry("name", "fig");
            // Canal's FlatMessage parser reads maps into HashMaps: order is pinned by the
            // encoders' byte-level tests, content here.
            assertThat(fig.mysqlType)
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of(
                                    "id",
                                    "int(11)",
                                    "name",
                                    "varchar(32)",
                                    "price",
                                    "decimal(10,2)"));
            assertThat(fig.sqlType)
                    .containsExactlyInAnyOrderEntriesOf(Map.of("id", 4, "name", 12, "price", 3));

            mariaDb.execute(
                    database,
                    "INSERT INTO items VALUES (4, 'kiwi 🥝', 0.99)",
                    "UPDATE items SET name = 'green apple' WHERE id = 1",
                    "DELETE FROM items WHERE id = 2",
                    "ALTER TABLE items ADD COLUMN note VARCHAR(8) NULL",
                    "INSERT INTO items VALUES (5, 'lime', 0.50, NULL)",
                    "UPDATE items SET id = 40 WHERE id = 3");

            List<ConsumerRecord<byte[], byte[]>> records =
                    KAFKA.server().drainReadCommitted(topic, 10, WAIT);
            List<Row> all = decode(format, records);
            assertThat(all).hasSize(10);
            List<Row> binlog = all.subList(3, 10);
            // No QUERY messages: source.include-queries is off by default.
            assertThat(binlog)
                    .extracting(r -> r.type)
                    .containsExactly(
                            "INSERT", "UPDATE", "DELETE", "ALTER", "INSERT", "DELETE", "INSERT");

            assertThat(binlog.get(0).data).containsEntry("name", "kiwi 🥝");
            assertThat(binlog.get(1).data).containsEntry("name", "green apple");
            assertThat(binlog.get(1).old).containsExactly(Map.entry("name", "apple"));
            assertThat(binlog.get(2).data).containsEntry("id", "2").containsEntry("name", "pear");
            Row alter = binlog.get(3);
            assertThat(alter.ddl).isTrue();
            assertThat(alter.table).isEqualTo("items");
            assertThat(alter.sql).containsIgnoringCase("ADD COLUMN note");
            assertThat(binlog.get(4).data).containsEntry("note", null).containsEntry("id", "5");

            // The message key is the primary key, so compaction keeps one message per row.
            assertThat(new String(records.get(3).key(), StandardCharsets.UTF_8))
                    .isEqualTo("[\"" + database + "\",\"items\",\"4\"]");
            assertThat(records.get(6).key()).as("a DDL has no row key").isNull();

            // A primary-key change: the old key's history ends with a DELETE under the old key,
            // the new key's starts with an INSERT under the new one.
            assertThat(binlog.get(5).data).containsEntry("id", "3").containsEntry("name", "fig");
            assertThat(binlog.get(6).data).containsEntry("id", "40").containsEntry("name", "fig");
            assertThat(new String(records.get(8).key(), StandardCharsets.UTF_8))
                    .isEqualTo("[\"" + database + "\",\"items\",\"3\"]");
            assertThat(new String(records.get(9).key(), StandardCharsets.UTF_8))
                    .isEqualTo("[\"" + database + "\",\"items\",\"40\"]");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static JobClient startJob(
            MariaDbServer mariaDb, String database, String topic, MessageFormat format)
            throws Exception {
        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".items",
                        topic,
                        "format=" + format,
                        "job.checkpoint-interval=500ms",
                        // One encode/sink path keeps the binlog's total order, DDL included; the
                        // pipeline's cross-subtask DDL ordering is tested on its own.
                        "parallelism.encode=1",
                        "parallelism.sink=1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        return EmbeddedJobs.start(env, config, "canal-" + format + "-" + database);
    }

    private static List<Row> decode(
            MessageFormat format, List<ConsumerRecord<byte[], byte[]>> records) {
        List<Row> rows = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            rows.addAll(CanalMessages.decode(format, record.value()));
        }
        return rows;
    }
}

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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An UPDATE that changes the primary key, on a 3-partition topic where the old and the new key hash
 * to different partitions.
 *
 * <p>What consumers see (the documented representation): not an UPDATE, but a DELETE of the old row
 * (its last image, under the old key) in the old key's partition, after the old key's earlier
 * changes, and an INSERT of the new row (under the new key) in the new key's partition, before the
 * new key's later changes. Each partition's consumer thus sees a complete, ordered history of the
 * keys it owns. (Canal instead sends one UPDATE to the new key's partition only, so the old key's
 * consumer never learns the row left.) A key freed this way and reused later continues its history
 * in its own partition: DELETE, then the reused key's INSERT.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PrimaryKeyChangeITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void keyChangeIsDeleteInOldPartitionAndInsertInNewOne() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("pkchange", "ddl/counters.sql");
        // a -> b moves a row across partitions; d -> a later reuses the freed key a, from a
        // third partition.
        int a = 1;
        int b = firstIdNotIn(database, a, partition(database, a));
        int d = firstIdNotIn(database, b, partition(database, a), partition(database, b));
        int seed = 1000;
        mariaDb.execute(database, "INSERT INTO counters VALUES (" + seed + ", 0, 'seed')");
        String topic = "pkchange-" + database;
        KAFKA.server().createTopic(topic, PARTITIONS);

        Configuration config =
                EmbeddedJobs.config(
                        mariaDb,
                        KAFKA.server(),
                        database + ".counters",
                        topic,
                        "job.checkpoint-interval=1s",
                        "parallelism.encode=2",
                        "parallelism.sink=2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        JobClient job = EmbeddedJobs.start(env, config, "pk-change-" + database);
        try {
            assertThat(KAFKA.server().drainReadCommitted(topic, 1, WAIT)).hasSize(1);

            mariaDb.execute(
                    database,
                    "INSERT INTO counters VALUES (" + a + ", 1, 'row-a')",
                    "UPDATE counters SET version = 2 WHERE id = " + a,
                    "UPDATE counters SET version = 3 WHERE id = " + a,
                    // The key change, with a non-key column changing too.
                    "UPDATE counters SET id = " + b + ", version = 4 WHERE id = " + a,
                    "UPDATE counters SET version = 5 WHERE id = " + b,
                    "UPDATE counters SET version = 6 WHERE id = " + b,
                    "INSERT INTO counters VALUES (" + d + ", 10, 'row-d')",
                    "UPDATE counters SET version = 11 WHERE id = " + d,
                    // The freed key a is taken by another row; only the key changes.
                    "UPDATE counters SET id = " + a + " WHERE id = " + d,
                    "UPDATE counters SET version = 12 WHERE id = " + a,
                    "DELETE FROM counters WHERE id = " + b);

            List<Delivered> rows =
                    Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, 14, WAIT);

            Map<Integer, List<String>> byKey = new TreeMap<>();
            for (Delivered row : rows) {
                int id = Integer.parseInt(row.get("id"));
                assertThat(row.partition)
                        .as("the partition of %s is its own key's", row)
                        .isEqualTo(partition(database, id));
                assertThat(row.key)
                        .as("the message key of %s is its own key", row)
                        .isEqualTo("[\"" + database + "\",\"counters\",\"" + id + "\"]");
                if (row.row.type.equals("UPDATE")) {
                    assertThat(row.row.old)
                            .as("no UPDATE changes a key: %s", row)
                            .doesNotContainKey("id");
                }
                byKey.computeIfAbsent(id, k -> new ArrayList<>())
                        .add(row.row.type + " " + row.get("version") + " " + row.get("note"));
            }
            assertThat(partition(database, a)).isNotEqualTo(partition(database, b));
            assertThat(partition(database, d)).isNotEqualTo(partition(database, a));
            assertThat(byKey.get(a))
                    .as("key %s: its history, the DELETE of the moved row, then the reuse", a)
                    .containsExactly(
                            "INSERT 1 row-a",
                            "UPDATE 2 row-a",
                            "UPDATE 3 row-a",
                            "DELETE 3 row-a",
                            "INSERT 11 row-d",
                            "UPDATE 12 row-d");
            assertThat(byKey.get(b))
                    .as("key %s: the INSERT of the moved row, then its later changes", b)
                    .containsExactly(
                            "INSERT 4 row-a", "UPDATE 5 row-a", "UPDATE 6 row-a", "DELETE 6 row-a");
            assertThat(byKey.get(d))
                    .as("key %s: its history ends with the DELETE of the moved row", d)
                    .containsExactly("INSERT 10 row-d", "UPDATE 11 row-d", "DELETE 11 row-d");
            assertThat(byKey.get(seed)).containsExactly("INSERT 0 seed");
            assertThat(rows).hasSize(14);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    /** Canal's $pk$ partition of a key. */
    private static int partition(String database, int id) {
        return Delivered.canalPartition(database, PARTITIONS, Integer.toString(id));
    }

    /** The first id above {@code after} whose partition is none of {@code taken}. */
    private static int firstIdNotIn(String database, int after, int... taken) {
        for (int id = after + 1; ; id++) {
            int p = partition(database, id);
            boolean free = true;
            for (int t : taken) {
                free &= p != t;
            }
            if (free) {
                return id;
            }
        }
    }
}

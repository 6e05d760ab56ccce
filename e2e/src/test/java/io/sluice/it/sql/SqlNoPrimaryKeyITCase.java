package io.sluice.it.sql;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.InjectClusterRESTAddress;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.flink.JobExceptions;
import io.sluice.it.pipeline.Delivered;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A table without a primary key through the SQL door: without {@code snapshot.chunk-key-columns}
 * the job fails once at start, naming the table and the option as the SQL door spells it; with it,
 * every snapshot row arrives once and the table's binlog rows share one partition, in order.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SqlNoPrimaryKeyITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final int ROWS = 40;

    @Test
    void withoutAChunkKeyColumnTheJobFailsOnceNamingTheSqlOption(@InjectClusterRESTAddress URI rest)
            throws Exception {
        String database = seeded("sql_nopk_refused");
        JobClient job = start(database, "");

        assertThatThrownBy(() -> job.getJobExecutionResult().get(2, TimeUnit.MINUTES))
                .isInstanceOf(ExecutionException.class)
                .satisfies(
                        e ->
                                assertThat(
                                                ExceptionUtils.findThrowable(
                                                                e, SourceSetupException.class)
                                                        .map(Throwable::getMessage))
                                        .hasValueSatisfying(
                                                message ->
                                                        assertThat(message)
                                                                .contains(
                                                                        "Tables without a primary"
                                                                                + " key cannot be"
                                                                                + " snapshotted in"
                                                                                + " chunks: ["
                                                                                + database
                                                                                + ".events]",
                                                                        "Name a column for"
                                                                                + " each in"
                                                                                + " 'snapshot.chunk-key-columns'")
                                                                .doesNotContain("'source.")));
        assertThat(JobExceptions.of(rest, job.getJobID()).failures())
                .as("failed once, never restarted")
                .isEqualTo(1);
    }

    @Test
    void withAChunkKeyColumnEveryRowArrivesOnce() throws Exception {
        String database = seeded("sql_nopk");
        String topic = "nopk-" + database;
        KAFKA.server().createTopic(topic, 3);
        JobClient job =
                start(
                        database,
                        ", 'snapshot.chunk-size' = '10', 'snapshot.chunk-key-columns' = '"
                                + database
                                + ".events:id'");
        try {
            List<Delivered> snapshot =
                    Delivered.drain(KAFKA.server(), topic, MessageFormat.CANAL_FLAT, ROWS, WAIT);
            assertThat(snapshot)
                    .extracting(row -> row.get("id"))
                    .doesNotHaveDuplicates()
                    .hasSize(ROWS);
            MARIADB.server().execute(database, "UPDATE events SET body = 'later' WHERE id < 5");
            List<Delivered> all =
                    Delivered.drain(
                            KAFKA.server(), topic, MessageFormat.CANAL_FLAT, ROWS + 5, WAIT);
            assertThat(all).hasSize(ROWS + 5);
            assertThat(all.subList(ROWS, ROWS + 5))
                    .allSatisfy(row -> assertThat(row.get("body")).isEqualTo("later"))
                    .extracting(row -> row.partition)
                    .as("rows of a table without primary key share one partition")
                    .containsOnly(all.get(ROWS).partition);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static String seeded(String prefix) {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase(prefix, null);
        List<String> seed = new ArrayList<>();
        seed.add("CREATE TABLE events (id INT NOT NULL, body VARCHAR(16), KEY (id))");
        for (int id = 0; id < ROWS; id++) {
            seed.add("INSERT INTO events VALUES (" + id + ", 'seed')");
        }
        mariaDb.execute(database, seed.toArray(String[]::new));
        return database;
    }

    /** The changes of {@code database} into topic nopk-{@code database}, {@code extra} options. */
    private static JobClient start(String database, String extra) {
        String script =
                "SET 'execution.checkpointing.interval' = '500ms';\n"
                        + "CREATE TABLE binlog (change "
                        + ChangeColumn.SQL_TYPE
                        + ")\n"
                        + "WITH ('connector' = 'sluice-mysql', 'hostname' = '${SOURCE_HOST}',"
                        + " 'port' = '${SOURCE_PORT}', 'username' = '${SOURCE_USER}',"
                        + " 'password' = '${SOURCE_PASSWORD}', 'tables' = '${DATABASE}.events'"
                        + extra
                        + ");\n"
                        + "CREATE TABLE mq WITH ('connector' = 'sluice-kafka',"
                        + " 'bootstrap-servers' = '${KAFKA}', 'topic' = 'nopk-${DATABASE}',"
                        + " 'format' = 'canal-flat', 'transactional-id-prefix' = '${DATABASE}')\n"
                        + "LIKE binlog (EXCLUDING ALL);\n"
                        + "INSERT INTO mq SELECT change FROM binlog;\n";
        return SqlJobs.start(
                script,
                "sql-nopk-" + database,
                SqlJobs.defines(MARIADB.server(), KAFKA.server(), database));
    }
}

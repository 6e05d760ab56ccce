package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.function.ThrowingRunnable;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.pipeline.KeyHistories.Report;
import io.sluice.it.pipeline.VersionedWriter.Fate;
import io.sluice.it.pipeline.VersionedWriter.Key;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.Waits;
import io.sluice.tools.job.EmbeddedJobs;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * One case of a snapshot under live load: its database with three tables of 500 rows (or as many
 * tables and rows as asked) read in chunks of 50, a {@link VersionedWriter} load and {@link
 * BinlogNoise} from before the snapshot to the end, its topic, and the job's configuration; {@link
 * #verify} judges every row's history.
 */
final class SnapshotRun {

    static final List<String> TABLES = List.of("t1", "t2", "t3");
    static final int SEED_ROWS = 500;
    static final int CHUNK = 50;
    static final int PARTITIONS = 3;
    static final Duration WAIT = Duration.ofMinutes(2);

    /** How long the load goes on once the restored job commits binlog changes. */
    static final Duration LOAD_AFTER_RESTORE = Duration.ofSeconds(3);

    final DatabaseServer mariaDb;
    final KafkaServer kafka;
    final String database;
    final String topic;
    final int parallelism;
    final KeyKind keys;
    final List<String> tables;
    final int seedRows;
    final VersionedWriter writer;
    final BinlogNoise noise;
    final Configuration config;
    final TopicWatch written;
    final TopicWatch committed;
    private String atFailure = "";

    SnapshotRun(
            DatabaseServer mariaDb,
            KafkaServer kafka,
            String prefix,
            int parallelism,
            String... overrides) {
        this(
                mariaDb,
                kafka,
                prefix,
                parallelism,
                KeyKind.INT,
                true,
                TABLES.size(),
                SEED_ROWS,
                overrides);
    }

    /**
     * @param keys the type of the tables' primary keys
     * @param loadFromStart whether the load starts before the snapshot; if not, {@link
     *     #startLoadInFirstChunks} starts it
     * @param tables how many of t1, t2, t3 the database has
     * @param seedRows the rows of each table before the load
     */
    SnapshotRun(
            DatabaseServer mariaDb,
            KafkaServer kafka,
            String prefix,
            int parallelism,
            KeyKind keys,
            boolean loadFromStart,
            int tables,
            int seedRows,
            String... overrides) {
        this.mariaDb = mariaDb;
        this.keys = keys;
        this.tables = TABLES.subList(0, tables);
        this.seedRows = seedRows;
        this.kafka = kafka;
        this.parallelism = parallelism;
        database = mariaDb.createDatabase(prefix, null);
        topic = prefix + "-" + database;
        kafka.createTopic(topic, PARTITIONS);
        writer =
                new VersionedWriter(
                        mariaDb, database, this.tables, seedRows, database.hashCode(), keys);
        writer.createAndSeed();
        List<String> settings =
                new ArrayList<>(
                        List.of(
                                "job.checkpoint-interval=1s",
                                "source.snapshot.chunk-size=" + CHUNK,
                                "parallelism.source=" + parallelism,
                                "parallelism.encode=" + parallelism,
                                "parallelism.sink=" + parallelism));
        settings.addAll(keys.jobSettings());
        settings.addAll(List.of(overrides));
        config =
                EmbeddedJobs.config(
                        mariaDb, kafka, database + "\\..*", topic, settings.toArray(String[]::new));
        written = new TopicWatch(kafka.bootstrapServers(), topic, "read_uncommitted", keys);
        committed = new TopicWatch(kafka.bootstrapServers(), topic, "read_committed", keys);
        // The load runs from before the snapshot to the end, the noise too: nearly every chunk
        // needs a backfill.
        if (loadFromStart) {
            writer.start();
        }
        noise = BinlogNoise.start(mariaDb);
    }

    /** The seed rows of all tables: the rows the snapshot reads. */
    int snapshotRows() {
        return tables.size() * seedRows;
    }

    JobClient start(Configuration envConfig, String name) throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(envConfig);
        env.setParallelism(parallelism);
        return EmbeddedJobs.start(env, config, name);
    }

    /**
     * Starts the load once the last table's first chunk is written (its bounds are fixed), on keys
     * below each table's {@code rows}-th seed key alone: keys of the first chunks. The binlog
     * between the lowest and the highest high watermark of the last table then changes rows of its
     * first chunk, read, while its later chunks are read (at parallelism 1, the tables one after
     * another).
     */
    void startLoadInFirstChunks(int rows) {
        List<Integer> seeds = new ArrayList<>();
        for (int id = 0; id < seedRows; id++) {
            seeds.add(id);
        }
        seeds.sort(keys::compare);
        int limit = seeds.get(rows - 1);
        writer.touchOnly(id -> keys.compare(id, limit) < 0);
        String last = tables.get(tables.size() - 1);
        Set<Key> lastSeeds = new HashSet<>();
        for (int id = 0; id < seedRows; id++) {
            lastSeeds.add(new Key(last, id));
        }
        Waits.until(
                "the first chunk of " + database + "." + last + " written",
                WAIT,
                () -> written.poll().missing(lastSeeds) < seedRows);
        writer.start();
    }

    /** Waits until the topic shows {@code moment}; the failure comes right after. */
    void awaitMoment(SnapshotFailoverITCase.Moment moment) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!reached(moment)) {
            assertThat(written.binlogPhase())
                    .as(
                            "the moment %s missed: binlog changes written (%d seed rows"
                                    + " committed, %d written)",
                            moment, committed.seedRows(seedRows), written.seedRows(seedRows))
                    .isFalse();
            assertThat(System.nanoTime()).as("the moment %s comes", moment).isLessThan(deadline);
        }
        int committedRows = committed.seedRows(seedRows);
        atFailure =
                String.format(
                        "at the failure %d of %d seed rows committed, %d written, %d"
                                + " transactions of live load",
                        committedRows,
                        snapshotRows(),
                        written.seedRows(seedRows),
                        writer.transactions());
        assertThat(written.binlogPhase())
                .as("the failure comes in the snapshot phase: no binlog change written")
                .isFalse();
        if (moment != SnapshotFailoverITCase.Moment.BEFORE_BINLOG) {
            assertThat(committed.missing(writer.aliveSeedKeys()))
                    .as("the failure comes while live seed rows remain uncommitted")
                    .isPositive();
        }
    }

    private boolean reached(SnapshotFailoverITCase.Moment moment) {
        committed.poll();
        written.poll();
        return switch (moment) {
            case FIRST_CHUNK -> committed.seedRows(seedRows) > 0;
            case MIDDLE -> committed.seedRows(seedRows) >= snapshotRows() / 2;
            case LAST_CHUNK -> written.missing(writer.aliveSeedKeys()) <= parallelism * CHUNK;
            case BEFORE_BINLOG -> written.missing(writer.aliveSeedKeys()) == 0;
        };
    }

    /**
     * After the failure: the restored job commits binlog changes, the load goes on a little, stops,
     * and every row's history arrives exactly.
     */
    void verify(String what) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!committed.poll().binlogPhase() && System.nanoTime() < deadline) {
            // Waiting for the restored job's first committed binlog change.
        }
        boolean binlogPhase = committed.binlogPhase();
        if (binlogPhase) {
            Thread.sleep(LOAD_AFTER_RESTORE.toMillis());
        }
        writer.stop();
        noise.stop();
        Map<Key, Fate> fates = writer.fates();
        Report report = KeyHistories.of(committed.rows(), keys).judge(fates);
        deadline = System.nanoTime() + WAIT.toNanos();
        while (binlogPhase
                && report.count(KeyHistories.Verdict.WRONG) == 0
                && !report.exact()
                && System.nanoTime() < deadline) {
            report = KeyHistories.of(committed.poll().rows(), keys).judge(fates);
        }

        // The proof: a fresh read_committed drain, with its grace period for duplicates.
        List<Delivered> rows =
                Delivered.decode(
                        kafka.drainReadCommitted(topic, Duration.ofSeconds(2)),
                        MessageFormat.CANAL_FLAT);
        KeyHistories histories = KeyHistories.of(rows, keys);
        report = histories.judge(fates);
        String story =
                String.format(
                        "%s (%s; %d transactions of live load and %d of noise in all;"
                                + " seed rows committed in all: %d; binlog changes committed"
                                + " after the restore: %s): %s",
                        what,
                        atFailure,
                        writer.transactions(),
                        noise.commits(),
                        committed.seedRows(seedRows),
                        binlogPhase ? "yes" : "none within " + WAIT,
                        report);
        System.out.println("SnapshotFailoverITCase: " + story);
        if (!report.exact()) {
            fail("every row's history exactly once, in order: " + story);
        }
        for (Delivered row : rows) {
            assertThat(row.partition)
                    .as("Canal's $pk$ partition of %s", row)
                    .isEqualTo(Delivered.canalPartition(database, PARTITIONS, row.get("id")));
        }
        assertThat(histories.finalRows())
                .as("the rows the delivered changes leave are the database's")
                .isEqualTo(databaseRows());
    }

    /** Every row of the tables now: key to "version/note". */
    private Map<Key, String> databaseRows() throws Exception {
        Map<Key, String> rows = new TreeMap<>(KeyHistories::compare);
        try (Connection connection = mariaDb.connect(database);
                Statement statement = connection.createStatement()) {
            for (String table : tables) {
                try (ResultSet result =
                        statement.executeQuery("SELECT id, version, note FROM " + table)) {
                    while (result.next()) {
                        rows.put(
                                new Key(table, keys.id(result.getObject(1))),
                                result.getInt(2) + "/" + result.getString(3));
                    }
                }
            }
        }
        return rows;
    }

    /** Cancels {@code job} and stops the load; a failure so far keeps its own message. */
    void close(JobClient job, Throwable failure) throws Exception {
        Exception closing = null;
        for (ThrowingRunnable<Exception> step :
                List.<ThrowingRunnable<Exception>>of(
                        () -> EmbeddedJobs.cancel(job),
                        writer::stop,
                        noise::stop,
                        written::close,
                        committed::close)) {
            try {
                step.run();
            } catch (Exception e) {
                if (closing == null) {
                    closing = e;
                } else {
                    closing.addSuppressed(e);
                }
            }
        }
        if (closing != null && failure != null) {
            failure.addSuppressed(closing);
        } else if (closing != null) {
            throw closing;
        }
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

/**
 * {@code source.reader: sluice} with startup mode initial: Flink CDC's reader reads the chunks,
 * Sluice's reader the binlog from the lowest high watermark on, leaving out what each chunk already
 * holds. Three tables of 500 rows in chunks of 50, with a live load on them and writes elsewhere
 * from before the snapshot to the end, so nearly every chunk is backfilled and the binlog between
 * the lowest and the highest high watermark changes rows of chunks read before and after. Every
 * row's history must arrive exactly once and in order (one INSERT, then each version once; {@link
 * KeyHistories}), and the rows the changes leave must be the tables' ({@link SnapshotRun#verify}).
 * Besides INT keys, tables keyed by a DATETIME(3) or a BINARY(16), whose bounds the reader and the
 * snapshot's backfill compare as dates and as bytes.
 */
class SluiceReaderSnapshotITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    /** MiniCluster keeps terminated TaskManagers in its list: the live one's index. */
    private static int liveTaskManager;

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void theBinlogTakesOverFromTheSnapshotExactly(int parallelism) throws Exception {
        SnapshotRun run = run("sluicesnap", parallelism);
        JobClient job = run.start(new Configuration(), "sluice-snapshot-" + run.database);
        try {
            run.verify("source.reader sluice after a snapshot, parallelism " + parallelism);
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    /**
     * The tables' primary keys are DATETIME(3), BINARY(16) or mixed-case VARCHAR values in a
     * case-insensitive collation ({@link KeyKind}), in chunks whose bounds Flink CDC reads as
     * LocalDateTime, byte[] or String; a BINARY(16) key's first byte is 0x80 or above for half the
     * rows. The load starts once every chunk was read: the hand-over alone (the keys are compared
     * by value, VARCHAR keys in the column's collation). SnapshotHandOverTest covers the comparison
     * of keys that fall between the chunks' high watermarks; CaseInsensitiveChunkKeyITCase and the
     * next test write while the chunks are read.
     */
    @ParameterizedTest(name = "{0} primary key")
    @EnumSource(
            value = KeyKind.class,
            names = {"DATETIME_3", "BINARY_16", "VARCHAR_CI"})
    void chunkKeysOfDatesAndBytes(KeyKind keys) throws Exception {
        SnapshotRun run =
                new SnapshotRun(
                        MARIADB.server(),
                        KAFKA.server(),
                        "sluicesnapkey",
                        2,
                        keys,
                        false,
                        "source.reader=sluice",
                        "source.startup.mode=initial");
        JobClient job = run.start(new Configuration(), "sluice-snapshot-keys-" + run.database);
        try {
            run.startLoadAfterSnapshot();
            run.verify("source.reader sluice after a snapshot, " + keys + " primary key");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    /**
     * The same keys with the load from before the snapshot to the end: a write while its row's
     * chunk is read must be placed in that chunk by the backfill (by value, as Flink CDC's own
     * backfill does not), the others by the hand-over. SnapshotBackfillKeyOrderITCase writes in
     * each chunk deterministically.
     */
    @ParameterizedTest(name = "{0} primary key written while its chunks are read")
    @EnumSource(
            value = KeyKind.class,
            names = {"DATETIME_3", "BINARY_16", "VARCHAR_CI"})
    void chunkKeysOfDatesAndBytesWrittenWhileRead(KeyKind keys) throws Exception {
        SnapshotRun run =
                new SnapshotRun(
                        MARIADB.server(),
                        KAFKA.server(),
                        "sluicesnapload",
                        2,
                        keys,
                        true,
                        "source.reader=sluice",
                        "source.startup.mode=initial");
        JobClient job = run.start(new Configuration(), "sluice-snapshot-load-" + run.database);
        try {
            run.verify("source.reader sluice, " + keys + " primary key written while read");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    /**
     * A DATETIME(3) key with writes while the chunks are read: the rows of each table's first chunk
     * change while its later chunks are read ({@link SnapshotRun#startLoadInFirstChunks}), so the
     * reader must place those keys in the first chunk, by their dates, to emit them.
     */
    @Test
    void aDatetimeKeyWrittenWhileItsChunksAreRead() throws Exception {
        SnapshotRun run =
                new SnapshotRun(
                        MARIADB.server(),
                        KAFKA.server(),
                        "sluicesnapdt",
                        1,
                        KeyKind.DATETIME_3,
                        false,
                        "source.reader=sluice",
                        "source.startup.mode=initial");
        JobClient job = run.start(new Configuration(), "sluice-snapshot-dt-" + run.database);
        try {
            run.startLoadInFirstChunks(10);
            run.verify("source.reader sluice, DATETIME(3) key written while its chunks are read");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    @Test
    void aTaskManagerLostInTheSnapshot(@InjectMiniCluster MiniCluster cluster) throws Exception {
        SnapshotRun run = run("sluicesnaptm", 2);
        JobClient job = run.start(new Configuration(), "sluice-snapshot-tm-" + run.database);
        try {
            RunningTasks.awaitAll(cluster, job.getJobID(), SnapshotRun.WAIT);
            cluster.startTaskManager();
            run.awaitMoment(SnapshotFailoverITCase.Moment.MIDDLE);
            cluster.terminateTaskManager(liveTaskManager).get(1, TimeUnit.MINUTES);
            liveTaskManager++;
            run.verify("source.reader sluice, TaskManager lost in the middle of the snapshot");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    private static SnapshotRun run(String prefix, int parallelism) {
        return new SnapshotRun(
                MARIADB.server(),
                KAFKA.server(),
                prefix,
                parallelism,
                "source.reader=sluice",
                "source.startup.mode=initial");
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
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
 * Keys of other types than INT: {@link SluiceReaderSnapshotKeysITCase}. On MySQL (GTIDs on) the
 * chunks' high watermarks carry GTID sets and the binlog reader starts at the lowest one's.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SluiceReaderSnapshotITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

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

    @Test
    void theBinlogTakesOverFromTheSnapshotExactlyOnMySql() throws Exception {
        SnapshotRun run = run(SERVERS.mySql(), "sluicesnapmy", 2);
        JobClient job = run.start(new Configuration(), "sluice-snapshot-mysql-" + run.database);
        try {
            run.verify("source.reader sluice after a snapshot on MySQL 8, parallelism 2");
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
        return run(SERVERS.mariaDb(), prefix, parallelism);
    }

    private static SnapshotRun run(DatabaseServer server, String prefix, int parallelism) {
        return new SnapshotRun(
                server,
                KAFKA.server(),
                prefix,
                parallelism,
                "source.reader=sluice",
                "source.startup.mode=initial");
    }
}

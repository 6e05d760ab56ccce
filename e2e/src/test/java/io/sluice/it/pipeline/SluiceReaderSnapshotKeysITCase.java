package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.server.KafkaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;

/**
 * {@code source.reader: sluice} with startup mode initial, as {@link SluiceReaderSnapshotITCase},
 * on tables keyed by dates and times, bytes or mixed-case strings in a case-insensitive collation
 * ({@link KeyKind}), whose chunk bounds the reader and the snapshot's backfill compare as dates, as
 * instants, as bytes and in the column's collation, with the load from before the snapshot to the
 * end: a write while its row's chunk is read must be placed in that chunk by the backfill, the
 * others by the hand-over, and the load goes on after the snapshot. Each table has four chunks (a
 * first, two middle and a last one; BINARY keys as many as Flink CDC's splitter happens to cut, see
 * {@link KeyKind#BINARY_16}), which a reader reads in about a second each.
 *
 * <p>MariaDB: DATETIME(3), BINARY(16) and VARCHAR in utf8mb4_unicode_ci keys, and a DATETIME(3) key
 * whose first chunk's rows change while its later chunks are read. MySQL 8 (GTIDs on, so the
 * hand-over decides by each chunk's high watermark GTID set): TIMESTAMP(6) keys written in a zone
 * 5.5 hours from the server's, with every microsecond digit in use; BINARY(16) keys whose twelve
 * zero bytes the binlog leaves out; VARCHAR keys in MySQL's default utf8mb4_0900_ai_ci, NO PAD,
 * weighed by MySQL; and a TIMESTAMP(6) key whose first chunk's rows change while its later chunks
 * are read. DATETIME(3) keys take the same paths on both servers (DATETIME2 in the binlog,
 * LocalDateTime bounds), and MySQL's own collations are placed chunk by chunk in
 * CaseInsensitiveChunkKeyITCase and SnapshotBackfillKeyOrderITCase.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SluiceReaderSnapshotKeysITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

    /**
     * Rows of each table: four chunks, the first, two middle ones and the last. Flink CDC's
     * splitter ends a chunk at the 50th key from its start, the next chunk's start, so a chunk has
     * 49 rows, and cuts no chunk that would start at the table's greatest key.
     */
    private static final int ROWS = 4 * (SnapshotRun.CHUNK - 1);

    /**
     * The load from before the snapshot to the end on three tables read at parallelism 2: nearly
     * every chunk is backfilled, and the binlog between a table's lowest and highest high watermark
     * changes rows of its chunks read before and after. SnapshotBackfillKeyOrderITCase writes in
     * each chunk deterministically, SnapshotHandOverTest compares keys between the chunks' high
     * watermarks one by one.
     */
    @ParameterizedTest(name = "{0} primary key written while its chunks are read")
    @EnumSource(
            value = KeyKind.class,
            names = {"DATETIME_3", "BINARY_16", "VARCHAR_CI"})
    void chunkKeysOfDatesAndBytesWrittenWhileRead(KeyKind keys) throws Exception {
        writtenWhileRead(SERVERS.mariaDb(), "sluicesnapload", keys);
    }

    /** As {@link #chunkKeysOfDatesAndBytesWrittenWhileRead}, on MySQL 8. */
    @ParameterizedTest(name = "MySQL, {0} primary key written while its chunks are read")
    @EnumSource(
            value = KeyKind.class,
            names = {"TIMESTAMP_6", "BINARY_16", "VARCHAR_0900_AI_CI"})
    void chunkKeysOfTimesAndBytesWrittenWhileReadOnMySql(KeyKind keys) throws Exception {
        writtenWhileRead(SERVERS.mySql(), "sluicesnapmy", keys);
    }

    /**
     * A DATETIME(3) key with writes while the chunks are read: the rows of the table's first chunk
     * change while its later chunks are read ({@link SnapshotRun#startLoadInFirstChunks}), so the
     * reader must place those keys in the first chunk, by their dates, to emit them.
     */
    @Test
    void aDatetimeKeyWrittenWhileItsChunksAreRead() throws Exception {
        firstChunkWrittenWhileLaterOnesAreRead(
                SERVERS.mariaDb(), "sluicesnapdt", KeyKind.DATETIME_3);
    }

    /**
     * As {@link #aDatetimeKeyWrittenWhileItsChunksAreRead}, on MySQL 8 with a TIMESTAMP(6) key: the
     * reader reads each change's key text in the job's timestamp zone, 5.5 hours from the server's,
     * as an instant, and emits it by the first chunk's high watermark GTID set.
     */
    @Test
    void aTimestampKeyWrittenWhileItsChunksAreReadOnMySql() throws Exception {
        firstChunkWrittenWhileLaterOnesAreRead(
                SERVERS.mySql(), "sluicesnapts", KeyKind.TIMESTAMP_6);
    }

    private static void writtenWhileRead(DatabaseServer server, String prefix, KeyKind keys)
            throws Exception {
        SnapshotRun run =
                new SnapshotRun(
                        server,
                        KAFKA.server(),
                        prefix,
                        2,
                        keys,
                        true,
                        SnapshotRun.TABLES.size(),
                        ROWS,
                        "source.reader=sluice",
                        "source.startup.mode=initial");
        JobClient job = run.start(new Configuration(), prefix + "-" + run.database);
        try {
            run.verify(
                    "source.reader sluice on "
                            + server.kind()
                            + ", "
                            + keys
                            + " primary key written while read");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }

    /**
     * One table at parallelism 1, its chunks one after another; the load starts once the first
     * chunk is written and changes only the rows below its tenth key.
     */
    private static void firstChunkWrittenWhileLaterOnesAreRead(
            DatabaseServer server, String prefix, KeyKind keys) throws Exception {
        SnapshotRun run =
                new SnapshotRun(
                        server,
                        KAFKA.server(),
                        prefix,
                        1,
                        keys,
                        false,
                        1,
                        ROWS,
                        "source.reader=sluice",
                        "source.startup.mode=initial");
        JobClient job = run.start(new Configuration(), prefix + "-" + run.database);
        try {
            run.startLoadInFirstChunks(10);
            run.verify(
                    "source.reader sluice on "
                            + server.kind()
                            + ", "
                            + keys
                            + " key written while its chunks are read");
        } catch (Throwable e) {
            run.close(job, e);
            throw e;
        }
        run.close(job, null);
    }
}

package io.sluice.it.pipeline;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.KafkaExtension;
import io.sluice.it.server.MariaDbExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;

/**
 * {@code source.reader: sluice} with startup mode initial, as {@link SluiceReaderSnapshotITCase},
 * on tables keyed by a DATETIME(3), a BINARY(16) or a mixed-case VARCHAR in a case-insensitive
 * collation, whose chunk bounds the reader and the snapshot's backfill compare as dates, as bytes
 * and in the column's collation: with the load after the snapshot (the hand-over alone), with the
 * load from before the snapshot to the end (the backfill too), and with writes to the first chunks
 * while the later ones are read.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SluiceReaderSnapshotKeysITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();
    @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();

    @RegisterExtension static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);

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
}

package io.sluice.it.source;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;

import io.sluice.functions.source.internal.StatementHookSplitReader;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's split reader given several snapshot splits at once, as a source reader restored with an
 * unfinished split is (it holds one and asks for another), while the binlog moves during every
 * chunk (a write between the chunk's query and its high watermark), so every chunk needs a
 * backfill. Every split must finish with all of its rows. Flink CDC 3.5.0's own split reader reuses
 * its snapshot reader for the second split and waits for that split's backfill forever.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotSplitsAtOnceITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    private static final int ROWS = 40;
    private static final int CHUNK = 10;

    @Test
    void everySplitFinishesWhenEachChunkNeedsABackfill() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("atonce", "ddl/counters.sql");
        StringBuilder insert = new StringBuilder("INSERT INTO counters VALUES ");
        for (int id = 0; id < ROWS; id++) {
            insert.append(id == 0 ? "" : ", ").append("(").append(id).append(", 0, 'seed')");
        }
        mariaDb.execute(database, insert.toString(), "CREATE TABLE elsewhere (id INT)");
        MySqlSourceConfig config = SnapshotChunks.config(mariaDb, database, "counters", CHUNK);
        List<MySqlSplit> splits = SnapshotChunks.cut(config);
        assertThat(splits).as("chunks of %s rows", CHUNK).hasSizeGreaterThanOrEqualTo(3);

        AtomicInteger writes = new AtomicInteger();
        SnapshotPhaseHooks hooks = new SnapshotPhaseHooks();
        hooks.setPreHighWatermarkAction(
                (connection, split) -> {
                    mariaDb.execute(database, "INSERT INTO elsewhere VALUES (1)");
                    writes.incrementAndGet();
                });
        StatementHookSplitReader reader = SnapshotChunks.splitReader(config, hooks);
        ExecutorService fetcher = Executors.newSingleThreadExecutor();
        try {
            reader.handleSplitsChanges(new SplitsAddition<>(splits.subList(0, 2)));
            reader.handleSplitsChanges(new SplitsAddition<>(splits.subList(2, splits.size())));
            Set<String> unfinished = new TreeSet<>();
            splits.forEach(split -> unfinished.add(split.splitId()));
            List<Integer> ids = new ArrayList<>();
            while (!unfinished.isEmpty()) {
                Future<RecordsWithSplitIds<SourceRecords>> fetch = fetcher.submit(reader::fetch);
                RecordsWithSplitIds<SourceRecords> records;
                try {
                    records = fetch.get(1, TimeUnit.MINUTES);
                } catch (TimeoutException e) {
                    fetch.cancel(true);
                    throw new AssertionError(
                            "The split reader waits for ever with splits "
                                    + unfinished
                                    + " unfinished after "
                                    + writes.get()
                                    + " backfilled chunks",
                            e);
                }
                ids.addAll(rowIds(records));
                unfinished.removeAll(records.finishedSplits());
            }
            assertThat(writes.get()).as("every chunk needed a backfill").isEqualTo(splits.size());
            assertThat(ids)
                    .as("every row once, from its chunk")
                    .containsExactlyInAnyOrderElementsOf(
                            IntStream.range(0, ROWS).boxed().collect(Collectors.toList()));
        } finally {
            fetcher.shutdownNow();
            reader.close();
        }
    }

    private static List<Integer> rowIds(RecordsWithSplitIds<SourceRecords> records) {
        List<Integer> ids = new ArrayList<>();
        for (String split = records.nextSplit(); split != null; split = records.nextSplit()) {
            for (SourceRecords batch = records.nextRecordFromSplit();
                    batch != null;
                    batch = records.nextRecordFromSplit()) {
                for (SourceRecord record : batch.getSourceRecordList()) {
                    if (RecordUtils.isDataChangeRecord(record)) {
                        ids.add(((Struct) record.key()).getInt32("id"));
                    }
                }
            }
        }
        return ids;
    }
}

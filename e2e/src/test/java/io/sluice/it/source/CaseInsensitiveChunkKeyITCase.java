package io.sluice.it.source;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.split.FinishedSnapshotSplitInfo;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;

import io.debezium.data.Envelope;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.SnapshotHandOver;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.ServerCollations;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.StatementHookSplitReader;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table keyed by a VARCHAR in a case-insensitive collation (utf8mb4_unicode_ci on MariaDB, MySQL
 * 8's default utf8mb4_0900_ai_ci, NO PAD, on MySQL, whose hand-over starts at a GTID set) with
 * mixed-case keys, snapshotted in chunks by Flink CDC's splitter and reader while rows change, then
 * handed over to Sluice's binlog reader ({@link SnapshotHandOver}). The server cuts the chunks in
 * its order: [-, 'C') [C, E) [E, g) [g, i) [i, k) [k, -). In Java's order (upper case first) 'a'
 * falls in [E, g) and 'J' in [E, g) as well. While chunk [C, E) is read 'a' changes: its chunk was
 * read, so the binlog must give the change. While chunk [g, i) is read 'J' changes: its chunk [i,
 * k) is read later and holds it, so the binlog must not give it again. Neither key is in the chunk
 * being read in either order, so Flink CDC's backfill (which compares in Java's order) passes both.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CaseInsensitiveChunkKeyITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final List<String> KEYS =
            List.of("a", "b", "C", "d", "E", "f", "g", "h", "i", "J", "k", "zz");

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void theBinlogGivesExactlyTheChangesTheChunksLack(DatabaseServer.Kind kind) throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String collation =
                kind == DatabaseServer.Kind.MARIADB ? "utf8mb4_unicode_ci" : "utf8mb4_0900_ai_ci";
        String database = server.createDatabase("cichunks", null);
        StringBuilder insert = new StringBuilder("INSERT INTO words VALUES ");
        for (int i = 0; i < KEYS.size(); i++) {
            insert.append(i == 0 ? "" : ", ").append("('").append(KEYS.get(i)).append("', 0)");
        }
        server.execute(
                database,
                "CREATE TABLE words (k VARCHAR(10) CHARACTER SET utf8mb4 COLLATE "
                        + collation
                        + " PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE marker (id INT PRIMARY KEY)",
                insert.toString());
        MySqlSourceConfig config = SnapshotChunks.config(server, database, "words", 3);
        List<MySqlSplit> splits = SnapshotChunks.cut(config);
        assertThat(splits.stream().map(CaseInsensitiveChunkKeyITCase::bounds))
                .as("the server's chunks")
                .containsExactly("[null, C)", "[C, E)", "[E, g)", "[g, i)", "[i, k)", "[k, null)");

        SnapshotPhaseHooks hooks = new SnapshotPhaseHooks();
        hooks.setPreHighWatermarkAction(
                (connection, split) -> {
                    if (split.splitId().endsWith(":1")) {
                        server.execute(database, "UPDATE words SET v = 1 WHERE k = 'a'");
                    } else if (split.splitId().endsWith(":3")) {
                        server.execute(database, "UPDATE words SET v = 1 WHERE k = 'J'");
                    }
                });
        Map<String, Integer> snapshot = new TreeMap<>();
        List<FinishedSnapshotSplitInfo> chunks = snapshot(config, hooks, splits, snapshot);
        assertThat(snapshot)
                .as("the chunks: 'a' as read before its change, 'J' as read after it")
                .containsEntry("a", 0)
                .containsEntry("J", 1)
                .hasSize(KEYS.size());

        SnapshotHandOver handOver = handOver(server, chunks);
        server.execute(database, "INSERT INTO marker VALUES (1)");
        List<String> emitted = binlogAfter(server, database, chunks, handOver);
        assertThat(emitted)
                .as("the binlog's changes of words after the chunks' high watermarks")
                .containsExactly("UPDATE a: 0 -> 1");
    }

    /**
     * A key with a contraction in utf8mb4_uca1400_ai_ci (MariaDB 11.5's default): 'l·lb' weighs as
     * 'llb', so the server puts it in chunk [lla, llc), read third; its characters' weights one
     * after the other would put it in [c, lla) (the middle dot weighs below every letter), read
     * second. It changes after chunk [c, lla) is read and before [lla, llc) is: that chunk holds
     * the change, so the binlog must not give it again; 'a', read first, must come from the binlog.
     */
    @Test
    void aKeyWithAContractionIsPlacedByTheServersWeights() throws Exception {
        DatabaseServer mariaDb = SERVERS.mariaDb();
        String database = mariaDb.createDatabase("ucachunks", null);
        List<String> keys =
                List.of("a", "b", "c", "la", "lla", "l\u00B7lb", "llc", "lz", "m", "n", "o", "p");
        StringBuilder insert = new StringBuilder("INSERT INTO words VALUES ");
        for (int i = 0; i < keys.size(); i++) {
            insert.append(i == 0 ? "" : ", ").append("('").append(keys.get(i)).append("', 0)");
        }
        mariaDb.execute(
                database,
                "CREATE TABLE words (k VARCHAR(10) CHARACTER SET utf8mb4 COLLATE"
                        + " utf8mb4_uca1400_ai_ci PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE marker (id INT PRIMARY KEY)",
                insert.toString());
        MySqlSourceConfig config = SnapshotChunks.config(mariaDb, database, "words", 3);
        List<MySqlSplit> splits = SnapshotChunks.cut(config);
        assertThat(splits.stream().map(CaseInsensitiveChunkKeyITCase::bounds))
                .as("the server's chunks")
                .containsExactly(
                        "[null, c)", "[c, lla)", "[lla, llc)", "[llc, m)", "[m, o)", "[o, null)");

        SnapshotPhaseHooks hooks = new SnapshotPhaseHooks();
        hooks.setPreLowWatermarkAction(
                (connection, split) -> {
                    if (split.splitId().endsWith(":2")) {
                        mariaDb.execute(
                                database, "UPDATE words SET v = 1 WHERE k IN ('a', 'l\u00B7lb')");
                    }
                });
        Map<String, Integer> snapshot = new TreeMap<>();
        List<FinishedSnapshotSplitInfo> chunks = snapshot(config, hooks, splits, snapshot);
        assertThat(snapshot)
                .as("the chunks: 'a' as read before its change, 'l\u00B7lb' after it")
                .containsEntry("a", 0)
                .containsEntry("l\u00B7lb", 1)
                .hasSize(keys.size());

        SnapshotHandOver handOver = handOver(mariaDb, chunks);
        mariaDb.execute(database, "INSERT INTO marker VALUES (1)");
        assertThat(binlogAfter(mariaDb, database, chunks, handOver))
                .as("the binlog's changes of words after the chunks' high watermarks")
                .containsExactly("UPDATE a: 0 -> 1");
    }

    /**
     * MySQL 8's Czech tailoring with three levels, NO PAD (utf8mb4_cs_0900_as_cs): 'ch' is a letter
     * after 'h', so the server puts key 'ch' in chunk [hz, i), read fifth; Java's order, or its
     * characters' weights one after the other, would put it in [c, d), read second. It changes
     * after [c, d) is read and before [hz, i) is: that chunk holds the change, so the binlog must
     * not give it again; 'a', read first, must come from the binlog. Every key of this collation is
     * the server's weights, its levels apart. (No chunk starts at a key that 'ch' begins with: such
     * a bound would hold it in any order.)
     */
    @Test
    void aMySqlCzechKeyIsPlacedByTheServersWeights() throws Exception {
        DatabaseServer mySql = SERVERS.mySql();
        String database = mySql.createDatabase("czechchunks", null);
        List<String> keys = List.of("a", "b", "c", "cz", "d", "e", "h", "hy", "hz", "ch", "i", "j");
        StringBuilder insert = new StringBuilder("INSERT INTO words VALUES ");
        for (int i = 0; i < keys.size(); i++) {
            insert.append(i == 0 ? "" : ", ").append("('").append(keys.get(i)).append("', 0)");
        }
        mySql.execute(
                database,
                "CREATE TABLE words (k VARCHAR(10) CHARACTER SET utf8mb4 COLLATE"
                        + " utf8mb4_cs_0900_as_cs PRIMARY KEY, v INT NOT NULL)",
                "CREATE TABLE marker (id INT PRIMARY KEY)",
                insert.toString());
        MySqlSourceConfig config = SnapshotChunks.config(mySql, database, "words", 3);
        List<MySqlSplit> splits = SnapshotChunks.cut(config);
        assertThat(splits.stream().map(CaseInsensitiveChunkKeyITCase::bounds))
                .as("the server's chunks")
                .containsExactly(
                        "[null, c)", "[c, d)", "[d, h)", "[h, hz)", "[hz, i)", "[i, null)");

        SnapshotPhaseHooks hooks = new SnapshotPhaseHooks();
        hooks.setPreLowWatermarkAction(
                (connection, split) -> {
                    if (split.splitId().endsWith(":2")) {
                        mySql.execute(database, "UPDATE words SET v = 1 WHERE k IN ('a', 'ch')");
                    }
                });
        Map<String, Integer> snapshot = new TreeMap<>();
        List<FinishedSnapshotSplitInfo> chunks = snapshot(config, hooks, splits, snapshot);
        assertThat(snapshot)
                .as("the chunks: 'a' as read before its change, 'ch' after it")
                .containsEntry("a", 0)
                .containsEntry("ch", 1)
                .hasSize(keys.size());

        SnapshotHandOver handOver = handOver(mySql, chunks);
        mySql.execute(database, "INSERT INTO marker VALUES (1)");
        assertThat(binlogAfter(mySql, database, chunks, handOver))
                .as("the binlog's changes of words after the chunks' high watermarks")
                .containsExactly("UPDATE a: 0 -> 1");
    }

    /** The hand-over of {@code chunks} of words, keyed by k, in k's collation on {@code server}. */
    private static SnapshotHandOver handOver(
            DatabaseServer server, List<FinishedSnapshotSplitInfo> chunks) {
        SourceJdbc jdbc =
                SourceJdbc.of(server.host(), server.port(), server.cdcUser(), server.cdcPassword());
        return SnapshotHandOver.of(
                chunks,
                id -> "k",
                ZoneId.of("UTC"),
                ZoneId.of("UTC"),
                new ServerCollations(jdbc)::ofColumn);
    }

    /** Reads the chunks one by one; fills {@code rows} and returns the finished chunks. */
    private static List<FinishedSnapshotSplitInfo> snapshot(
            MySqlSourceConfig config,
            SnapshotPhaseHooks hooks,
            List<MySqlSplit> splits,
            Map<String, Integer> rows)
            throws Exception {
        List<FinishedSnapshotSplitInfo> finished = new ArrayList<>();
        StatementHookSplitReader reader = SnapshotChunks.splitReader(config, hooks);
        try {
            for (MySqlSplit split : splits) {
                reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
                boolean done = false;
                while (!done) {
                    RecordsWithSplitIds<SourceRecords> records = reader.fetch();
                    for (String id = records.nextSplit(); id != null; id = records.nextSplit()) {
                        for (SourceRecords batch = records.nextRecordFromSplit();
                                batch != null;
                                batch = records.nextRecordFromSplit()) {
                            for (SourceRecord record : batch.getSourceRecordList()) {
                                if (RecordUtils.isHighWatermarkEvent(record)) {
                                    finished.add(
                                            RecordUtils.getSnapshotSplitInfo(
                                                    split.asSnapshotSplit(), record));
                                } else if (RecordUtils.isDataChangeRecord(record)) {
                                    Struct after =
                                            ((Struct) record.value())
                                                    .getStruct(Envelope.FieldName.AFTER);
                                    rows.put(after.getString("k"), after.getInt32("v"));
                                }
                            }
                        }
                    }
                    done = records.finishedSplits().contains(split.splitId());
                }
            }
        } finally {
            reader.close();
        }
        assertThat(finished).hasSize(splits.size());
        return finished;
    }

    /**
     * Sluice's binlog reader from the lowest high watermark to the marker row, each change of words
     * put through the hand-over.
     */
    private static List<String> binlogAfter(
            DatabaseServer server,
            String database,
            List<FinishedSnapshotSplitInfo> chunks,
            SnapshotHandOver handOver)
            throws Exception {
        BinlogPosition start =
                chunks.stream()
                        .map(chunk -> BinlogPosition.fromBinlogOffset(chunk.getHighWatermark()))
                        .min(BinlogPosition::compareTo)
                        .orElseThrow();
        TableSchemas tables;
        try (Connection connection = server.connect(null)) {
            tables =
                    TableSchemas.read(
                            connection,
                            (db, table) -> db.equals(database),
                            server.kind() == DatabaseServer.Kind.MARIADB
                                    ? ColumnTypeStyle.MARIADB
                                    : ColumnTypeStyle.MYSQL,
                            ZoneId.of("UTC"));
        }
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        BinlogReader reader =
                BinlogReader.builder(
                                server.host(),
                                server.port(),
                                server.cdcUser(),
                                server.cdcPassword())
                        .serverId(5600)
                        .reconnectAttempts(3, Duration.ofMillis(100))
                        .build(
                                tables,
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(ChangeEvent change, BinlogPosition after) {
                                        if (change.table().equals("marker")) {
                                            seen.add("marker");
                                            return;
                                        }
                                        ChangeEvent emitted = handOver.emitted(change, after);
                                        if (emitted != null) {
                                            seen.add(describe(emitted));
                                        }
                                    }
                                });
        Thread thread = new Thread(() -> reader.run(start), "collation-binlog");
        thread.setDaemon(true);
        thread.start();
        List<String> emitted = new ArrayList<>();
        try {
            for (String next = seen.poll(2, TimeUnit.MINUTES);
                    !"marker".equals(next);
                    next = seen.poll(2, TimeUnit.MINUTES)) {
                assertThat(next).as("the binlog up to the marker, after %s", emitted).isNotNull();
                emitted.add(next);
            }
        } finally {
            reader.close();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
        return emitted;
    }

    /** "UPDATE a: 0 -> 1", "INSERT a: 1", "DELETE a: 0". */
    private static String describe(ChangeEvent change) {
        StringBuilder text = new StringBuilder(change.type().toString()).append(' ');
        text.append(change.data().text(0)).append(": ");
        if (change.before() != null && change.after() != null) {
            text.append(change.before().text(1)).append(" -> ");
        }
        return text.append(change.data().text(1)).toString();
    }

    private static String bounds(MySqlSplit split) {
        Object[] start = split.asSnapshotSplit().getSplitStart();
        Object[] end = split.asSnapshotSplit().getSplitEnd();
        return String.format(
                "[%s, %s)", start == null ? null : start[0], end == null ? null : end[0]);
    }
}

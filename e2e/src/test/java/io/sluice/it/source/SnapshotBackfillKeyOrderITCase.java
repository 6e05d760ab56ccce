package io.sluice.it.source;

import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.cdc.connectors.mysql.source.assigners.MySqlSnapshotSplitAssigner;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSnapshotSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.SourceRecords;
import org.apache.flink.cdc.connectors.mysql.source.utils.RecordUtils;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;

import io.sluice.functions.source.internal.StatementHookSplitReader;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The snapshot backfill of a table chunked by a DATETIME(3), DATE, TIME, TIMESTAMP or BINARY(16)
 * key, with writes made while each chunk is read: after a chunk's query and before its high
 * watermark (a {@link SnapshotPhaseHooks} hook), an UPDATE (twice), a DELETE and an INSERT of rows
 * of that chunk, and an UPDATE of a row of the chunk before and of the chunk after. Every chunk,
 * first, middle and last, must give its rows as they are at its high watermark: each once, with the
 * writes to its own rows applied and none of the writes to other chunks' rows. Both readers ({@code
 * source.reader}) read the snapshot with this split reader.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotBackfillKeyOrderITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    /** Rows at the even indexes 0, 2, …; the odd ones are free for inserts inside a chunk. */
    private static final int ROWS = 32;

    private static final int CHUNK = 8;

    /** A chunk key type, its key for an index (increasing), as SQL. */
    enum KeyType {
        DATETIME_3(
                "DATETIME(3)",
                i ->
                        quote(
                                LocalDateTime.of(2019, 12, 31, 22, 0)
                                        .plusHours(7L * i)
                                        .plusNanos(1_000_000L * i)
                                        .toString()
                                        .replace('T', ' '))),
        DATE("DATE", i -> quote(LocalDate.of(1998, 6, 1).plusDays(41L * i).toString())),
        TIME("TIME", i -> quote(LocalTime.of(0, 0, 3).plusSeconds(1301L * i).toString())),
        TIMESTAMP(
                "TIMESTAMP NOT NULL DEFAULT '2000-01-01 00:00:00'",
                i ->
                        quote(
                                LocalDateTime.of(2024, 3, 30, 23, 0)
                                        .plusMinutes(97L * i)
                                        .toString()
                                        .replace('T', ' '))),
        // A UUID-like key whose first byte crosses 0x80, so that signed and unsigned orders differ.
        BINARY_16(
                "BINARY(16)",
                i -> String.format("X'%02x%030x'", i * 4, (long) i * 0x9e3779b97f4a7c15L >>> 4)),
        // a0 a1 a2 B0 B1 B2 c0 …: increasing in the collation, not in Java's order ('B' < 'a').
        VARCHAR_CI(
                "VARCHAR(8) COLLATE utf8mb4_general_ci",
                i -> {
                    int letter = i / 3;
                    char c = (char) ((letter % 2 == 0 ? 'a' : 'A') + letter);
                    return quote(c + Integer.toString(i % 3));
                }),
        // MySQL 8's default, NO PAD: a0 a1 'a1 ' B0 B1 'B1 ' ç0 …, case and accents not in Java's
        // order, and a key with a trailing space above the same key without (equal under PAD).
        VARCHAR_0900_AI_CI(
                "VARCHAR(8) COLLATE utf8mb4_0900_ai_ci",
                i ->
                        quote(
                                "aBçDéFgHìJkLmÑöPqRšTüV".charAt(i / 3)
                                        + (i % 3 == 0 ? "0" : i % 3 == 1 ? "1" : "1 "))),
        // MySQL 8's case-sensitive 0900 collation, three levels: 0a 0A 0b 0B …, lower case first.
        VARCHAR_0900_AS_CS(
                "VARCHAR(8) COLLATE utf8mb4_0900_as_cs",
                i -> {
                    char letter = (char) ('a' + (i / 2) % 26);
                    return quote(
                            (i / 52)
                                    + String.valueOf(
                                            i % 2 == 0 ? letter : Character.toUpperCase(letter)));
                });

        private final String sql;
        private final IntFunction<String> key;

        KeyType(String sql, IntFunction<String> key) {
            this.sql = sql;
            this.key = key;
        }

        private static String quote(String text) {
            return "'" + text + "'";
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = KeyType.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"VARCHAR_0900_AI_CI", "VARCHAR_0900_AS_CS"})
    void everyChunkGivesItsRowsAsAtItsHighWatermark(KeyType type) throws Exception {
        everyChunkGivesItsRowsAsAtItsHighWatermark(SERVERS.mariaDb(), type);
    }

    /** MySQL 8's 0900 collations, NO PAD, one of them with three levels. */
    @ParameterizedTest(name = "MySQL {0}")
    @EnumSource(
            value = KeyType.class,
            names = {"VARCHAR_0900_AI_CI", "VARCHAR_0900_AS_CS"})
    void everyChunkGivesItsRowsAsAtItsHighWatermarkOnMySql(KeyType type) throws Exception {
        everyChunkGivesItsRowsAsAtItsHighWatermark(SERVERS.mySql(), type);
    }

    private static void everyChunkGivesItsRowsAsAtItsHighWatermark(
            DatabaseServer server, KeyType type) throws Exception {
        String database = server.createDatabase("backfill_" + type.name(), null);
        server.execute(
                database, "CREATE TABLE t (k " + type.sql + " PRIMARY KEY, i INT NOT NULL, v INT)");
        server.execute(
                database,
                "INSERT INTO t VALUES "
                        + IntStream.range(0, ROWS)
                                .map(row -> row * 2)
                                .mapToObj(i -> "(" + type.key.apply(i) + ", " + i + ", " + i + ")")
                                .collect(Collectors.joining(", ")));
        MySqlSourceConfig config = SnapshotChunks.config(server, database, "t", CHUNK);
        List<MySqlSplit> splits = splits(config, server, database);
        assertThat(splits).as("chunks of %s rows", CHUNK).hasSize(ROWS / CHUNK);

        Map<String, Set<String>> expected = new ConcurrentHashMap<>();
        Set<String> written = ConcurrentHashMap.newKeySet();
        SnapshotPhaseHooks hooks = new SnapshotPhaseHooks();
        hooks.setPreHighWatermarkAction(
                (connection, split) -> {
                    List<Integer> indexes = indexes(server, database, split);
                    List<String> writes = new ArrayList<>();
                    if (indexes.size() >= 2) {
                        int first = indexes.get(0);
                        int last = indexes.get(indexes.size() - 1);
                        writes.add("UPDATE t SET v = v + 1000 WHERE i = " + first);
                        writes.add("DELETE FROM t WHERE i = " + (first + 2));
                        writes.add(insert(type, first + 1));
                        writes.add("UPDATE t SET v = v + 1 WHERE i = " + first);
                        writes.add("UPDATE t SET v = v + 2000 WHERE i = " + last);
                        writes.add(
                                "UPDATE t SET v = v + 5000 WHERE i IN ("
                                        + (first - 2)
                                        + ", "
                                        + (last + 2)
                                        + ")");
                    }
                    if (((MySqlSnapshotSplit) split).getSplitEnd() == null) {
                        writes.add(insert(type, 2 * ROWS - 1)); // above every key
                    }
                    if (!writes.isEmpty()) {
                        server.execute(database, writes.toArray(String[]::new));
                        written.add(split.splitId());
                    }
                    expected.put(split.splitId(), rows(server, database, split));
                });

        Map<String, List<String>> read = read(config, hooks, splits);

        List<String> ranges = splits.stream().map(s -> range(s)).collect(Collectors.toList());
        assertThat(written)
                .as("the first, a middle and the last of the chunks %s were written to", ranges)
                .contains(splits.get(0).splitId(), splits.get(splits.size() - 1).splitId())
                .hasSizeGreaterThanOrEqualTo(3);
        for (MySqlSplit split : splits) {
            assertThat(read.get(split.splitId()))
                    .as(
                            "rows (i:v) of chunk %s, %s, at its high watermark",
                            split.splitId(), range(split))
                    .containsExactlyInAnyOrderElementsOf(expected.get(split.splitId()));
        }
    }

    private static String insert(KeyType type, int i) {
        return "INSERT INTO t VALUES (" + type.key.apply(i) + ", " + i + ", -1)";
    }

    /** Reads every split, one after another, as Sluice's split reader; the rows by split. */
    private static Map<String, List<String>> read(
            MySqlSourceConfig config, SnapshotPhaseHooks hooks, List<MySqlSplit> splits)
            throws Exception {
        StatementHookSplitReader reader = SnapshotChunks.splitReader(config, hooks);
        ExecutorService fetcher = Executors.newSingleThreadExecutor();
        Map<String, List<String>> read = new TreeMap<>();
        try {
            reader.handleSplitsChanges(new SplitsAddition<>(splits));
            Set<String> unfinished = new TreeSet<>();
            splits.forEach(split -> unfinished.add(split.splitId()));
            while (!unfinished.isEmpty()) {
                Future<RecordsWithSplitIds<SourceRecords>> fetch = fetcher.submit(reader::fetch);
                RecordsWithSplitIds<SourceRecords> records;
                try {
                    records = fetch.get(1, TimeUnit.MINUTES);
                } catch (TimeoutException e) {
                    fetch.cancel(true);
                    throw new AssertionError("The split reader waits with " + unfinished, e);
                }
                collect(records, read);
                unfinished.removeAll(records.finishedSplits());
            }
        } finally {
            fetcher.shutdownNow();
            reader.close();
        }
        return read;
    }

    private static void collect(
            RecordsWithSplitIds<SourceRecords> records, Map<String, List<String>> read) {
        for (String split = records.nextSplit(); split != null; split = records.nextSplit()) {
            List<String> rows = read.computeIfAbsent(split, id -> new ArrayList<>());
            for (SourceRecords batch = records.nextRecordFromSplit();
                    batch != null;
                    batch = records.nextRecordFromSplit()) {
                for (SourceRecord record : batch.getSourceRecordList()) {
                    if (RecordUtils.isDataChangeRecord(record)) {
                        Struct after = ((Struct) record.value()).getStruct("after");
                        rows.add(after.getInt32("i") + ":" + after.getInt32("v"));
                    }
                }
            }
        }
    }

    /** The indexes of the chunk's rows, in key order, as the server orders and ranges them. */
    private static List<Integer> indexes(DatabaseServer server, String database, SourceSplit split)
            throws SQLException {
        List<Integer> indexes = new ArrayList<>();
        query(server, database, split, "i", row -> indexes.add(row.getInt(1)));
        return indexes;
    }

    /** The chunk's rows as {@code i:v}. */
    private static Set<String> rows(DatabaseServer server, String database, SourceSplit split)
            throws SQLException {
        Set<String> rows = new TreeSet<>();
        query(
                server,
                database,
                split,
                "i, v",
                row -> rows.add(row.getInt(1) + ":" + row.getInt(2)));
        return rows;
    }

    private interface RowConsumer {
        void accept(ResultSet row) throws SQLException;
    }

    /** Selects the chunk's rows, its bounds bound as the driver binds Flink CDC's JDBC values. */
    private static void query(
            DatabaseServer server,
            String database,
            SourceSplit split,
            String columns,
            RowConsumer consumer)
            throws SQLException {
        MySqlSnapshotSplit chunk = (MySqlSnapshotSplit) split;
        Object start = chunk.getSplitStart() == null ? null : chunk.getSplitStart()[0];
        Object end = chunk.getSplitEnd() == null ? null : chunk.getSplitEnd()[0];
        String sql =
                "SELECT "
                        + columns
                        + " FROM t WHERE "
                        + (start == null ? "TRUE" : "k >= ?")
                        + " AND "
                        + (end == null ? "TRUE" : "k < ?")
                        + " ORDER BY k";
        try (Connection connection = server.connect(database);
                PreparedStatement statement = connection.prepareStatement(sql)) {
            int parameter = 1;
            if (start != null) {
                statement.setObject(parameter++, start);
            }
            if (end != null) {
                statement.setObject(parameter, end);
            }
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    consumer.accept(row);
                }
            }
        }
    }

    private static String range(MySqlSplit split) {
        MySqlSnapshotSplit chunk = split.asSnapshotSplit();
        return "[" + bound(chunk.getSplitStart()) + ", " + bound(chunk.getSplitEnd()) + ")";
    }

    private static String bound(Object[] bound) {
        if (bound == null) {
            return "open";
        }
        Object value = bound[0];
        return value instanceof byte[]
                ? IntStream.range(0, ((byte[]) value).length)
                        .mapToObj(b -> String.format("%02x", ((byte[]) value)[b] & 0xff))
                        .collect(Collectors.joining("", "0x", ""))
                : value.getClass().getSimpleName() + " " + value;
    }

    /**
     * The table's chunks, cut at every {@link #CHUNK}th key read over JDBC as Flink CDC's splitter
     * reads its bounds; Flink CDC's enumerator gives the table's schema and key type. (Its own
     * splitter cuts a binary key in a different number of chunks from run to run.)
     */
    private static List<MySqlSplit> splits(
            MySqlSourceConfig config, DatabaseServer server, String database) throws Exception {
        MySqlSnapshotSplit whole;
        MockSplitEnumeratorContext<MySqlSplit> context = new MockSplitEnumeratorContext<>(1);
        MySqlSnapshotSplitAssigner assigner =
                new MySqlSnapshotSplitAssigner(config, 1, new ArrayList<>(), false, context);
        try {
            assigner.open();
            whole = assigner.getNext().orElseThrow().asSnapshotSplit();
        } finally {
            assigner.close();
            context.close();
        }
        List<Object> bounds = new ArrayList<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT k FROM t ORDER BY k")) {
            for (int at = 0; row.next(); at++) {
                if (at > 0 && at % CHUNK == 0) {
                    bounds.add(row.getObject(1));
                }
            }
        }
        List<MySqlSplit> splits = new ArrayList<>();
        for (int chunk = 0; chunk <= bounds.size(); chunk++) {
            splits.add(
                    new MySqlSnapshotSplit(
                            whole.getTableId(),
                            chunk,
                            whole.getSplitKeyType(),
                            chunk == 0 ? null : new Object[] {bounds.get(chunk - 1)},
                            chunk == bounds.size() ? null : new Object[] {bounds.get(chunk)},
                            null,
                            whole.getTableSchemas()));
        }
        return splits;
    }
}

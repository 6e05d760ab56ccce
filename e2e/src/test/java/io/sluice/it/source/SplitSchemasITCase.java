package io.sluice.it.source;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitSerializer;

import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.SplitSchemas;
import io.sluice.functions.source.binlog.TableSchemas;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The schemas {@code BinlogSourceReader} reads a binlog split with ({@link SplitSchemas}, the code
 * it runs on a start and a restore), on MariaDB's binlog with the real reader: a restore takes the
 * checkpoint's tables as they were, so a table created after the checkpoint (also by {@code CREATE
 * TABLE IF NOT EXISTS}) is read with the columns of each point; and a table the reader never
 * followed that a rename makes captured is read from the server, a definition that changed since
 * failing the reader.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SplitSchemasITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final String MARKER = "CREATE TABLE marker (id INT PRIMARY KEY)";
    private static final String MARKER_ROW = "marker (id int(11) key) INSERT after [1]";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CREATE TABLE", "CREATE TABLE IF NOT EXISTS"})
    void aRestoreReadsATableCreatedAfterTheCheckpointWithTheColumnsOfEachPoint(String create)
            throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("restore_new", null);
        mariaDb.execute(database, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5))", MARKER);
        MySqlBinlogSplit checkpoint = checkpointAt(mariaDb, database, ReaderRun.current(mariaDb));
        mariaDb.execute(
                database,
                "INSERT INTO t VALUES (1, 'a')",
                create + " n (id INT PRIMARY KEY, a VARCHAR(5))",
                "INSERT INTO n VALUES (1, 'x')",
                "ALTER TABLE n ADD COLUMN c INT",
                "INSERT INTO n VALUES (2, 'y', 3)",
                "INSERT INTO marker VALUES (1)");

        assertThat(read(mariaDb, database, checkpoint))
                .containsExactly(
                        "t (id int(11) key, v varchar(5)) INSERT after [1, a]",
                        "n (id int(11) key, a varchar(5)) INSERT after [1, x]",
                        "n (id int(11) key, a varchar(5), c int(11)) INSERT after [2, y, 3]",
                        MARKER_ROW);
    }

    /**
     * A table the job captures only since the restore ({@code legacy} was left out when the
     * checkpoint was taken) is not in the checkpoint: it is read from the server at its first row.
     */
    @Test
    void aTableCapturedOnlySinceTheCheckpointIsReadFromTheServerAtItsFirstRow() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("restore_wider", null);
        mariaDb.execute(database, "CREATE TABLE legacy (id INT PRIMARY KEY, a VARCHAR(5))", MARKER);
        MySqlBinlogSplit checkpoint = checkpointAt(mariaDb, database, ReaderRun.current(mariaDb));
        mariaDb.execute(
                database, "INSERT INTO legacy VALUES (1, 'x')", "INSERT INTO marker VALUES (1)");

        TableSchemas restored =
                SplitSchemas.of(checkpoint, jdbc(mariaDb), (db, table) -> db.equals(database), UTC);
        assertThat(
                        read(
                                mariaDb,
                                database,
                                restored,
                                BinlogPosition.fromBinlogOffset(checkpoint.getStartingOffset())))
                .containsExactly(
                        "legacy (id int(11) key, a varchar(5)) INSERT after [1, x]", MARKER_ROW);
    }

    /**
     * {@code legacy} exists before the reader starts and is not captured, so the reader never
     * followed it: on the rename its definition is read from the server, on a start and on a
     * restore alike.
     */
    @ParameterizedTest(name = "{0} after a {1}")
    @CsvSource({
        "RENAME TABLE legacy TO n, start",
        "ALTER TABLE legacy RENAME TO n, start",
        "RENAME TABLE legacy TO n, restore",
        "ALTER TABLE legacy RENAME TO n, restore"
    })
    void aRenameOfATableNeverFollowedIntoACapturedNameReadsItFromTheServer(
            String rename, String from) throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("rename_in", null);
        mariaDb.execute(
                database,
                "CREATE TABLE legacy (id INT PRIMARY KEY, a VARCHAR(5))",
                "INSERT INTO legacy VALUES (1, 'x')",
                MARKER);
        BinlogPosition at = ReaderRun.current(mariaDb);
        // A start reads the schemas before the rename; a restore after it, from the checkpoint.
        TableSchemas started = from.equals("start") ? schemasOf(mariaDb, database, at) : null;
        MySqlBinlogSplit checkpoint =
                from.equals("start") ? null : checkpointAt(mariaDb, database, at);
        mariaDb.execute(
                database,
                rename,
                "INSERT INTO n VALUES (2, 'y')",
                "UPDATE n SET a = 'z' WHERE id = 1",
                "INSERT INTO marker VALUES (1)");

        assertThat(
                        started != null
                                ? read(mariaDb, database, started, at)
                                : read(mariaDb, database, checkpoint))
                .containsExactly(
                        "n (id int(11) key, a varchar(5)) INSERT after [2, y]",
                        "n (id int(11) key, a varchar(5)) UPDATE before [1, x] after [1, z]",
                        MARKER_ROW);
    }

    /**
     * The definition read on the rename is the server's when the reader gets there: a reader behind
     * an ALTER of the table after the rename reads the rows before it with the newer columns, which
     * the table map shows.
     */
    @Test
    void aDefinitionChangedSinceTheRenameFailsTheReader() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        String database = mariaDb.createDatabase("rename_race", null);
        mariaDb.execute(database, "CREATE TABLE legacy (id INT PRIMARY KEY, a VARCHAR(5))", MARKER);
        BinlogPosition at = ReaderRun.current(mariaDb);
        TableSchemas started = schemasOf(mariaDb, database, at);
        mariaDb.execute(
                database,
                "RENAME TABLE legacy TO n",
                "INSERT INTO n VALUES (1, 'x')",
                "ALTER TABLE n ADD COLUMN c INT",
                "INSERT INTO n VALUES (2, 'y', 3)",
                "INSERT INTO marker VALUES (1)");

        assertThatThrownBy(() -> read(mariaDb, database, started, at))
                .rootCause()
                .hasMessageContaining("table map of " + database + ".n has 2 columns")
                .hasMessageContaining("holds has 3");
    }

    /** Captured: the database's tables but {@code legacy}. */
    private static BiPredicate<String, String> captured(String database) {
        return (db, table) -> db.equals(database) && !table.equals("legacy");
    }

    /** A binlog split as the enumerator makes it for a start at {@code at}: no table schemas. */
    private static MySqlBinlogSplit startAt(BinlogPosition at) {
        return new MySqlBinlogSplit(
                "binlog-split",
                BinlogOffset.ofBinlogFilePosition(at.file(), at.position()),
                BinlogOffset.ofNonStopping(),
                List.of(),
                Map.of(),
                0,
                false);
    }

    /**
     * The checkpoint of a reader started at {@code at} that has not read past it, as Flink stores
     * it (through Flink CDC's split serializer).
     */
    private static MySqlBinlogSplit checkpointAt(
            MariaDbServer mariaDb, String database, BinlogPosition at) throws Exception {
        MySqlBinlogSplit start = startAt(at);
        TableSchemas schemas = SplitSchemas.of(start, jdbc(mariaDb), captured(database), UTC);
        MySqlBinlogSplit checkpoint = SplitSchemas.checkpoint(start, at, schemas.snapshot());
        MySqlSplitSerializer serializer = MySqlSplitSerializer.INSTANCE;
        return serializer
                .deserialize(serializer.getVersion(), serializer.serialize(checkpoint))
                .asBinlogSplit();
    }

    /** The schemas a reader started at {@code at} holds (information_schema now). */
    private static TableSchemas schemasOf(MariaDbServer mariaDb, String database, BinlogPosition at)
            throws Exception {
        return SplitSchemas.of(startAt(at), jdbc(mariaDb), captured(database), UTC);
    }

    /** Every change a reader restored from {@code split} now gives up to the marker row. */
    private static List<String> read(MariaDbServer mariaDb, String database, MySqlBinlogSplit split)
            throws Exception {
        TableSchemas schemas = SplitSchemas.of(split, jdbc(mariaDb), captured(database), UTC);
        return read(
                mariaDb,
                database,
                schemas,
                BinlogPosition.fromBinlogOffset(split.getStartingOffset()));
    }

    /** Every change the reader gives from {@code start} up to the marker row, with columns. */
    private static List<String> read(
            MariaDbServer mariaDb, String database, TableSchemas schemas, BinlogPosition start)
            throws Exception {
        return ReaderRun.read(mariaDb, database, schemas, start, false).changes.stream()
                .map(emitted -> ChangeText.withColumns(emitted.change))
                .collect(Collectors.toList());
    }

    private static SourceJdbc jdbc(MariaDbServer mariaDb) {
        return SourceJdbc.of(
                mariaDb.host(), mariaDb.port(), mariaDb.cdcUser(), mariaDb.cdcPassword());
    }
}

package io.sluice.it.source;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.it.source.ChangeEventDiff.Difference;
import io.sluice.it.source.ReaderDifferences.Correction;
import io.sluice.it.source.ReaderDifferences.OnlySluice;
import io.sluice.it.source.ReaderDifferences.Rewritten;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.sluice.it.source.AllTypes.COLUMNS;
import static io.sluice.it.source.AllTypes.names;
import static io.sluice.it.source.ReaderDifferences.BOOKKEEPING;
import static io.sluice.it.source.ReaderDifferences.CORRECTIONS;
import static io.sluice.it.source.ReaderDifferences.TEXTS;
import static io.sluice.it.source.ReaderDifferences.splitKeyChanges;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One binlog read by both readers, {@code source.reader} {@code flink-cdc} and {@code sluice}, from
 * the same binlog position in one job: every type of {@code ddl/all_types.sql} inserted, updated
 * and deleted, multi-row statements, a transaction of several statements, a primary-key update,
 * ADD/MODIFY/DROP COLUMN with rows around them, a new table of every spatial type, renames, index
 * statements, TRUNCATE and ALTER DATABASE. The two lists of events must be equal in every field,
 * except for {@link ReaderDifferences#CORRECTIONS} (the values docs/value-rendering.md says
 * Sluice's reader writes right where Debezium's is wrong), {@link ReaderDifferences#ONLY_SLUICE}
 * (statements Debezium does not record), {@link ReaderDifferences#TEXTS} (statements whose text
 * Debezium rewrites), {@link ReaderDifferences#BOOKKEEPING} and a primary-key update's form. Both
 * readers also show the same lag metrics.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReaderDifferentialITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final InMemoryReporter METRICS = InMemoryReporter.create();

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(2, METRICS.addToConfiguration(new Configuration()));

    /**
     * The reader metrics of Flink CDC's reader (its own {@code currentFetchEventTimeLag}, and the
     * two the source operator registers from the records' timestamps), which Sluice's has too.
     */
    private static final List<String> LAG_METRICS =
            List.of("currentFetchEventTimeLag", "currentEmitEventTimeLag", "sourceIdleTime");

    private static final Duration WAIT = Duration.ofMinutes(2);

    private static final ChangeEventQueue FLINK_CDC = new ChangeEventQueue();
    private static final ChangeEventQueue SLUICE = new ChangeEventQueue();

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void bothReadersGiveTheSameEventsButForTheDocumentedCorrections(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("differential", "ddl/all_types.sql");
        String[] start = server.binlogEnd();
        FLINK_CDC.clear();
        SLUICE.clear();
        JobClient job = startJob(server, database, start);
        try {
            // Both readers read the tables' columns from information_schema when they start:
            // the first rows, read by both, show they did, before any ALTER.
            server.execute(database, copySeedRows());
            List<ChangeEvent> flinkCdc = FLINK_CDC.take(job, 4, WAIT);
            List<ChangeEvent> sluice = SLUICE.take(job, 4, WAIT);

            server.execute(database, workload());
            flinkCdc.addAll(FLINK_CDC.takeThrough(job, ReaderDifferentialITCase::isLast, WAIT));
            sluice.addAll(SLUICE.takeThrough(job, ReaderDifferentialITCase::isLast, WAIT));

            // Debezium writes a primary-key update as a DELETE and an INSERT, Sluice's reader as
            // one UPDATE; the job splits it as Debezium does (PrimaryKeyChangeSplitter, in the
            // normalize step), so the lists are compared as the rest of the job sees them.
            List<ChangeEvent> sluiceSplit = splitKeyChanges(sluice);
            assertThat(splitKeyChanges(flinkCdc)).as("Flink CDC's, split").isEqualTo(flinkCdc);
            assertThat(sluiceSplit)
                    .as("Sluice's: the one primary-key update split")
                    .hasSize(sluice.size() + 1);

            List<OnlySluice> onlySluice = ReaderDifferences.onlySluice(kind);
            for (OnlySluice statement : onlySluice) {
                assertThat(sluiceSplit)
                        .as("Sluice's: %s", statement)
                        .filteredOn(statement::covers)
                        .hasSize(1);
                assertThat(flinkCdc).as("Flink CDC's: %s", statement).noneMatch(statement::covers);
            }
            sluiceSplit.removeIf(e -> onlySluice.stream().anyMatch(o -> o.covers(e)));

            List<Difference> differences = ChangeEventDiff.of(flinkCdc, sluiceSplit);
            List<String> unexplained =
                    differences.stream()
                            .filter(d -> CORRECTIONS.stream().noneMatch(c -> c.covers(d)))
                            .filter(d -> BOOKKEEPING.stream().noneMatch(b -> b.covers(d)))
                            .filter(d -> TEXTS.stream().noneMatch(t -> t.covers(d)))
                            .map(Difference::toString)
                            .collect(Collectors.toList());
            assertThat(unexplained)
                    .as(
                            "differences of the readers beyond the documented corrections, in %d"
                                    + " events",
                            flinkCdc.size())
                    .isEmpty();
            Set<Correction> seen =
                    CORRECTIONS.stream()
                            .filter(c -> differences.stream().anyMatch(c::covers))
                            .collect(Collectors.toSet());
            assertThat(CORRECTIONS)
                    .as("corrections this binlog shows (an unseen one is stale)")
                    .containsExactlyInAnyOrderElementsOf(seen);
            for (Rewritten text : TEXTS) {
                assertThat(differences).as("statement texts: %s", text).anyMatch(text::covers);
            }
            assertThat(flinkCdc).as("events read").hasSizeGreaterThan(40);

            // Both readers' lags: defined once rows were read, and no more than the time since
            // the oldest event read (fetched and emitted after it was written, before now).
            Map<String, Map<String, Long>> lags = new TreeMap<>();
            for (String reader : List.of("reader-flink-cdc", "reader-sluice")) {
                lags.put(reader, lags(job.getJobID(), reader));
            }
            long sinceOldest =
                    System.currentTimeMillis()
                            - flinkCdc.stream()
                                    .filter(ChangeEvent::isRow)
                                    .mapToLong(ChangeEvent::executeTime)
                                    .min()
                                    .orElseThrow();
            for (Map.Entry<String, Map<String, Long>> reader : lags.entrySet()) {
                assertThat(reader.getValue().keySet())
                        .as("%s's metrics", reader.getKey())
                        .containsExactlyInAnyOrderElementsOf(LAG_METRICS);
                assertThat(reader.getValue().get("currentFetchEventTimeLag"))
                        .as("%s's fetch lag (all: %s)", reader.getKey(), lags)
                        .isBetween(0L, sinceOldest);
                assertThat(reader.getValue().get("currentEmitEventTimeLag"))
                        .as("%s's emit lag (all: %s)", reader.getKey(), lags)
                        .isBetween(0L, sinceOldest);
            }
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void everyAllowedDifferenceNamesAHeadingOfTheDocs() throws Exception {
        Stream.concat(
                        Stream.concat(
                                CORRECTIONS.stream().map(Correction::anchor),
                                TEXTS.stream().map(Rewritten::anchor)),
                        ReaderDifferences.onlySluice(DatabaseServer.Kind.MYSQL).stream()
                                .map(OnlySluice::anchor))
                .forEach(
                        anchor -> {
                            String[] fileAndHeading = anchor.split("#", 2);
                            assertThat(headings(fileAndHeading[0]))
                                    .as("anchor %s", anchor)
                                    .contains(fileAndHeading[1]);
                        });
    }

    /** The anchors of the headings of docs/{@code file}. */
    private static Set<String> headings(String file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("..", "docs", file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines.stream()
                .filter(line -> line.startsWith("#"))
                .map(ReaderDifferences::anchor)
                .collect(Collectors.toSet());
    }

    /** The {@link #LAG_METRICS} of the source operator {@code reader}. */
    private static Map<String, Long> lags(JobID job, String reader) {
        List<OperatorMetricGroup> groups = METRICS.findOperatorMetricGroups(job, reader);
        assertThat(groups).as("the operator %s", reader).hasSize(1);
        Map<String, Long> lags = new TreeMap<>();
        METRICS.getMetricsByGroup(groups.get(0))
                .forEach(
                        (name, metric) -> {
                            if (LAG_METRICS.contains(name)) {
                                lags.put(name, (Long) ((Gauge<?>) metric).getValue());
                            }
                        });
        return lags;
    }

    private static boolean isLast(ChangeEvent event) {
        return event.isRow() && event.table().equals("done");
    }

    /** Ids 11 to 14: the four seed rows copied in one statement, so one rows event of four rows. */
    private static String[] copySeedRows() {
        return new String[] {
            "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'",
            "INSERT INTO all_types SELECT id + 10, "
                    + String.join(", ", Arrays.copyOfRange(names(), 1, COLUMNS.length))
                    + " FROM all_types ORDER BY id"
        };
    }

    private static String[] workload() {
        return new String[] {
            "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'",
            // Negative TIMEs whose last unit is zero, zero and partly-zero dates, two rows.
            "INSERT INTO all_types (id, c_time, c_time6, c_date, c_datetime) VALUES"
                    + " (15, '-01:00:00', '-01:00:00.000000', '2020-00-00', '0000-00-00 00:00:00'),"
                    + " (16, '-12:34:00', '-00:00:01.500000', NULL, '2024-02-29 12:00:00')",
            // Every row: one column changed, the others the same before and after.
            "UPDATE all_types SET c_varchar = 'upd', c_decimal = c_decimal + 1 WHERE id > 10",
            // Every column changed: row 11 takes row 12's values, row 12 row 14's (zero dates).
            copyRow(12, 11),
            copyRow(14, 12),
            // A primary-key update.
            "UPDATE all_types SET id = 21 WHERE id = 13",
            // A transaction of several statements.
            "BEGIN",
            "INSERT INTO all_types (id, c_int) VALUES (30, 1), (31, 2)",
            "UPDATE all_types SET c_int = c_int + 10 WHERE id IN (30, 31)",
            "DELETE FROM all_types WHERE id = 16",
            "COMMIT",
            "ALTER TABLE all_types ADD COLUMN c_added VARCHAR(8) NULL DEFAULT 'new'",
            "INSERT INTO all_types (id, c_added) VALUES (32, 'added')",
            "UPDATE all_types SET c_added = 'upd' WHERE id = 30",
            "ALTER TABLE all_types MODIFY COLUMN c_added VARCHAR(32) NULL",
            "INSERT INTO all_types (id, c_added) VALUES (33, 'modified')",
            "ALTER TABLE all_types DROP COLUMN c_added",
            "INSERT INTO all_types (id, c_int) VALUES (34, 34)",
            // Every spatial type, values with and without an SRID (no SRID column attribute:
            // Debezium's parser cannot read one, docs/value-rendering.md).
            "CREATE TABLE geo (id INT PRIMARY KEY, g GEOMETRY, p POINT, l LINESTRING,"
                    + " po POLYGON, mp MULTIPOINT, ml MULTILINESTRING, mpo MULTIPOLYGON,"
                    + " gc GEOMETRYCOLLECTION)",
            "INSERT INTO geo VALUES (1, ST_GeomFromText('POINT(1 2)', 4326),"
                    + " ST_GeomFromText('POINT(-1.5 0)'),"
                    + " ST_GeomFromText('LINESTRING(0 0, 1 1, 2 0)'),"
                    + " ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0),"
                    + " (2 2, 4 2, 4 4, 2 2))'),"
                    + " ST_GeomFromText('MULTIPOINT(0 0, 1 1)'),"
                    + " ST_GeomFromText('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))'),"
                    + " ST_GeomFromText('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)),"
                    + " ((5 5, 6 5, 6 6, 5 5)))'),"
                    + " ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 1 1))')),"
                    + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                    + " ST_GeomFromText('GEOMETRYCOLLECTION EMPTY'))",
            "UPDATE geo SET g = ST_GeomFromText('LINESTRING(0 0, 1 1)', 3857) WHERE id = 1",
            "DELETE FROM geo WHERE id = 2",
            "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(10), at DATETIME(3))",
            "INSERT INTO items VALUES (1, 'a', '2024-01-01 00:00:00.5'), (2, 'b', NULL)",
            // Neither reader writes it: the binlog does not say whether the table existed then.
            "CREATE TABLE IF NOT EXISTS items (id INT PRIMARY KEY)",
            "UPDATE items SET name = 'c' WHERE id = 1",
            "RENAME TABLE items TO items2",
            "INSERT INTO items2 VALUES (3, 'd', NULL)",
            "ALTER TABLE items2 RENAME TO items",
            "CREATE INDEX idx_name ON items (name)",
            "DROP INDEX idx_name ON items",
            "ALTER TABLE items ADD INDEX idx_at (at)",
            // Every row, every type deleted, in one statement.
            "DELETE FROM all_types",
            "TRUNCATE TABLE items",
            "ALTER DATABASE CHARACTER SET utf8mb4",
            "CREATE TABLE gone (id INT PRIMARY KEY)",
            "DROP TABLE gone",
            "CREATE TABLE done (id INT PRIMARY KEY)",
            "INSERT INTO done VALUES (1)"
        };
    }

    /** Sets every column but the key of row {@code to} to row {@code from}'s value. */
    private static String copyRow(int from, int to) {
        return "UPDATE all_types t JOIN all_types s ON t.id = "
                + to
                + " AND s.id = "
                + from
                + " SET "
                + Stream.of(names())
                        .skip(1)
                        .map(c -> "t." + c + " = s." + c)
                        .collect(Collectors.joining(", "));
    }

    /** One job, both readers from {@code start}, each into its own queue. */
    private static JobClient startJob(DatabaseServer server, String database, String[] start)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration jobConfig = new Configuration();
        jobConfig.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        env.configure(jobConfig);
        env.setParallelism(1);
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(
                                source(server, database, start, SourceReaderKind.FLINK_CDC, 5501)),
                        WatermarkStrategy.noWatermarks(),
                        "reader-flink-cdc")
                .sinkTo(FLINK_CDC.sink())
                .name("queue-flink-cdc");
        env.fromSource(
                        MySqlSourceFactory.changeEventSource(
                                source(server, database, start, SourceReaderKind.SLUICE, 5502)),
                        WatermarkStrategy.noWatermarks(),
                        "reader-sluice")
                .sinkTo(SLUICE.sink())
                .name("queue-sluice");
        return env.executeAsync("differential-" + database);
    }

    private static OptionSection source(
            DatabaseServer server,
            String database,
            String[] start,
            SourceReaderKind reader,
            int serverId) {
        Configuration config = SourceConfigs.connection(server, database + "\\..*");
        // Not UTC, so that a reader ignoring the option shows.
        config.set(MySqlSourceOptions.TIMESTAMP_TIME_ZONE, "Asia/Shanghai");
        config.set(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES, true);
        SourceConfigs.startingAt(config, start[0], Long.parseLong(start[1]));
        config.set(MySqlSourceOptions.SERVER_ID, String.valueOf(serverId));
        config.set(MySqlSourceOptions.READER, reader);
        return OptionSection.unprefixed(config);
    }
}

package io.sluice.it.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import io.sluice.functions.source.binlog.BinlogColumn;
import io.sluice.functions.source.binlog.BinlogRowsListener;
import io.sluice.functions.source.binlog.RowsEventDecoder;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.it.server.MariaDbServer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.tools.bench.BinlogPosition;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.source.AllTypes.COLUMNS;
import static io.sluice.it.source.AllTypes.checkRow;
import static io.sluice.it.source.AllTypes.checkSchema;
import static io.sluice.it.source.AllTypes.columnTypes;
import static io.sluice.it.source.AllTypes.names;
import static io.sluice.it.source.AllTypes.seedRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's own binlog decoder ({@link RowsEventDecoder}) on the real binlog of MariaDB 11.4: every
 * column of {@code ddl/all_types.sql} written, copied in one statement, updated and deleted, read
 * back with the binlog client and compared with what {@link ChangeEventConversionITCase} pins for
 * the Flink CDC reader, except the values that reader gets wrong (docs/value-rendering.md), which
 * are pinned here corrected; plus a table of negative TIMEs of every fraction width.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RowsEventDecoderITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    /** Not UTC, as in ChangeEventConversionITCase. */
    private static final ZoneId TIMESTAMP_ZONE = ZoneId.of("Asia/Shanghai");

    /** TIME columns of widths 0, 1, 3 and 6, and the text each row must come back as. */
    private static final String TIMES_DDL =
            "CREATE TABLE times (id INT PRIMARY KEY, t TIME, t1 TIME(1), t3 TIME(3), t6 TIME(6))";

    private static final String[][] TIMES = {
        // The Flink CDC reader writes -01:04:03, -01:04:05.147 and -01:04:04.048576 for row 1.
        {"1", "-01:00:00", "-00:00:01.5", "-01:00:00.000", "-01:00:00.000000"},
        {"2", "-12:34:00", "-838:59:58.9", "-10:00:05.250", "-838:59:59.000000"},
        {"3", "838:59:59", "00:00:00.1", "00:00:00.001", "-00:00:00.000001"},
        {"4", "-00:00:01", "-01:00:00.0", "-00:00:00.100", "00:00:00.000000"},
    };

    @Test
    void decodesEveryTypeAsTheFlinkCdcReaderDoesButWhereItIsWrong() throws Exception {
        MariaDbServer mariaDb = MARIADB.server();
        BinlogPosition start = position(mariaDb);
        String database = mariaDb.createDatabase("decoder", "ddl/all_types.sql");
        mariaDb.execute(
                database,
                "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'",
                // One statement: one rows event of four rows.
                "INSERT INTO all_types SELECT id + 10, "
                        + String.join(", ", Arrays.copyOfRange(names(), 1, COLUMNS.length))
                        + " FROM all_types ORDER BY id",
                "UPDATE all_types SET c_varchar = 'upd', c_decimal = 10.5 WHERE id = 12",
                "DELETE FROM all_types WHERE id = 13",
                TIMES_DDL);
        for (String[] row : TIMES) {
            mariaDb.execute(
                    database,
                    "INSERT INTO times VALUES ("
                            + row[0]
                            + ", '"
                            + String.join("', '", Arrays.copyOfRange(row, 1, row.length))
                            + "')");
        }
        BinlogPosition end = position(mariaDb);
        Map<String, String> columnTypes = columnTypes(mariaDb, database);

        List<ChangeEvent> events = read(mariaDb, database, start, end);
        List<ChangeEvent> allTypes = new ArrayList<>();
        List<ChangeEvent> times = new ArrayList<>();
        for (ChangeEvent event : events) {
            (event.table().equals("all_types") ? allTypes : times).add(event);
        }
        assertThat(allTypes).as("all_types changes").hasSize(4 + 4 + 1 + 1);
        assertThat(times).as("times changes").hasSize(TIMES.length);

        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < 8; i++) {
            ChangeEvent insert = allTypes.get(i);
            int seed = i % 4 + 1;
            int id = i < 4 ? seed : 10 + seed;
            softly.assertThat(insert.type()).as("insert %d", id).isEqualTo(ChangeType.INSERT);
            softly.assertThat(insert.rowInEvent())
                    .as("insert %d row", id)
                    .isEqualTo(i < 4 ? 0 : i - 4);
            softly.assertThat(insert.binlogFile())
                    .as("insert %d file", id)
                    .startsWith("mysql-bin.");
            softly.assertThat(insert.binlogPosition()).as("insert %d pos", id).isPositive();
            softly.assertThat(insert.executeTime()).as("insert %d executeTime", id).isPositive();
            softly.assertThat(insert.serverId()).as("insert %d serverId", id).isEqualTo(1L);
            checkSchema(softly, insert.schema(), database, columnTypes, "binlog");
            checkRow(softly, "binlog insert " + id, insert.after(), row(seed, id));
        }
        softly.assertThat(allTypes.subList(4, 8))
                .as("one rows event: one position")
                .extracting(ChangeEvent::binlogPosition)
                .containsOnly(allTypes.get(4).binlogPosition());
        AllTypes.checkUpdateAndDelete(
                softly, allTypes.get(8), allTypes.get(9), RowsEventDecoderITCase::row);

        for (int i = 0; i < TIMES.length; i++) {
            ChangeEvent time = times.get(i);
            for (int c = 0; c < TIMES[i].length; c++) {
                softly.assertThat(time.after().text(c))
                        .as("times row %s: %s", TIMES[i][0], time.schema().name(c))
                        .isEqualTo(TIMES[i][c]);
            }
        }
        softly.assertAll();
    }

    /**
     * What the new reader writes for a copy, with id {@code id}, of seed row {@code seed}: Canal's
     * text, also where the Flink CDC reader writes NULL for zero dates and a wrong negative TIME(6)
     * for row 1 ({@link AllTypes#flinkCdcBinlogRow}).
     */
    private static String[] row(int seed, int id) {
        String[] row = seedRow(seed);
        row[0] = String.valueOf(id);
        return row;
    }

    /** Every change of {@code database} from {@code start} to {@code end}, decoded. */
    private static List<ChangeEvent> read(
            MariaDbServer mariaDb, String database, BinlogPosition start, BinlogPosition end)
            throws Exception {
        List<ChangeEvent> events = new ArrayList<>();
        BinaryLogClient client =
                new BinaryLogClient(
                        mariaDb.host(),
                        mariaDb.port(),
                        MariaDbServer.CDC_USER,
                        MariaDbServer.CDC_PASSWORD);
        client.setServerId(5400);
        client.setBinlogFilename(start.file);
        client.setBinlogPosition(start.position);
        client.setKeepAlive(false);
        client.setEventDeserializer(RowsEventDecoder.eventDeserializer());
        CountDownLatch done = new CountDownLatch(1);
        List<Throwable> failures = new ArrayList<>();
        BinlogRowsListener rows =
                new BinlogRowsListener(
                        (db, table, map) ->
                                db.equals(database) ? decoder(mariaDb, db, table) : null,
                        client::getBinlogFilename,
                        events::add);
        client.registerEventListener(
                event -> {
                    try {
                        rows.onEvent(event);
                    } catch (RuntimeException e) {
                        failures.add(e);
                        done.countDown();
                    }
                    if (end.file.equals(client.getBinlogFilename())
                            && ((EventHeaderV4) event.getHeader()).getNextPosition()
                                    >= end.position) {
                        done.countDown();
                    }
                });
        client.connect(60_000);
        try {
            assertThat(done.await(2, TimeUnit.MINUTES)).as("binlog read up to %s", end).isTrue();
        } finally {
            client.disconnect();
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("Decoding failed", failures.get(0));
        }
        return events;
    }

    private static RowsEventDecoder decoder(MariaDbServer mariaDb, String database, String table) {
        try (Connection connection = mariaDb.connect(database)) {
            return RowsEventDecoder.of(
                    database,
                    table,
                    BinlogColumn.read(connection, database, table),
                    TIMESTAMP_ZONE);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BinlogPosition position(MariaDbServer mariaDb) throws Exception {
        try (Connection connection = mariaDb.connect(null)) {
            return BinlogPosition.current(connection);
        }
    }
}

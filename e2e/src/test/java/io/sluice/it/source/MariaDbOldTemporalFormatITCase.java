package io.sluice.it.source;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.MariaDbExtension;
import io.sluice.serializers.event.ChangeEvent;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB's temporal formats from before MySQL 5.6 (DATETIME, TIME and TIMESTAMP without the "2" in
 * the binlog), which a table created while {@code mysql56_temporal_format} is OFF has: Sluice's
 * reader writes each value as the server's own text, as Canal does. With a fraction (DATETIME(3)
 * and the like) the old formats are MariaDB 5.3's, which the binlog client cannot read: not covered
 * here (docs/value-rendering.md).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MariaDbOldTemporalFormatITCase {

    /** The setting is global: every table created on the server gets the old formats. */
    @RegisterExtension
    static final MariaDbExtension MARIADB =
            MariaDbExtension.own(
                    "mysql56_temporal_format=OFF, for every table",
                    "--mysql56-temporal-format=OFF");

    private static final String[] COLUMNS = {"dt0", "t0", "ts0"};

    @Test
    void readsOldTemporalFormatsAsTheServerWritesThem() throws Exception {
        DatabaseServer server = MARIADB.server();
        String database = server.createDatabase("old_temporal", null);
        server.execute(
                database,
                "CREATE TABLE old_temporal (id INT PRIMARY KEY, dt0 DATETIME, t0 TIME,"
                        + " ts0 TIMESTAMP NULL)",
                "CREATE TABLE marker (id INT PRIMARY KEY)");
        BinlogPosition start = ReaderRun.current(server);
        server.execute(
                database,
                "SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'",
                "INSERT INTO old_temporal VALUES (1, '2024-02-29 12:34:56', '-838:59:59',"
                        + " '2024-02-29 12:34:56')",
                "INSERT INTO old_temporal VALUES (2, '0000-00-00 00:00:00', '838:59:59',"
                        + " '2038-01-19 03:14:07')",
                "INSERT INTO old_temporal VALUES (3, '2020-00-00 00:00:00', '-00:00:01',"
                        + " '1970-01-01 00:00:01')",
                "INSERT INTO old_temporal (id) VALUES (4)",
                "INSERT INTO marker VALUES (1)");
        ReaderRun run = ReaderRun.read(server, database, start, false);
        List<List<String>> expected = serverTexts(server, database);
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < expected.size(); i++) {
            ChangeEvent insert = run.changes.get(i).change;
            List<String> texts = new ArrayList<>();
            for (int c = 1; c <= COLUMNS.length; c++) {
                texts.add(insert.after().text(c));
            }
            softly.assertThat(texts)
                    .as("row %d (%s)", i + 1, String.join(", ", COLUMNS))
                    .containsExactlyElementsOf(expected.get(i));
        }
        softly.assertAll();
    }

    /**
     * With a fraction, the old formats' binlog values cannot be read: the start check names each
     * such captured column, and passes over those without a fraction and uncaptured tables.
     */
    @Test
    void theStartCheckRefusesOldTemporalColumnsWithAFraction() {
        DatabaseServer server = MARIADB.server();
        String database = server.createDatabase("old_fraction", null);
        server.execute(
                database,
                "CREATE TABLE t (id INT PRIMARY KEY, dt0 DATETIME, dt3 DATETIME(3), t6 TIME(6),"
                        + " ts2 TIMESTAMP(2) NULL)",
                "CREATE TABLE other (id INT PRIMARY KEY, dt6 DATETIME(6))");
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.HOSTNAME, server.host());
        options.set(MySqlSourceOptions.PORT, server.port());
        options.set(MySqlSourceOptions.USERNAME, server.cdcUser());
        options.set(MySqlSourceOptions.PASSWORD, server.cdcPassword());
        options.set(MySqlSourceOptions.TABLES, List.of(database + ".t"));
        assertThat(MySqlSourceFactory.serverCheck(OptionSection.unprefixed(options)).problems(true))
                .containsExactly(
                        String.format(
                                "Columns in MariaDB's pre-5.6 temporal format with a fraction"
                                        + " cannot be read from the binlog: [%1$s.t.dt3"
                                        + " datetime(3) /* mariadb-5.3 */, %1$s.t.t6 time(6) /*"
                                        + " mariadb-5.3 */, %1$s.t.ts2 timestamp(2) /* mariadb-5.3"
                                        + " */]. They were created while"
                                        + " mysql56_temporal_format was OFF; rebuild their tables"
                                        + " with it ON (ALTER TABLE … FORCE) or leave the tables"
                                        + " out.",
                                database));
    }

    /** Each row's values as the server writes them in UTC, the reader's TIMESTAMP zone here. */
    private static List<List<String>> serverTexts(DatabaseServer server, String database)
            throws Exception {
        List<List<String>> rows = new ArrayList<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement()) {
            statement.execute("SET time_zone = '+00:00'");
            StringBuilder select = new StringBuilder("SELECT ");
            for (String column : COLUMNS) {
                select.append("CAST(").append(column).append(" AS CHAR), ");
            }
            select.setLength(select.length() - 2);
            try (ResultSet result =
                    statement.executeQuery(select + " FROM old_temporal ORDER BY id")) {
                while (result.next()) {
                    List<String> row = new ArrayList<>();
                    for (int c = 1; c <= COLUMNS.length; c++) {
                        row.add(result.getString(c));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }
}

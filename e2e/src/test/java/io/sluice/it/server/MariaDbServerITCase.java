package io.sluice.it.server;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.server.SqlRows.column;
import static io.sluice.it.server.SqlRows.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves the embedded MariaDB is what the CDC source needs: ROW binlog and a least-privilege user.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MariaDbServerITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    private static final Duration BINLOG_WAIT = Duration.ofSeconds(30);

    @Test
    void createsAFreshDatabaseFromASqlResource() throws SQLException {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("Server-Check", "ddl/server_check.sql");

        assertThat(database).matches("server_check_[0-9a-f]{8}");
        assertThat(server.createDatabase("server_check", null)).isNotEqualTo(database);
        assertThat(query(server.connect(database), "SELECT id, name FROM customer ORDER BY id"))
                .containsExactly("1|Ada", "2|Grace");
    }

    @Test
    void binlogIsOnRowFormattedAndFull() throws SQLException {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("binlog_check", "ddl/server_check.sql");
        server.execute(database, "UPDATE customer SET note = 'changed' WHERE id = 2");

        assertThat(
                        query(
                                server.connect(null),
                                "SELECT @@log_bin, @@binlog_format, @@binlog_row_image,"
                                        + " @@server_id, @@character_set_server,"
                                        + " @@collation_server, @@time_zone"))
                .containsExactly("1|ROW|FULL|1|utf8mb4|utf8mb4_unicode_ci|+00:00");
        assertThat(
                        query(
                                server.connect(database),
                                "SELECT TABLE_COLLATION FROM information_schema.TABLES"
                                        + " WHERE TABLE_SCHEMA = DATABASE()"))
                .containsExactly("utf8mb4_unicode_ci");
        List<String> eventTypes = column(server.connect(null), "SHOW BINLOG EVENTS", "Event_type");
        assertThat(eventTypes).anyMatch(type -> type.startsWith("Write_rows"));
        assertThat(eventTypes).anyMatch(type -> type.startsWith("Update_rows"));
    }

    @Test
    void cdcUserCanReadTheBinlogPositionAndTablesButNotWrite() throws SQLException {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("cdc_grants", "ddl/server_check.sql");

        try (Connection cdc =
                        server.connect(
                                database, MariaDbServer.CDC_USER, MariaDbServer.CDC_PASSWORD);
                Statement statement = cdc.createStatement()) {
            try (ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
                assertThat(status.next()).isTrue();
                assertThat(status.getString("File")).startsWith("mysql-bin.");
                assertThat(status.getLong("Position")).isPositive();
            }
            try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM customer")) {
                assertThat(count.next()).isTrue();
                assertThat(count.getInt(1)).isEqualTo(2);
            }
            assertThatThrownBy(
                            () ->
                                    statement.executeUpdate(
                                            "INSERT INTO customer (id, name) VALUES (3, 'Eve')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("denied");
        }
        assertThat(query(server.connect(database), "SELECT COUNT(*) FROM customer"))
                .containsExactly("2");
    }

    @Test
    void cdcUserCanStreamRowEventsFromTheBinlog() throws Exception {
        MariaDbServer server = MARIADB.server();
        String database = server.createDatabase("cdc_stream", "ddl/server_check.sql");
        BlockingQueue<WriteRowsEventData> writes = new LinkedBlockingQueue<>();
        // The binlog client the CDC source uses, logged in as the CDC user, from the current end.
        BinaryLogClient client =
                new BinaryLogClient(
                        server.host(),
                        server.port(),
                        MariaDbServer.CDC_USER,
                        MariaDbServer.CDC_PASSWORD);
        client.setServerId(6400);
        client.setKeepAlive(false);
        client.registerEventListener(
                event -> {
                    if (event.getData() instanceof WriteRowsEventData) {
                        writes.add(event.getData());
                    }
                });
        client.connect(BINLOG_WAIT.toMillis());
        try {
            server.execute(database, "INSERT INTO customer (id, name) VALUES (3, 'Eve')");

            WriteRowsEventData write = writes.poll(BINLOG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(write).as("a Write_rows event for the insert").isNotNull();
            assertThat(write.getRows()).hasSize(1);
            assertThat(write.getRows().get(0)[0]).isEqualTo(3L);
        } finally {
            client.disconnect();
        }
    }
}

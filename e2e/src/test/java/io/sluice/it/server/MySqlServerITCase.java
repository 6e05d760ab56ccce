package io.sluice.it.server;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
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
 * Proves the embedded MySQL 8 is what the CDC source needs: a ROW binlog with GTIDs, and a
 * least-privilege user that logs in with MySQL 8's default {@code caching_sha2_password} ({@link
 * DatabaseServerITCase} checks what both servers do alike).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MySqlServerITCase {

    @RegisterExtension static final MySqlExtension MYSQL = MySqlExtension.shared();

    private static final Duration BINLOG_WAIT = Duration.ofSeconds(30);

    @Test
    void isMySql8WithARowBinlogAndGtids() throws SQLException {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("binlog_check", "ddl/server_check.sql");
        server.execute(database, "UPDATE customer SET note = 'changed' WHERE id = 2");

        assertThat(
                        query(
                                server.connect(null),
                                "SELECT @@version, @@log_bin, @@binlog_format,"
                                        + " @@binlog_row_image, @@gtid_mode,"
                                        + " @@enforce_gtid_consistency, @@server_id,"
                                        + " @@character_set_server, @@time_zone"))
                .containsExactly("8.0.31|1|ROW|FULL|ON|ON|1|utf8mb4|+00:00");
        List<String> eventTypes = column(server.connect(null), "SHOW BINLOG EVENTS", "Event_type");
        assertThat(eventTypes).contains("Gtid", "Write_rows", "Update_rows");
    }

    @Test
    void cdcUserLogsInWithCachingSha2PasswordWithoutTls() throws SQLException {
        MySqlServer server = MYSQL.server();

        assertThat(
                        query(
                                server.connect(null),
                                "SELECT DISTINCT plugin FROM mysql.user WHERE user IN ('"
                                        + MySqlServer.ROOT_USER
                                        + "', '"
                                        + MySqlServer.CDC_USER
                                        + "')"))
                .containsExactly("caching_sha2_password");
        // A user that never logged in is not in the server's cache: a full login, the password
        // RSA-encrypted with the key the driver fetched, as useSSL=false has no TLS.
        server.createUser("sha2_check", "sha2-pw", "SELECT");
        assertThat(
                        query(
                                server.connect(null, "sha2_check", "sha2-pw"),
                                "SELECT SUBSTRING_INDEX(CURRENT_USER(), '@', 1)"))
                .containsExactly("sha2_check");
        assertThat(
                        query(
                                server.connect(
                                        null, MySqlServer.CDC_USER, MySqlServer.CDC_PASSWORD),
                                "SHOW SESSION STATUS LIKE 'Ssl_cipher'"))
                .containsExactly("Ssl_cipher|");
        assertThatThrownBy(() -> server.connect(null, MySqlServer.CDC_USER, "wrong-pw"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Access denied");
    }

    @Test
    void cdcUserCanStreamRowEventsWithGtidsFromTheBinlog() throws Exception {
        MySqlServer server = MYSQL.server();
        String database = server.createDatabase("cdc_stream", "ddl/server_check.sql");
        String serverUuid = query(server.connect(null), "SELECT @@server_uuid").get(0);
        BlockingQueue<EventData> events = new LinkedBlockingQueue<>();
        // The binlog client the CDC source uses, logged in as the CDC user, from the current end.
        BinaryLogClient client =
                new BinaryLogClient(
                        server.host(),
                        server.port(),
                        MySqlServer.CDC_USER,
                        MySqlServer.CDC_PASSWORD);
        client.setServerId(6400);
        client.setKeepAlive(false);
        client.registerEventListener(
                event -> {
                    if (event.getData() instanceof GtidEventData
                            || event.getData() instanceof WriteRowsEventData) {
                        events.add(event.getData());
                    }
                });
        client.connect(BINLOG_WAIT.toMillis());
        try {
            server.execute(database, "INSERT INTO customer (id, name) VALUES (3, 'Eve')");

            EventData gtid = events.poll(BINLOG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(gtid).as("a GTID event before the insert").isInstanceOf(GtidEventData.class);
            assertThat(((GtidEventData) gtid).getGtid()).matches(serverUuid + ":[0-9]+");
            EventData write = events.poll(BINLOG_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(write)
                    .as("a Write_rows event for the insert")
                    .isInstanceOf(WriteRowsEventData.class);
            assertThat(((WriteRowsEventData) write).getRows()).hasSize(1);
            assertThat(((WriteRowsEventData) write).getRows().get(0)[0]).isEqualTo(3L);
        } finally {
            client.disconnect();
        }
    }
}

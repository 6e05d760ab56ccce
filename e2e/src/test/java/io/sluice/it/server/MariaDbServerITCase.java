package io.sluice.it.server;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
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

/**
 * Proves the embedded MariaDB is what the CDC source needs: a ROW binlog that the CDC user streams
 * ({@link DatabaseServerITCase} checks what both servers do alike).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MariaDbServerITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = MariaDbExtension.shared();

    private static final Duration BINLOG_WAIT = Duration.ofSeconds(30);

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

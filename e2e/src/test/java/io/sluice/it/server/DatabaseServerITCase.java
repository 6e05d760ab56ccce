package io.sluice.it.server;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.server.SqlRows.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What both test databases do alike ({@link DatabaseServer}): a fresh database from a SQL resource,
 * and a CDC user that reads the binlog position and the tables but cannot write.
 * MariaDbServerITCase and MySqlServerITCase check what each server is.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DatabaseServerITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void createsAFreshDatabaseFromASqlResource(DatabaseServer.Kind kind) throws SQLException {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("Server-Check", "ddl/server_check.sql");

        assertThat(database).matches("server_check_[0-9a-f]{8}");
        assertThat(server.createDatabase("server_check", null)).isNotEqualTo(database);
        assertThat(query(server.connect(database), "SELECT id, name FROM customer ORDER BY id"))
                .containsExactly("1|Ada", "2|Grace");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void cdcUserCanReadTheBinlogPositionAndTablesButNotWrite(DatabaseServer.Kind kind)
            throws SQLException {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("cdc_grants", "ddl/server_check.sql");

        try (Connection cdc = server.connect(database, server.cdcUser(), server.cdcPassword());
                Statement statement = cdc.createStatement()) {
            try (ResultSet status = statement.executeQuery("SHOW MASTER STATUS")) {
                assertThat(status.next()).isTrue();
                assertThat(status.getString("File")).startsWith("mysql-bin.");
                assertThat(status.getLong("Position")).isPositive();
                if (kind == DatabaseServer.Kind.MYSQL) {
                    assertThat(status.getString("Executed_Gtid_Set")).isNotEmpty();
                }
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
}

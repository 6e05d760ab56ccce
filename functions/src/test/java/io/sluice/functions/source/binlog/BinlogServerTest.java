package io.sluice.functions.source.binlog;

import io.sluice.functions.source.SourceSetupException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Whether a position read on one server may go on on the server a connection is on. */
class BinlogServerTest {

    private static final String UUID_A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String UUID_B = "4f22fb58-82db-22f2-af44-d91bb9530673";

    @Test
    void theSameServerGoesOnAsBefore() {
        BinlogServer server = mariaDb(1, "0-1-50");
        BinlogPosition at = BinlogPosition.of("mysql-bin.000002", 900, 0, 0, "", 1, "1");
        assertThat(server.isOtherThan(at)).isFalse();
        assertThatCode(() -> server.resume(at)).doesNotThrowAnyException();
        // An untagged position (not read by Sluice, or before it tagged them) is not another's.
        assertThat(server.isOtherThan(BinlogPosition.at("mysql-bin.000002", 4))).isFalse();
    }

    @Test
    void anotherMariaDbServerWithEveryDomainAtOrPastTheSetGoesOnByGtid() {
        BinlogServer promoted = mariaDb(2, "0-2-120,1-1-7");
        BinlogPosition at = BinlogPosition.of("mysql-bin.000009", 4, 1, 2, "0-1-100,1-1-7", 1, "1");
        assertThat(promoted.isOtherThan(at)).isTrue();
        assertThatCode(() -> promoted.resume(at)).doesNotThrowAnyException();
        assertThat(promoted.identity()).isEqualTo("2");
    }

    @Test
    void aMariaDbServerBehindTheSetIsRefusedNamingWhatItLacks() {
        BinlogServer lagging = mariaDb(2, "0-1-80");
        BinlogPosition at = BinlogPosition.of("mysql-bin.000009", 4, 0, 0, "0-1-100,3-1-5", 1, "1");
        assertThatThrownBy(() -> lagging.resume(at))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining(
                        "lacks 0-1-100 (domain 0, sequence numbers 81 to 100;"
                                + " its binlog ends at 0-1-80)")
                .hasMessageContaining(
                        "3-1-5 (domain 3, sequence numbers 1 to 5; its binlog"
                                + " ends at none of that domain)")
                .hasMessageContaining("already published")
                .hasMessageContaining("log_slave_updates=ON");
    }

    @Test
    void aPromotedReplicaNumberedPastTheSetButWithoutItIsRefused() {
        // It stopped replicating at 0-1-5, was promoted and wrote 0-2-6 to 0-2-150.
        BinlogServer promoted =
                BinlogServer.of(
                        true, new String[] {"2", "", "0-2-150", "0-1-5,0-2-150"}, "db:3306");
        BinlogPosition at = BinlogPosition.of("mysql-bin.000009", 4, 0, 0, "0-1-134", 1, "1");
        assertThatThrownBy(() -> promoted.resume(at))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining(
                        "lacks 0-1-134 (domain 0, sequence numbers 6 to 134; its binlog ends at"
                                + " 0-2-150)");
        // One that applied it goes on.
        BinlogServer caughtUp =
                BinlogServer.of(
                        true, new String[] {"2", "", "0-2-150", "0-1-134,0-2-150"}, "db:3306");
        assertThatCode(() -> caughtUp.resume(at)).doesNotThrowAnyException();
    }

    @Test
    void anotherServerWithoutAGtidSetIsRefusedNotGuessed() {
        BinlogServer other = mariaDb(2, "0-2-3");
        // The same file name exists on the other server: still another binlog.
        BinlogPosition at = BinlogPosition.of("mysql-bin.000001", 1234, 0, 0, "", 1, "1");
        assertThatThrownBy(() -> other.resume(at))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("in the binlog of server 1")
                .hasMessageContaining("is now server 2")
                .hasMessageContaining("has no GTID set")
                .hasMessageContaining("refuses to guess");
    }

    @Test
    void aMySqlServerIsItsUuidAndLacksWhatGtidSubtractSays() {
        BinlogServer promoted =
                BinlogServer.of(
                        false,
                        new String[] {"2", UUID_B, UUID_A + ":1-90", UUID_A + ":91-100"},
                        "db:3306");
        BinlogPosition at =
                BinlogPosition.of("binlog.000004", 4, 0, 0, UUID_A + ":1-100", 1, UUID_A);
        assertThat(promoted.identity()).isEqualTo(UUID_B);
        assertThatThrownBy(() -> promoted.resume(at))
                .isInstanceOf(SourceSetupException.class)
                .hasMessageContaining("lacks " + UUID_A + ":91-100")
                .hasMessageContaining("log_replica_updates=ON");
        BinlogServer caughtUp =
                BinlogServer.of(
                        false, new String[] {"2", UUID_B, UUID_A + ":1-100", ""}, "db:3306");
        assertThatCode(() -> caughtUp.resume(at)).doesNotThrowAnyException();
    }

    @Test
    void theMySqlQueryAsksForWhatTheServerLacksOfTheSet() {
        assertThat(BinlogServer.query(false, UUID_A + ":1-5"))
                .contains("GTID_SUBTRACT('" + UUID_A + ":1-5', @@gtid_executed)");
        assertThat(BinlogServer.query(true, "0-1-5")).contains("@@gtid_binlog_pos");
    }

    private static BinlogServer mariaDb(long serverId, String binlogPos) {
        return BinlogServer.of(
                true, new String[] {String.valueOf(serverId), "", binlogPos, ""}, "db:3306");
    }
}

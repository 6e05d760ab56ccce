package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BinlogPositionTest {

    @Test
    void comparesFilePositionEventsAndRows() {
        List<BinlogPosition> ordered =
                List.of(
                        BinlogPosition.of("mysql-bin.000009", 900, 5, 7, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 4, 0, 0, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 120, 0, 0, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 120, 0, 1, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 120, 0, 2, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 120, 1, 0, "", 1),
                        BinlogPosition.of("mysql-bin.000010", 121, 0, 0, "", 1));
        List<BinlogPosition> shuffled = new ArrayList<>(ordered);
        Collections.reverse(shuffled);
        Collections.sort(shuffled);
        assertThat(shuffled).containsExactlyElementsOf(ordered);
    }

    @Test
    void rowsInsideOneEventDifferWhereFlinkCdcSeesThemEqual() {
        String gtids = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5";
        BinlogPosition one = BinlogPosition.of("mysql-bin.000001", 400, 3, 10, gtids, 1);
        BinlogPosition two = BinlogPosition.of("mysql-bin.000001", 400, 3, 11, gtids, 1);
        assertThat(one).isLessThan(two);
        // Upstream FLINK-38531: with equal GTID sets the offset comparison leaves the rows out.
        assertThat(one.toBinlogOffset().compareTo(two.toBinlogOffset())).isZero();
    }

    @Test
    void roundTripsThroughFlinkCdcOffsets() {
        BinlogPosition mySql =
                BinlogPosition.of(
                        "mysql-bin.000003",
                        1234,
                        2,
                        17,
                        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5",
                        7);
        BinlogPosition mariaDb = BinlogPosition.of("mysql-bin.000004", 4, 0, 0, "0-1-9,1-2-3", 1);
        for (BinlogPosition position : List.of(mySql, mariaDb, BinlogPosition.at("f.000001", 4))) {
            BinlogOffset offset = position.toBinlogOffset();
            assertThat(BinlogPosition.fromBinlogOffset(offset)).isEqualTo(position);
            assertThat(offset.getFilename()).isEqualTo(position.file());
            assertThat(offset.getPosition()).isEqualTo(position.position());
            assertThat(offset.getRestartSkipEvents()).isEqualTo(position.events());
            assertThat(offset.getRestartSkipRows()).isEqualTo(position.rows());
            assertThat(offset.getServerId()).isEqualTo(position.serverId());
            assertThat(BinlogPosition.fromBinlogOffset(offset).countsAllEvents()).isFalse();
        }
        assertThat(mySql.toBinlogOffset().getGtidSet()).isEqualTo(mySql.gtids());
        assertThat(mariaDb.toBinlogOffset().getGtidSet()).isEqualTo("0-1-9,1-2-3");
    }

    @Test
    void keepsTheServerWhoseBinlogItIsInThroughFlinkCdcOffsets() {
        BinlogPosition mariaDb = BinlogPosition.of("mysql-bin.000004", 4, 2, 1, "0-1-9", 1, "2");
        BinlogOffset offset = mariaDb.toBinlogOffset();
        assertThat(BinlogPosition.fromBinlogOffset(offset)).isEqualTo(mariaDb);
        assertThat(BinlogPosition.fromBinlogOffset(offset).binlogServer()).isEqualTo("2");
        assertThat(mariaDb).isNotEqualTo(mariaDb.inBinlogOf("3"));
        assertThat(mariaDb.withCounts(0, 0).binlogServer()).isEqualTo("2");
        assertThat(BinlogPosition.at("f.000001", 4).binlogServer()).isEmpty();
    }

    @Test
    void readsAnOffsetFlinkCdcWroteWithItsEventCount() {
        Map<String, String> written = new HashMap<>();
        written.put("file", "mysql-bin.000002");
        written.put("pos", "5120");
        written.put("event", "4");
        written.put("row", "3");
        written.put("gtids", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77");
        written.put("server_id", "1");
        written.put("ts_sec", "1700000000");
        BinlogPosition position = BinlogPosition.fromBinlogOffset(new BinlogOffset(written));
        assertThat(position.file()).isEqualTo("mysql-bin.000002");
        assertThat(position.position()).isEqualTo(5120);
        assertThat(position.events()).isEqualTo(4);
        assertThat(position.rows()).isEqualTo(3);
        assertThat(position.gtids()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77");
        assertThat(position.serverId()).isEqualTo(1);
        assertThat(position.countsAllEvents()).as("Debezium counts every event").isTrue();
        assertThat(BinlogPosition.fromBinlogOffset(position.toBinlogOffset())).isEqualTo(position);
    }

    @Test
    void refusesOffsetsWithoutAFileAndNegativeCounts() {
        assertThatThrownBy(() -> BinlogPosition.fromBinlogOffset(BinlogOffset.ofLatest()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no binlog file");
        assertThatThrownBy(() -> BinlogPosition.of("f.000001", 4, -1, 0, "", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("events=-1");
    }

    @Test
    void gtidStateKeepsMySqlSetsAndMariaDbDomains() {
        GtidState mySql = new GtidState("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        mySql.begin("3e11fa47-71ca-11e1-9e33-c80aa9429562:6");
        assertThat(mySql.toString()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5");
        mySql.commit();
        assertThat(mySql.toString()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-6");

        GtidState mariaDb = new GtidState("0-1-5,1-2-3");
        mariaDb.begin("0-1-6");
        mariaDb.commit();
        mariaDb.begin("2-1-1");
        mariaDb.commit();
        assertThat(mariaDb.toString()).isEqualTo("0-1-6,1-2-3,2-1-1");
        mariaDb.reset("0-1-9");
        assertThat(mariaDb.toString()).isEqualTo("0-1-9");

        GtidState unknown = new GtidState("");
        unknown.begin("0-1-6");
        unknown.commit();
        assertThat(unknown.toString()).as("a partial state is no state").isEmpty();
    }

    @Test
    void mariaDbGtidsAsNumbersJoinTheStateAsTextWould() {
        GtidState mariaDb = new GtidState("0-1-5,1-2-3");
        mariaDb.beginMariaDb(0, 7, 6);
        assertThat(mariaDb.toString()).as("before the commit").isEqualTo("0-1-5,1-2-3");
        assertThat(mariaDb.current()).isEqualTo("0-7-6");
        mariaDb.commit();
        assertThat(mariaDb.current()).isEmpty();
        assertThat(mariaDb.toString()).isEqualTo("0-7-6,1-2-3");
        mariaDb.beginMariaDb(1, 2, 2);
        mariaDb.commit();
        assertThat(mariaDb.toString()).as("an older sequence stays out").isEqualTo("0-7-6,1-2-3");
        mariaDb.beginMariaDb(3, 1, 1);
        mariaDb.commit();
        assertThat(mariaDb.toString()).isEqualTo("0-7-6,1-2-3,3-1-1");

        GtidState unknown = new GtidState("");
        unknown.beginMariaDb(0, 1, 6);
        unknown.commit();
        assertThat(unknown.toString()).isEmpty();
    }

    @Test
    void aPositionInPartsIsTheTransactionsWithItsCounts() {
        BinlogPosition transaction = BinlogPosition.of("f.000002", 400, 0, 0, "0-1-5", 7);
        assertThat(transaction.withCounts(2, 3))
                .isEqualTo(BinlogPosition.of("f.000002", 400, 2, 3, "0-1-5", 7));
    }
}

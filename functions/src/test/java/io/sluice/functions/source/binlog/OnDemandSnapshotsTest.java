package io.sluice.functions.source.binlog;

import io.sluice.functions.source.NewTables;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On-demand snapshots with nothing asked for: every call of the reading thread reaches the reader's
 * output as it came, and no thread of the snapshots' own runs (a thread left waiting would keep the
 * job's class loader after a cancel).
 */
class OnDemandSnapshotsTest {

    private static final BinlogPosition AT =
            BinlogPosition.of("mysql-bin.000003", 1234, 0, 0, "", 1);

    @Test
    void nothingQueuedPassesEveryCallThroughAndStartsNoThread() {
        String threadName = "sluice-on-demand-snapshot-test-" + UUID.randomUUID();
        List<String> calls = new ArrayList<>();
        BinlogReader.Output output =
                new BinlogReader.Output() {
                    @Override
                    public void change(ChangeEvent change, BinlogPosition after) {
                        calls.add("change");
                    }

                    @Override
                    public void ddl(
                            String statement,
                            String database,
                            RowsEventOrigin origin,
                            BinlogPosition after) {
                        calls.add("ddl " + statement);
                    }

                    @Override
                    public void heartbeat(BinlogPosition at) {
                        calls.add("heartbeat " + at);
                    }

                    @Override
                    public void caughtUp() {
                        calls.add("caughtUp");
                    }

                    @Override
                    public void connectedTo(long serverId, String uuid, boolean moved) {
                        calls.add("connectedTo " + serverId + " " + uuid + " " + moved);
                    }
                };
        OnDemandSnapshots.Sink sink =
                new OnDemandSnapshots.Sink() {
                    @Override
                    public void snapshot(OnDemandSnapshots.Entry entry, BinlogPosition at) {
                        calls.add("snapshot entry");
                    }

                    @Override
                    public void fail(Throwable cause) {
                        calls.add("fail " + cause);
                    }
                };
        OnDemandSnapshots snapshots =
                new OnDemandSnapshots(
                        output,
                        sink,
                        null,
                        (database, table) -> true,
                        null,
                        ZoneId.of("UTC"),
                        100,
                        null,
                        NewTables.STREAM_ONLY,
                        OnDemandMetrics.unregistered(),
                        OnDemandState.EMPTY,
                        threadName);
        try {
            snapshots.connectedTo(7, "", false);
            snapshots.heartbeat(AT);
            snapshots.ddl("CREATE TABLE t (id INT PRIMARY KEY)", "shop", null, AT);
            snapshots.betweenTransactions("mysql-bin.000003", 1234, () -> AT);
            snapshots.caughtUp();

            assertThat(calls)
                    .containsExactly(
                            "connectedTo 7  false",
                            "heartbeat " + AT,
                            "ddl CREATE TABLE t (id INT PRIMARY KEY)",
                            "caughtUp");
            assertThat(Thread.getAllStackTraces().keySet())
                    .as("threads of the on-demand snapshots")
                    .noneMatch(thread -> thread.getName().equals(threadName));
            assertThat(snapshots.state()).isEqualTo(OnDemandState.EMPTY);
        } finally {
            snapshots.close();
        }
    }
}

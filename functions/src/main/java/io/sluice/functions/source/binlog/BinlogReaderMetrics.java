package io.sluice.functions.source.binlog;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.runtime.metrics.MetricNames;

/**
 * The reader metric Flink CDC's MySQL reader registers (3.5.0, {@code MySqlSourceReaderMetrics}),
 * under the same name and with the same meaning: {@code currentFetchEventTimeLag}, the time the
 * reading thread received the latest rows event minus its binlog event time, -1 before the first.
 * The source operator itself registers {@code currentEmitEventTimeLag} and {@code sourceIdleTime}
 * from the timestamps the reader emits with, the binlog event times, as with Flink CDC's reader.
 *
 * <p>Sluice's own, in the sub-group {@code sluice}: {@code statementLoggedChangesSkipped}, the DML
 * statements of captured tables that the binlog held as text and the reader passed over ({@code
 * source.statement-logged-changes} skip), whose rows are missing; {@code serverId} and {@code
 * serverUuid} (MySQL; "" on MariaDB), the server the binlog connection is on (0 and "" before the
 * first); {@code sourceHost}, the {@code host:port} it is connected to (with a list of hosts, the
 * one it chose; "" before the first); {@code failovers}, how often the reader moved to another
 * server and went on there by GTID; {@code reconnects}, how often it connected again after its
 * binlog connection was lost or refused (a steady count with no failover is a network or server
 * problem, or another replica with this reader's server id).
 */
final class BinlogReaderMetrics {

    /**
     * Flink CDC's value before the first row change ({@code MySqlSourceReaderMetrics.UNDEFINED}).
     */
    static final long UNDEFINED = -1L;

    /** The name of the count of skipped statements, in the sub-group {@code sluice}. */
    static final String SKIPPED_STATEMENTS = "statementLoggedChangesSkipped";

    /** The gauges of the server the reader is on and the count of failovers, in {@code sluice}. */
    static final String SERVER_ID = "serverId";

    static final String SERVER_UUID = "serverUuid";
    static final String FAILOVERS = "failovers";
    static final String RECONNECTS = "reconnects";
    static final String SOURCE_HOST = "sourceHost";

    private final Counter skippedStatements;
    private final Counter failovers;
    private final Counter reconnects;
    private boolean connected;
    private volatile long fetchDelay = UNDEFINED;
    private volatile long serverId;
    private volatile String serverUuid = "";
    private volatile String sourceHost = "";

    private BinlogReaderMetrics(Counter skippedStatements, Counter failovers, Counter reconnects) {
        this.skippedStatements = skippedStatements;
        this.failovers = failovers;
        this.reconnects = reconnects;
    }

    static BinlogReaderMetrics register(SourceReaderMetricGroup group) {
        MetricGroup sluice = group.addGroup("sluice");
        BinlogReaderMetrics metrics =
                new BinlogReaderMetrics(
                        sluice.counter(SKIPPED_STATEMENTS),
                        sluice.counter(FAILOVERS),
                        sluice.counter(RECONNECTS));
        group.gauge(
                MetricNames.CURRENT_FETCH_EVENT_TIME_LAG, (Gauge<Long>) () -> metrics.fetchDelay);
        sluice.gauge(SERVER_ID, (Gauge<Long>) () -> metrics.serverId);
        sluice.gauge(SERVER_UUID, (Gauge<String>) () -> metrics.serverUuid);
        sluice.gauge(SOURCE_HOST, (Gauge<String>) () -> metrics.sourceHost);
        return metrics;
    }

    /**
     * A binlog connection is on this server; {@code moved}: another one than before. Called on the
     * reading thread, once per connection.
     */
    void connectedTo(long serverId, String uuid, String address, boolean moved) {
        this.sourceHost = address;
        if (connected) {
            reconnects.inc();
        }
        connected = true;
        this.serverId = serverId;
        this.serverUuid = uuid;
        if (moved) {
            failovers.inc();
        }
    }

    /** A statement-logged change of a captured table was passed over (on the reading thread). */
    void skippedStatement() {
        skippedStatements.inc();
    }

    /**
     * A rows event with binlog event time {@code eventTime} (ms) has just been received; as in
     * Flink CDC's emitter, no time or a clock behind the server's records nothing.
     */
    void fetched(long eventTime) {
        if (eventTime > 0L) {
            long delay = System.currentTimeMillis() - eventTime;
            if (delay >= 0L) {
                fetchDelay = delay;
            }
        }
    }
}

package io.sluice.functions.source.binlog;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
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
 * source.statement-logged-changes} skip), whose rows are missing.
 */
final class BinlogReaderMetrics {

    /**
     * Flink CDC's value before the first row change ({@code MySqlSourceReaderMetrics.UNDEFINED}).
     */
    static final long UNDEFINED = -1L;

    /** The name of the count of skipped statements, in the sub-group {@code sluice}. */
    static final String SKIPPED_STATEMENTS = "statementLoggedChangesSkipped";

    private final Counter skippedStatements;
    private volatile long fetchDelay = UNDEFINED;

    private BinlogReaderMetrics(Counter skippedStatements) {
        this.skippedStatements = skippedStatements;
    }

    static BinlogReaderMetrics register(SourceReaderMetricGroup group) {
        BinlogReaderMetrics metrics =
                new BinlogReaderMetrics(group.addGroup("sluice").counter(SKIPPED_STATEMENTS));
        group.gauge(
                MetricNames.CURRENT_FETCH_EVENT_TIME_LAG, (Gauge<Long>) () -> metrics.fetchDelay);
        return metrics;
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

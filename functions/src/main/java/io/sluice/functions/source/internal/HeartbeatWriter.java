package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;

import io.sluice.functions.source.HeartbeatTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes the heartbeat table on a timer. The first write happens in {@link #start}, so a missing
 * grant fails the job at once with a clear error. Later failures (the database restarting, say) are
 * logged and counted in {@code heartbeatWriteErrors}, and the writer reconnects: the lag then
 * grows, which is the truth, and the source itself fails the job if the database stays away.
 */
@Internal
public final class HeartbeatWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatWriter.class);

    private final HeartbeatTable table;
    private final Counter writes;
    private final Counter errors;
    private final ScheduledExecutorService timer;
    private Connection connection;

    private HeartbeatWriter(HeartbeatTable table, Counter writes, Counter errors) {
        this.table = table;
        this.writes = writes;
        this.errors = errors;
        this.timer =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "sluice-heartbeat-writer");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /** Writes once now, then every {@link HeartbeatTable#interval()}. */
    public static HeartbeatWriter start(HeartbeatTable table, Counter writes, Counter errors) {
        HeartbeatWriter writer = new HeartbeatWriter(table, writes, errors);
        try {
            writer.connection = table.connect();
            table.write(writer.connection);
            writes.inc();
        } catch (SQLException e) {
            writer.close();
            throw table.failure("cannot be written", e);
        }
        long millis = table.interval().toMillis();
        writer.timer.scheduleWithFixedDelay(
                writer::writeOnce, millis, millis, TimeUnit.MILLISECONDS);
        return writer;
    }

    private void writeOnce() {
        try {
            if (connection == null) {
                connection = table.connect();
            }
            table.write(connection);
            writes.inc();
        } catch (SQLException e) {
            errors.inc();
            LOG.warn(
                    "Heartbeat write to '{}' failed; the lag metric grows until one succeeds",
                    table.qualifiedName(),
                    e);
            closeConnection();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnection();
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("Closing the heartbeat connection failed", e);
            }
            connection = null;
        }
    }
}

package io.sluice.it.pipeline;

import io.sluice.it.server.DatabaseServer;

import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Moves the server's binlog about every millisecond: one-row updates, each its own transaction, in
 * a database of its own that no job captures. Flink CDC backfills a snapshot chunk whenever the
 * binlog moved between the chunk's low and high watermark, whatever the write; reading a chunk of
 * 50 rows takes a few milliseconds, so without such a stream most chunks would need no backfill.
 */
final class BinlogNoise {

    private static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final DatabaseServer mariaDb;
    private final String database;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile long commits;

    private BinlogNoise(DatabaseServer mariaDb, String database) {
        this.mariaDb = mariaDb;
        this.database = database;
        this.thread = new Thread(this::run, "binlog-noise-" + database);
        thread.setDaemon(true);
    }

    /** Creates its database and starts writing. */
    static BinlogNoise start(DatabaseServer mariaDb) {
        String database = mariaDb.createDatabase("noise", null);
        mariaDb.execute(
                database,
                "CREATE TABLE ticks (id INT NOT NULL PRIMARY KEY, n BIGINT NOT NULL)",
                "INSERT INTO ticks VALUES (1, 0)");
        BinlogNoise noise = new BinlogNoise(mariaDb, database);
        noise.thread.start();
        return noise;
    }

    long commits() {
        return commits;
    }

    /** Stops writing; rethrows what made it fail, if anything did. */
    void stop() throws InterruptedException {
        running = false;
        thread.join();
        if (failure != null) {
            throw new IllegalStateException("The binlog noise in " + database + " failed", failure);
        }
    }

    private void run() {
        try (Connection connection = mariaDb.connect(database);
                Statement statement = connection.createStatement()) {
            while (running) {
                statement.executeUpdate("UPDATE ticks SET n = n + 1 WHERE id = 1");
                commits++;
                LockSupport.parkNanos(PAUSE_NANOS);
            }
        } catch (Throwable e) {
            failure = e;
        }
    }
}

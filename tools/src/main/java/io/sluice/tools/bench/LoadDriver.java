package io.sluice.tools.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes a workload at full speed over several connections (JDBC batches rewritten into multi-row
 * statements) until a row count or a deadline is reached.
 */
final class LoadDriver {

    private LoadDriver() {}

    /**
     * Runs {@code connections} writers until {@code targetRows} row changes are committed or {@code
     * maxMillis} pass, whichever comes first; returns the wall time taken in milliseconds.
     */
    static long run(
            String jdbcUrl,
            String user,
            String password,
            Workload workload,
            int connections,
            long targetRows,
            long maxMillis,
            LoadStats stats)
            throws Exception {
        String url = jdbcUrl + "&rewriteBatchedStatements=true";
        long start = System.currentTimeMillis();
        long deadline = start + maxMillis;
        AtomicInteger threadIds = new AtomicInteger();
        ExecutorService pool =
                Executors.newFixedThreadPool(
                        connections,
                        r -> {
                            Thread thread =
                                    new Thread(r, "bench-load-" + threadIds.getAndIncrement());
                            thread.setDaemon(true);
                            return thread;
                        });
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < connections; w++) {
                int worker = w;
                workers.add(
                        pool.submit(
                                () -> {
                                    write(
                                            url,
                                            user,
                                            password,
                                            workload,
                                            worker,
                                            connections,
                                            targetRows,
                                            deadline,
                                            stats);
                                    return null;
                                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return System.currentTimeMillis() - start;
    }

    private static void write(
            String url,
            String user,
            String password,
            Workload workload,
            int worker,
            int workers,
            long targetRows,
            long deadline,
            LoadStats stats)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password)) {
            connection.setAutoCommit(false);
            Workload.Writer writer =
                    workload.newWriter(connection, worker, workers, 42L + 7919L * worker);
            while (stats.rows.get() < targetRows && System.currentTimeMillis() < deadline) {
                writer.nextTransaction(stats);
            }
        }
    }
}

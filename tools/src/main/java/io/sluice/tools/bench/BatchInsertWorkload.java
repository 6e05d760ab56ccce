package io.sluice.tools.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.SplittableRandom;

/** batch-insert: one table, each transaction one large multi-row INSERT (a rewritten batch). */
final class BatchInsertWorkload implements Workload {

    static final Table EVENTS =
            new Table(
                    "events",
                    List.of(
                            new Column("id", "BIGINT NOT NULL", "BIGINT"),
                            new Column("kind", "VARCHAR(32) NOT NULL", "STRING"),
                            new Column("account", "BIGINT NOT NULL", "BIGINT"),
                            new Column("amount", "DECIMAL(12, 2) NOT NULL", "DECIMAL(12, 2)"),
                            new Column("payload", "VARCHAR(255)", "STRING"),
                            new Column("created_at", "DATETIME(3) NOT NULL", "TIMESTAMP(3)")));

    private static final String[] KINDS = {"click", "view", "purchase", "refund", "signup"};

    private final int batchRows;

    BatchInsertWorkload(int batchRows) {
        this.batchRows = batchRows;
    }

    @Override
    public String name() {
        return "batch-insert";
    }

    @Override
    public List<Table> tables() {
        return List.of(EVENTS);
    }

    @Override
    public Writer newWriter(Connection connection, int worker, int workers, long seed)
            throws SQLException {
        PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO events (id, kind, account, amount, payload, created_at)"
                                + " VALUES (?, ?, ?, ?, ?, ?)");
        SplittableRandom random = new SplittableRandom(seed);
        long[] sequence = {0};
        long[] ids = new long[batchRows];
        return stats -> {
            for (int i = 0; i < batchRows; i++) {
                long id = ++sequence[0] * workers + worker + 1;
                ids[i] = id;
                insert.setLong(1, id);
                insert.setString(2, KINDS[random.nextInt(KINDS.length)]);
                insert.setLong(3, random.nextInt(1_000_000));
                insert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(10_000_000), 2));
                insert.setString(
                        5, "session=" + random.nextLong() + "&path=/p/" + random.nextInt(10_000));
                insert.setTimestamp(6, new Timestamp(System.currentTimeMillis()));
                insert.addBatch();
            }
            insert.executeBatch();
            if (stats.tracksCommits()) {
                for (long id : ids) {
                    stats.insertCommitting("events", id);
                }
            }
            connection.commit();
            if (stats.tracksCommits()) {
                long now = System.currentTimeMillis();
                for (long id : ids) {
                    stats.insertCommitted("events", id, now);
                }
            }
            stats.committed(batchRows, 0);
        };
    }
}

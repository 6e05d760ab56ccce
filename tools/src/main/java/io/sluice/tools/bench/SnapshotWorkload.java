package io.sluice.tools.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.SplittableRandom;

/**
 * snapshot: the three tables of mixed-dml and batch-insert ({@code customers}, {@code orders},
 * {@code events}) filled with inserts only, each transaction a batch into the next table in turn;
 * the job then reads them with startup {@code initial}.
 */
final class SnapshotWorkload implements Workload {

    private static final String[] STATUSES = {"new", "paid", "shipped", "done", "cancelled"};
    private static final String[] KINDS = {"click", "view", "purchase", "refund", "signup"};

    private final int batchRows;

    SnapshotWorkload(int batchRows) {
        this.batchRows = batchRows;
    }

    @Override
    public String name() {
        return "snapshot";
    }

    @Override
    public List<Table> tables() {
        return List.of(
                MixedDmlWorkload.CUSTOMERS, MixedDmlWorkload.ORDERS, BatchInsertWorkload.EVENTS);
    }

    @Override
    public Writer newWriter(Connection connection, int worker, int workers, long seed)
            throws SQLException {
        PreparedStatement[] inserts = {
            connection.prepareStatement(
                    "INSERT INTO customers (id, name, email, balance, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?)"),
            connection.prepareStatement(
                    "INSERT INTO orders (id, customer_id, amount, status, note, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)"),
            connection.prepareStatement(
                    "INSERT INTO events (id, kind, account, amount, payload, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")
        };
        SplittableRandom random = new SplittableRandom(seed);
        long[] sequences = new long[inserts.length];
        int[] next = {0};
        return stats -> {
            int table = next[0]++ % inserts.length;
            PreparedStatement insert = inserts[table];
            Timestamp now = new Timestamp(System.currentTimeMillis());
            for (int i = 0; i < batchRows; i++) {
                long id = ++sequences[table] * workers + worker + 1;
                insert.setLong(1, id);
                switch (table) {
                    case 0:
                        insert.setString(2, "customer-" + id);
                        insert.setString(3, "c" + id + "@example.com");
                        insert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
                        insert.setTimestamp(5, now);
                        break;
                    case 1:
                        insert.setLong(2, random.nextInt(1_000_000));
                        insert.setBigDecimal(3, BigDecimal.valueOf(random.nextInt(100_000), 2));
                        insert.setString(4, STATUSES[random.nextInt(STATUSES.length)]);
                        insert.setString(5, random.nextInt(4) == 0 ? null : "note " + id);
                        insert.setTimestamp(6, now);
                        break;
                    default:
                        insert.setString(2, KINDS[random.nextInt(KINDS.length)]);
                        insert.setLong(3, random.nextInt(1_000_000));
                        insert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(10_000_000), 2));
                        insert.setString(
                                5,
                                "session=" + random.nextLong() + "&path=/p/" + random.nextInt(999));
                        insert.setTimestamp(6, now);
                }
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
            stats.committed(batchRows, 0);
        };
    }
}

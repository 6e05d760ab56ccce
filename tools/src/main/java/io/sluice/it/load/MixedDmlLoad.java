package io.sluice.it.load;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The mixed-DML workload of REFERENCE §6 over the tables of {@link #DDL_RESOURCE}: each transaction
 * is an INSERT of 1–10 rows, a one-row UPDATE, or a one-row DELETE of a random live row. It counts
 * the row changes it committed, so callers know how many to expect downstream.
 *
 * <p>Not thread-safe: one instance drives one connection.
 */
public final class MixedDmlLoad implements AutoCloseable {

    /** Creates the workload's tables. */
    public static final String DDL_RESOURCE = "ddl/mixed_dml.sql";

    private static final String[] STATUSES = {"new", "paid", "shipped", "done", "cancelled"};

    private final Connection connection;
    private final SplittableRandom random;
    private final List<Long> customerIds = new ArrayList<>();
    private final List<Long> orderIds = new ArrayList<>();
    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong rowChanges = new AtomicLong();

    /** Rows changed by the open transaction; counted once it commits. */
    private int pending;

    public MixedDmlLoad(String jdbcUrl, String user, String password, long seed)
            throws SQLException {
        this.connection = DriverManager.getConnection(jdbcUrl, user, password);
        this.connection.setAutoCommit(false);
        this.random = new SplittableRandom(seed);
    }

    /** Inserts {@code customers} customers and as many orders in one transaction. */
    public void seed(int customers) throws SQLException {
        for (int i = 0; i < customers; i++) {
            insertCustomer();
            insertOrder();
        }
        commit();
    }

    /** Runs one transaction of the mix. */
    public void nextTransaction() throws SQLException {
        int pick = random.nextInt(3);
        if (pick == 0 || customerIds.isEmpty()) {
            int rows = 1 + random.nextInt(10);
            boolean orders = random.nextBoolean() && !customerIds.isEmpty();
            for (int i = 0; i < rows; i++) {
                if (orders) {
                    insertOrder();
                } else {
                    insertCustomer();
                }
            }
        } else if (pick == 1) {
            update();
        } else {
            delete();
        }
        commit();
    }

    /** Transactions committed so far. */
    public long transactions() {
        return transactions.get();
    }

    /** Rows inserted, updated or deleted by committed transactions so far. */
    public long rowChanges() {
        return rowChanges.get();
    }

    private void insertCustomer() throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO customers (name, email, balance) VALUES (?, ?, ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            int n = random.nextInt(1_000_000);
            insert.setString(1, "customer-" + n);
            insert.setString(2, random.nextInt(10) == 0 ? null : "c" + n + "@example.com");
            insert.setBigDecimal(3, money(100_000));
            insert.executeUpdate();
            customerIds.add(generatedKey(insert));
        }
        pending++;
    }

    private void insertOrder() throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO orders (customer_id, amount, status, note, created_at)"
                                + " VALUES (?, ?, ?, ?, ?)",
                        Statement.RETURN_GENERATED_KEYS)) {
            insert.setLong(1, customerIds.get(random.nextInt(customerIds.size())));
            insert.setBigDecimal(2, money(10_000));
            insert.setString(3, STATUSES[random.nextInt(STATUSES.length)]);
            insert.setString(
                    4, random.nextInt(4) == 0 ? null : "deliver to door " + random.nextInt(99));
            insert.setTimestamp(5, new Timestamp(System.currentTimeMillis()));
            insert.executeUpdate();
            orderIds.add(generatedKey(insert));
        }
        pending++;
    }

    private void update() throws SQLException {
        boolean orders = random.nextBoolean() && !orderIds.isEmpty();
        long id = orders ? pickFrom(orderIds) : pickFrom(customerIds);
        String sql =
                orders
                        ? "UPDATE orders SET status = ?, amount = amount + 1 WHERE id = ?"
                        : "UPDATE customers SET email = ?, balance = balance + 1 WHERE id = ?";
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(
                    1,
                    orders
                            ? STATUSES[random.nextInt(STATUSES.length)]
                            : "u" + random.nextInt(1_000_000) + "@example.com");
            update.setLong(2, id);
            pending += update.executeUpdate();
        }
    }

    private void delete() throws SQLException {
        boolean orders = random.nextBoolean() && !orderIds.isEmpty();
        List<Long> ids = orders ? orderIds : customerIds;
        if (ids.size() <= 1) {
            update();
            return;
        }
        long id = ids.remove(random.nextInt(ids.size()));
        try (PreparedStatement delete =
                connection.prepareStatement(
                        "DELETE FROM " + (orders ? "orders" : "customers") + " WHERE id = ?")) {
            delete.setLong(1, id);
            pending += delete.executeUpdate();
        }
    }

    private void commit() throws SQLException {
        connection.commit();
        transactions.incrementAndGet();
        rowChanges.addAndGet(pending);
        pending = 0;
    }

    private long pickFrom(List<Long> ids) {
        return ids.get(random.nextInt(ids.size()));
    }

    private BigDecimal money(int maxUnits) {
        return BigDecimal.valueOf(random.nextInt(maxUnits * 100), 2);
    }

    private static long generatedKey(PreparedStatement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("INSERT returned no generated key");
            }
            return keys.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}

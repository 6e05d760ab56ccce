package io.sluice.tools.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * mixed-dml, the load of the benchmark and the demo: tables {@code customers} and {@code orders}; a
 * transaction is an INSERT of 1–10 rows (one JDBC batch), a one-row UPDATE or a one-row DELETE of a
 * random live row.
 */
public final class MixedDmlWorkload implements Workload {

    private static final String[] STATUSES = {"new", "paid", "shipped", "done", "cancelled"};

    static final Table CUSTOMERS =
            new Table(
                    "customers",
                    List.of(
                            new Column("id", "BIGINT NOT NULL", "BIGINT"),
                            new Column("name", "VARCHAR(64) NOT NULL", "STRING"),
                            new Column("email", "VARCHAR(128)", "STRING"),
                            new Column("balance", "DECIMAL(12, 2) NOT NULL", "DECIMAL(12, 2)"),
                            new Column(
                                    "updated_at",
                                    "TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)",
                                    "TIMESTAMP_LTZ(3)")));

    static final Table ORDERS =
            new Table(
                    "orders",
                    List.of(
                            new Column("id", "BIGINT NOT NULL", "BIGINT"),
                            new Column("customer_id", "BIGINT NOT NULL", "BIGINT"),
                            new Column("amount", "DECIMAL(10, 2) NOT NULL", "DECIMAL(10, 2)"),
                            new Column("status", "VARCHAR(16) NOT NULL", "STRING"),
                            new Column("note", "TEXT", "STRING"),
                            new Column("created_at", "DATETIME(3) NOT NULL", "TIMESTAMP(3)")));

    @Override
    public String name() {
        return "mixed-dml";
    }

    @Override
    public List<Table> tables() {
        return List.of(CUSTOMERS, ORDERS);
    }

    @Override
    public MixedWriter newWriter(Connection connection, int worker, int workers, long seed)
            throws SQLException {
        return new MixedWriter(connection, worker, workers, seed);
    }

    /** Runs the mix on one connection (auto-commit off), over its own slice of ids. */
    public static final class MixedWriter implements Writer {
        private final Connection connection;
        private final SplittableRandom random;
        private final int worker;
        private final int workers;
        private final List<Long> customers = new ArrayList<>();
        private final List<Long> orders = new ArrayList<>();
        private final long[] batchIds = new long[10];
        private final PreparedStatement insertCustomer;
        private final PreparedStatement insertOrder;
        private final PreparedStatement updateCustomer;
        private final PreparedStatement updateOrder;
        private final PreparedStatement deleteCustomer;
        private final PreparedStatement deleteOrder;
        private long sequence;

        MixedWriter(Connection connection, int worker, int workers, long seed) throws SQLException {
            this.connection = connection;
            this.random = new SplittableRandom(seed);
            this.worker = worker;
            this.workers = workers;
            insertCustomer =
                    connection.prepareStatement(
                            "INSERT INTO customers (id, name, email, balance) VALUES (?, ?, ?, ?)");
            insertOrder =
                    connection.prepareStatement(
                            "INSERT INTO orders (id, customer_id, amount, status, note,"
                                    + " created_at) VALUES (?, ?, ?, ?, ?, ?)");
            updateCustomer =
                    connection.prepareStatement(
                            "UPDATE customers SET email = ?, balance = balance + 1 WHERE id = ?");
            updateOrder =
                    connection.prepareStatement(
                            "UPDATE orders SET status = ?, amount = amount + 1 WHERE id = ?");
            deleteCustomer = connection.prepareStatement("DELETE FROM customers WHERE id = ?");
            deleteOrder = connection.prepareStatement("DELETE FROM orders WHERE id = ?");
        }

        @Override
        public void nextTransaction(LoadStats stats) throws SQLException {
            int pick = random.nextInt(3);
            if (pick == 0 || customers.size() < 2) {
                insert(stats);
            } else if (pick == 1) {
                update();
                connection.commit();
                stats.committed(1, 1);
            } else {
                delete();
                connection.commit();
                stats.committed(1, 0);
            }
        }

        /**
         * Inserts {@code rows} customers and as many orders in one transaction: the rows a snapshot
         * reads before the mix starts.
         */
        public void seed(int rows, LoadStats stats) throws SQLException {
            for (int i = 0; i < rows; i++) {
                customers.add(bindCustomer(nextId()));
                insertCustomer.addBatch();
            }
            insertCustomer.executeBatch();
            for (int i = 0; i < rows; i++) {
                orders.add(bindOrder(nextId()));
                insertOrder.addBatch();
            }
            insertOrder.executeBatch();
            connection.commit();
            stats.committed(2 * rows, 0);
        }

        private void insert(LoadStats stats) throws SQLException {
            int rows = 1 + random.nextInt(10);
            boolean toOrders = random.nextBoolean() && !customers.isEmpty();
            PreparedStatement insert = toOrders ? insertOrder : insertCustomer;
            for (int i = 0; i < rows; i++) {
                long id = nextId();
                batchIds[i] = toOrders ? bindOrder(id) : bindCustomer(id);
                insert.addBatch();
            }
            insert.executeBatch();
            String table = toOrders ? "orders" : "customers";
            if (stats.tracksCommits()) {
                for (int i = 0; i < rows; i++) {
                    stats.insertCommitting(table, batchIds[i]);
                }
            }
            connection.commit();
            long now = System.currentTimeMillis();
            List<Long> ids = toOrders ? orders : customers;
            for (int i = 0; i < rows; i++) {
                ids.add(batchIds[i]);
                if (stats.tracksCommits()) {
                    stats.insertCommitted(table, batchIds[i], now);
                }
            }
            stats.committed(rows, 0);
        }

        private long nextId() {
            return ++sequence * workers + worker + 1;
        }

        private long bindCustomer(long id) throws SQLException {
            int n = random.nextInt(1_000_000);
            insertCustomer.setLong(1, id);
            insertCustomer.setString(2, "customer-" + n);
            insertCustomer.setString(3, random.nextInt(10) == 0 ? null : "c" + n + "@example.com");
            insertCustomer.setBigDecimal(4, money(100_000));
            return id;
        }

        private long bindOrder(long id) throws SQLException {
            int n = random.nextInt(1_000_000);
            insertOrder.setLong(1, id);
            insertOrder.setLong(2, customers.get(random.nextInt(customers.size())));
            insertOrder.setBigDecimal(3, money(10_000));
            insertOrder.setString(4, STATUSES[random.nextInt(STATUSES.length)]);
            insertOrder.setString(5, random.nextInt(4) == 0 ? null : "deliver to door " + n);
            insertOrder.setTimestamp(6, new Timestamp(System.currentTimeMillis()));
            return id;
        }

        private void update() throws SQLException {
            boolean toOrders = random.nextBoolean() && !orders.isEmpty();
            if (toOrders) {
                updateOrder.setString(1, STATUSES[random.nextInt(STATUSES.length)]);
                updateOrder.setLong(2, pick(orders));
                updateOrder.executeUpdate();
            } else {
                updateCustomer.setString(1, "u" + random.nextInt(1_000_000) + "@example.com");
                updateCustomer.setLong(2, pick(customers));
                updateCustomer.executeUpdate();
            }
        }

        private void delete() throws SQLException {
            boolean toOrders = orders.size() > 1 && random.nextBoolean();
            if (toOrders) {
                deleteOrder.setLong(1, orders.remove(random.nextInt(orders.size())));
                deleteOrder.executeUpdate();
            } else {
                deleteCustomer.setLong(1, customers.remove(random.nextInt(customers.size())));
                deleteCustomer.executeUpdate();
            }
        }

        private long pick(List<Long> ids) {
            return ids.get(random.nextInt(ids.size()));
        }

        private BigDecimal money(int maxUnits) {
            return BigDecimal.valueOf(random.nextInt(maxUnits * 100), 2);
        }
    }
}

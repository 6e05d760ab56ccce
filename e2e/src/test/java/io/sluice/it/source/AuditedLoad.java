package io.sluice.it.source;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * A live load through one address (a proxy that may move to a new primary) on {@code items (id,
 * version, note)}, from one thread: each transaction inserts a row, updates one ({@code version +
 * 1}), deletes one, or moves one to a new primary key ({@code version + 1}). Every transaction also
 * writes what it did into {@code audit}, a table the job does not capture, so that the server's
 * {@code audit} is what was committed there, whatever a crash did to the transaction in flight
 * (whose outcome the writer cannot know): {@link #expected} reads it.
 *
 * <p>A lost connection (the primary killed, the address moved) is retried until the address answers
 * again; the writer then reads the rows back, as what it remembered may not have committed. {@link
 * #holdOpen} parks the writer inside an open transaction, so that a crash meets one.
 */
final class AuditedLoad implements AutoCloseable {

    static final String TABLES =
            "CREATE TABLE items (id INT PRIMARY KEY, version INT NOT NULL, note VARCHAR(40));"
                    + "CREATE TABLE audit (seq INT AUTO_INCREMENT PRIMARY KEY, op CHAR(6) NOT NULL,"
                    + " id INT NOT NULL, version INT NOT NULL)";

    private final String url;
    private final String user;
    private final String password;
    private final SplittableRandom random = new SplittableRandom(47);
    private final List<int[]> rows = new ArrayList<>(); // {id, version} of the live rows
    private int nextId = 1;

    private volatile boolean running = true;
    private volatile CountDownLatch hold;
    private volatile CountDownLatch held;
    private volatile long committed;
    private volatile Throwable failure;
    private final Thread thread;

    AuditedLoad(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
        thread = new Thread(this::run, "audited-load");
        thread.setDaemon(true);
        thread.start();
    }

    /** Transactions the writer saw commit. */
    long committed() {
        return committed;
    }

    /**
     * Parks the writer inside an open transaction that has changed a row; returns once it is there.
     * {@link #release()} lets it go on (its commit then meets whatever happened).
     */
    void holdOpen() throws InterruptedException {
        held = new CountDownLatch(1);
        hold = new CountDownLatch(1);
        held.await();
    }

    void release() {
        CountDownLatch parked = hold;
        hold = null;
        if (parked != null) {
            parked.countDown();
        }
    }

    private void run() {
        while (running) {
            try (Connection connection = DriverManager.getConnection(url, user, password)) {
                connection.setAutoCommit(false);
                reload(connection);
                while (running) {
                    transaction(connection);
                    committed++;
                    Thread.sleep(5);
                }
            } catch (SQLException e) {
                pause(); // the address has no server now, or a new one: again
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                failure = e;
                return;
            }
        }
    }

    /** The live rows as the server has them: what the writer remembered may not have committed. */
    private void reload(Connection connection) throws SQLException {
        rows.clear();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT id, version FROM items")) {
            while (result.next()) {
                rows.add(new int[] {result.getInt(1), result.getInt(2)});
                nextId = Math.max(nextId, result.getInt(1) + 1);
            }
        }
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT MAX(id) FROM audit")) {
            result.next();
            nextId = Math.max(nextId, result.getInt(1) + 1); // keys are never reused
        }
        connection.commit();
    }

    private void transaction(Connection connection) throws SQLException, InterruptedException {
        int choice = rows.size() < 5 ? 0 : random.nextInt(10);
        try {
            if (choice < 3) {
                int id = nextId++;
                write(connection, "INSERT INTO items VALUES (?, 0, 'n')", id);
                audit(connection, "INSERT", id, 0);
                parkIfAsked();
                connection.commit();
                rows.add(new int[] {id, 0});
            } else {
                int index = random.nextInt(rows.size());
                int[] row = rows.get(index);
                if (choice < 7) {
                    write(
                            connection,
                            "UPDATE items SET version = version + 1 WHERE id = ?",
                            row[0]);
                    audit(connection, "UPDATE", row[0], row[1] + 1);
                    parkIfAsked();
                    connection.commit();
                    row[1]++;
                } else if (choice < 8) {
                    write(connection, "DELETE FROM items WHERE id = ?", row[0]);
                    audit(connection, "DELETE", row[0], row[1]);
                    parkIfAsked();
                    connection.commit();
                    rows.remove(index);
                } else {
                    int id = nextId++;
                    try (PreparedStatement move =
                            connection.prepareStatement(
                                    "UPDATE items SET id = ?, version = version + 1 WHERE id = ?")) {
                        move.setInt(1, id);
                        move.setInt(2, row[0]);
                        move.executeUpdate();
                    }
                    // Sluice writes a key change as a DELETE of the old key, an INSERT of the new.
                    audit(connection, "DELETE", row[0], row[1]);
                    audit(connection, "INSERT", id, row[1] + 1);
                    parkIfAsked();
                    connection.commit();
                    row[0] = id;
                    row[1]++;
                }
            }
        } catch (SQLException e) {
            nextId++; // a key the failed transaction may have used stays unused
            throw e;
        }
    }

    private void parkIfAsked() throws InterruptedException {
        CountDownLatch parked = hold;
        if (parked != null) {
            held.countDown();
            parked.await();
        }
    }

    private static void write(Connection connection, String sql, int id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, id);
            statement.executeUpdate();
        }
    }

    private static void audit(Connection connection, String op, int id, int version)
            throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement(
                        "INSERT INTO audit (op, id, version) VALUES (?, ?, ?)")) {
            statement.setString(1, op);
            statement.setInt(2, id);
            statement.setInt(3, version);
            statement.executeUpdate();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every change committed on the server {@code connection} is on, in commit order, as {@code "OP
     * id version"}: what the job must deliver, each once.
     */
    static List<String> expected(Connection connection) throws SQLException {
        List<String> changes = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery("SELECT op, id, version FROM audit ORDER BY seq")) {
            while (result.next()) {
                changes.add(result.getString(1) + " " + result.getInt(2) + " " + result.getInt(3));
            }
        }
        return changes;
    }

    /** Stops the writer and rethrows what failed it. */
    @Override
    public void close() throws Exception {
        running = false;
        release();
        thread.interrupt();
        thread.join(30_000);
        if (failure != null) {
            throw new AssertionError("The load failed", failure);
        }
    }
}

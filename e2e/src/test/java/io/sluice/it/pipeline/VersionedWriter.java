package io.sluice.it.pipeline;

import io.sluice.it.server.DatabaseServer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * A light live load on tables of {@code (id, version, note)} rows, from one thread, that knows
 * every row's fate: each transaction (one or two statements) updates a row ({@code version + 1}),
 * inserts a new one (version 0), deletes one, or moves one to a new primary key ({@code version +
 * 1}; Sluice writes that as a DELETE of the old key and an INSERT of the new). Every row thus has
 * one life: it is born at some version, each change adds one, and it may die. New keys are never
 * reused, so a key's delivered history must be exactly that life (see {@link KeyHistories}).
 */
final class VersionedWriter {

    /** A row of one table. */
    record Key(String table, int id) {
        @Override
        public String toString() {
            return table + "/" + id;
        }
    }

    /** A row's life so far: its first version, its current one, and whether it was deleted. */
    static final class Fate {
        final int born;
        int version;
        String note;
        boolean deleted;

        Fate(int born, String note) {
            this.born = born;
            this.version = born;
            this.note = note;
        }

        Fate copy() {
            Fate copy = new Fate(born, note);
            copy.version = version;
            copy.deleted = deleted;
            return copy;
        }
    }

    private static final long PAUSE_MILLIS = 15;

    private final DatabaseServer mariaDb;
    private final String database;
    private final List<String> tables;
    private final int seedRows;
    private final KeyKind keys;
    private final SplittableRandom random;

    /** Every key that ever existed; written by the load's thread, read by the test's. */
    private final Map<Key, Fate> fates = new HashMap<>();

    private final Map<String, Integer> nextId = new HashMap<>();

    /** The row numbers the load may change or create; null for all. */
    private IntPredicate touched;

    /** With {@link #touched}: each table's row numbers it allows, created so far. */
    private final Map<String, List<Integer>> touchable = new HashMap<>();

    private volatile boolean running;
    private volatile Throwable failure;
    private Thread thread;
    private long transactions;

    VersionedWriter(
            DatabaseServer mariaDb, String database, List<String> tables, int seedRows, long seed) {
        this(mariaDb, database, tables, seedRows, seed, KeyKind.INT);
    }

    VersionedWriter(
            DatabaseServer mariaDb,
            String database,
            List<String> tables,
            int seedRows,
            long seed,
            KeyKind keys) {
        this.mariaDb = mariaDb;
        this.keys = keys;
        this.database = database;
        this.tables = List.copyOf(tables);
        this.seedRows = seedRows;
        this.random = new SplittableRandom(seed);
    }

    /** Creates the tables with ids 0 to seedRows - 1 at version 0. */
    void createAndSeed() {
        List<String> statements = new ArrayList<>();
        for (String table : tables) {
            statements.add(
                    "CREATE TABLE "
                            + table
                            + " (id "
                            + keys.sqlType
                            + " NOT NULL PRIMARY KEY, version INT NOT NULL,"
                            + " note VARCHAR(32) NOT NULL) DEFAULT CHARSET = utf8mb4");
            StringBuilder insert = new StringBuilder();
            for (int id = 0; id < seedRows; id++) {
                insert.append(insert.length() == 0 ? "INSERT INTO " + table + " VALUES " : ", ");
                insert.append("(").append(keys.literal(id)).append(", 0, 'seed')");
                fates.put(new Key(table, id), new Fate(0, "seed"));
                if (insert.length() > 8_000 || id == seedRows - 1) {
                    statements.add(insert.toString());
                    insert.setLength(0);
                }
            }
            nextId.put(table, seedRows);
        }
        mariaDb.execute(database, statements.toArray(String[]::new));
    }

    /** Before {@link #start}: the load changes and creates only the rows numbered {@code ids}. */
    void touchOnly(IntPredicate ids) {
        touched = ids;
        for (String table : tables) {
            List<Integer> allowed = new ArrayList<>();
            for (int id = 0; id < nextId.get(table); id++) {
                if (ids.test(id)) {
                    allowed.add(id);
                }
            }
            touchable.put(table, allowed);
        }
    }

    /** Starts writing, a transaction every 15 ms or so, until {@link #stop()}. */
    void start() {
        running = true;
        thread = new Thread(this::run, "versioned-writer-" + database);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops writing; rethrows what made the load fail, if anything did. */
    void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join();
        }
        if (failure != null) {
            throw new IllegalStateException("The live load on " + database + " failed", failure);
        }
    }

    /** The seed rows still alive under their seed key. */
    synchronized Set<Key> aliveSeedKeys() {
        Set<Key> alive = new HashSet<>();
        fates.forEach(
                (key, fate) -> {
                    if (key.id < seedRows && !fate.deleted) {
                        alive.add(key);
                    }
                });
        return alive;
    }

    /** Every key that ever existed and its fate, as of now. */
    synchronized Map<Key, Fate> fates() {
        Map<Key, Fate> copy = new HashMap<>();
        fates.forEach((key, fate) -> copy.put(key, fate.copy()));
        return copy;
    }

    synchronized long transactions() {
        return transactions;
    }

    private void run() {
        try (Connection connection = mariaDb.connect(database)) {
            connection.setAutoCommit(false);
            while (running) {
                transaction(connection);
                Thread.sleep(PAUSE_MILLIS);
            }
        } catch (Throwable e) {
            failure = e;
        }
    }

    /** One transaction; the fates change only once it committed. */
    private void transaction(Connection connection) throws SQLException {
        Map<Key, Fate> changed = new HashMap<>();
        int statements = 1 + random.nextInt(2);
        for (int i = 0; i < statements; i++) {
            String table = tables.get(random.nextInt(tables.size()));
            Key key = pickAlive(table, changed);
            int pick = random.nextInt(100);
            if (key == null || pick < 15) {
                Key fresh = new Key(table, freshId(table));
                execute(
                        connection,
                        "INSERT INTO " + table + " VALUES (?, 0, 'new')",
                        keys.value(fresh.id));
                changed.put(fresh, new Fate(0, "new"));
            } else if (pick < 21) {
                execute(connection, "DELETE FROM " + table + " WHERE id = ?", keys.value(key.id));
                current(key, changed).deleted = true;
            } else if (pick < 25) {
                Key moved = new Key(table, freshId(table));
                Fate from = current(key, changed);
                String note = "moved from " + key.id;
                execute(
                        connection,
                        "UPDATE "
                                + table
                                + " SET id = ?, version = version + 1, note = ? WHERE id = ?",
                        keys.value(moved.id),
                        note,
                        keys.value(key.id));
                from.deleted = true;
                changed.put(moved, new Fate(from.version + 1, note));
            } else {
                Fate fate = current(key, changed);
                String note = "v" + (fate.version + 1);
                execute(
                        connection,
                        "UPDATE " + table + " SET version = version + 1, note = ? WHERE id = ?",
                        note,
                        keys.value(key.id));
                fate.version++;
                fate.note = note;
            }
        }
        connection.commit();
        synchronized (this) {
            fates.putAll(changed);
            transactions++;
        }
    }

    /** A new row number of {@code table}, one the load may create. */
    private int freshId(String table) {
        int id = nextId.merge(table, 1, Integer::sum) - 1;
        while (touched != null && !touched.test(id)) {
            id = nextId.merge(table, 1, Integer::sum) - 1;
        }
        if (touched != null) {
            touchable.get(table).add(id);
        }
        return id;
    }

    /** A random live key of {@code table}, as this transaction sees it; null if none found. */
    private Key pickAlive(String table, Map<Key, Fate> changed) {
        int ids = nextId.get(table);
        for (int attempt = 0; attempt < 20; attempt++) {
            List<Integer> allowed = touchable.get(table);
            Key key =
                    new Key(
                            table,
                            allowed == null
                                    ? random.nextInt(ids)
                                    : allowed.get(random.nextInt(allowed.size())));
            Fate fate = changed.containsKey(key) ? changed.get(key) : fateOf(key);
            if (fate != null && !fate.deleted) {
                return key;
            }
        }
        return null;
    }

    private synchronized Fate fateOf(Key key) {
        return fates.get(key);
    }

    /** The transaction's working copy of {@code key}'s fate. */
    private Fate current(Key key, Map<Key, Fate> changed) {
        return changed.computeIfAbsent(key, k -> fateOf(k).copy());
    }

    private static void execute(Connection connection, String sql, Object... values)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            int rows = statement.executeUpdate();
            if (rows != 1) {
                throw new SQLException(sql + " changed " + rows + " rows, not 1");
            }
        }
    }
}

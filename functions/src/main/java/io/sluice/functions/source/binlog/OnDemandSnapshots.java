package io.sluice.functions.source.binlog;

import io.sluice.functions.source.NewTables;
import io.sluice.functions.source.internal.DdlClassifier;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * On-demand snapshots inside the binlog stream, by watermark windows (Netflix's DBLog, Debezium's
 * read-only incremental snapshot): the requested table is read in chunks of its primary key, each
 * chunk's SELECT on a thread and connection of its own while the binlog reader goes on. The window
 * of a chunk opens when it is asked for (the reader is then at or before the server's binlog end,
 * the low watermark) and closes at the binlog end read after the SELECT (the high watermark). When
 * the reader is between transactions at or past the high watermark, the chunk's rows are emitted
 * there, but those whose key a change given out inside the window touched (before or after image):
 * the binlog's change carries that row's newer state, and came first. So for every key the snapshot
 * row comes after the changes it already holds and before any it does not.
 *
 * <p>It wraps the reader's output ({@link BinlogReader.Output}); while a snapshot is queued every
 * call of the reading thread holds this object's lock, so that a chunk whose window the reader
 * passed while it waited for the server can be emitted from the query's thread, at the point where
 * the reader waits. While nothing is queued the calls pass straight through, and the query's thread
 * is started only with the first chunk asked for. Signals arrive as INSERTs into the signal table
 * ({@link SnapshotSignals}), in binlog order; their effect is part of the state emitted with the
 * next entry ({@link Entry}), so a checkpoint holds the queue, the key of the last row emitted and
 * the counts ({@link OnDemandState}) at the position of its last entry: a restore reads the next
 * chunk from there.
 *
 * <p>A DDL statement on the table inside a chunk's window discards the chunk, which is read again
 * with the new columns; a query that fails with no such statement in its window fails the reader.
 */
final class OnDemandSnapshots implements BinlogReader.Output, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OnDemandSnapshots.class);

    private static final int QUERY_ATTEMPTS = 3;

    /** A chunk's rows and the state after them, or a state change alone (no rows). */
    static final class Entry {
        final List<ChangeEvent> rows;
        final OnDemandState state;

        Entry(List<ChangeEvent> rows, OnDemandState state) {
            this.rows = rows;
            this.state = state;
        }
    }

    /** Where entries go, in the stream's order: the reader's handover. */
    interface Sink {
        void snapshot(Entry entry, BinlogPosition at);

        /** The snapshot failed where no reading-thread call can throw it. */
        void fail(Throwable cause);
    }

    /** A chunk asked for: its window, and its result once read. */
    private static final class Window {
        final SnapshotRequest request;
        final List<String> fromKey;
        final List<BinlogColumn> columns;
        final Set<String> changedKeys = new HashSet<>();
        boolean started;
        boolean ddlSeen;
        boolean cancelled;
        BinlogPosition high;
        SnapshotChunkQuery.Chunk chunk;
        Exception error;

        Window(SnapshotRequest request, List<String> fromKey, List<BinlogColumn> columns) {
            this.request = request;
            this.fromKey = fromKey;
            this.columns = columns;
        }

        boolean of(String database, String table) {
            return request.table().equals(table) && request.database().equals(database);
        }
    }

    private final BinlogReader.Output out;
    private final Sink sink;
    private final TableSchemas tables;
    private final BiPredicate<String, String> captured;
    private final SourceJdbc jdbc;
    private final ZoneId timestampZone;
    private final int chunkSize;
    @Nullable private final SnapshotSignals signals;
    private final NewTables newTables;
    private final OnDemandMetrics metrics;
    private final String threadName;

    /** The tables that appeared while the job ran and are left out ({@link NewTables#IGNORE}). */
    private final Set<String> ignored = new HashSet<>();

    /** Whether anything is queued: then every call of the reading thread holds the lock. */
    private volatile boolean active;

    // Guarded by this.
    private OnDemandState state;
    private final Map<String, List<BinlogColumn>> columns = new HashMap<>();
    private Window window;
    private BinlogPosition lastBoundary;
    private boolean sinceBoundary = true;
    private boolean closed;

    /** The chunk queries' thread, started with the first chunk asked for: none until then. */
    private Thread worker;

    /**
     * @param tables the reading thread's schemas, read on that thread only
     * @param captured whether a table is captured (a request for another one is refused)
     * @param restored the state of the checkpoint the reader resumes from
     */
    OnDemandSnapshots(
            BinlogReader.Output out,
            Sink sink,
            TableSchemas tables,
            BiPredicate<String, String> captured,
            SourceJdbc jdbc,
            ZoneId timestampZone,
            int chunkSize,
            @Nullable SnapshotSignals signals,
            NewTables newTables,
            OnDemandMetrics metrics,
            OnDemandState restored,
            String threadName) {
        this.out = out;
        this.sink = sink;
        this.tables = tables;
        this.captured = captured;
        this.jdbc = jdbc;
        this.timestampZone = timestampZone;
        this.chunkSize = chunkSize;
        this.signals = signals;
        this.newTables = newTables;
        this.metrics = metrics;
        this.state = restored;
        ignored.addAll(restored.ignored());
        for (SnapshotRequest request : restored.queue()) {
            columns.put(request.name(), tables.columns(request.database(), request.table()));
        }
        this.threadName = threadName;
        synchronized (this) {
            if (state.current() != null) {
                LOG.info("On-demand snapshot resumes: {}", state);
                active = true;
                dispatch();
            }
        }
    }

    /** The state as of the last entry given out; for tests and logs. */
    synchronized OnDemandState state() {
        return state;
    }

    @Override
    public void change(ChangeEvent change, BinlogPosition after) {
        if (signals != null && signals.isSignal(change)) {
            signal(change, after);
            return;
        }
        if (!active) {
            out.change(change, after);
            return;
        }
        synchronized (this) {
            out.change(change, after);
            touched(change);
        }
    }

    @Override
    public void change(ChangeEvent change, BinlogPosition transaction, long events, long rows) {
        if (signals != null && signals.isSignal(change)) {
            signal(change, transaction.withCounts(events, rows));
            return;
        }
        if (!active) {
            out.change(change, transaction, events, rows);
            return;
        }
        synchronized (this) {
            out.change(change, transaction, events, rows);
            touched(change);
        }
    }

    @Override
    public void ddl(
            String statement, String database, RowsEventOrigin origin, BinlogPosition after) {
        DdlClassifier.Statement classified = DdlClassifier.classify(statement, database);
        int ignoredBefore = ignored.size();
        List<SnapshotRequest> appeared = newTables(statement, database, classified);
        if (!active && appeared.isEmpty() && ignored.size() == ignoredBefore) {
            out.ddl(statement, database, origin, after);
            return;
        }
        synchronized (this) {
            out.ddl(statement, database, origin, after);
            sinceBoundary = true;
            String name = classified.database() + "." + classified.table();
            if (columns.containsKey(name)) {
                columns.put(name, tables.columns(classified.database(), classified.table()));
            }
            if (window != null && window.of(classified.database(), classified.table())) {
                window.ddlSeen = true;
            }
            if (!appeared.isEmpty() || ignored.size() > state.ignored().size()) {
                OnDemandState next = state;
                for (String table : ignored) {
                    if (!next.ignored().contains(table)) {
                        next = next.ignoring(table);
                    }
                }
                for (SnapshotRequest request : appeared) {
                    LOG.info(
                            "New table {} at {}: on-demand snapshot queued", request.name(), after);
                    next = queue(next, request);
                }
                update(next, after);
            }
        }
    }

    @Override
    public void heartbeat(BinlogPosition at) {
        if (!active) {
            out.heartbeat(at);
            return;
        }
        synchronized (this) {
            out.heartbeat(at);
        }
    }

    @Override
    public void skippedStatement(String statement, String database, RowsEventOrigin origin) {
        out.skippedStatement(statement, database, origin);
    }

    @Override
    public void connectedTo(long serverId, String uuid, boolean moved) {
        out.connectedTo(serverId, uuid, moved);
    }

    @Override
    public void caughtUp() {
        if (!active) {
            out.caughtUp();
            return;
        }
        synchronized (this) {
            out.caughtUp();
        }
    }

    @Override
    public void betweenTransactions(String file, long next, Supplier<BinlogPosition> position) {
        out.betweenTransactions(file, next, position);
        if (!active) {
            return;
        }
        synchronized (this) {
            sinceBoundary = false;
            Window current = window;
            if (current == null) {
                return;
            }
            if (current.high != null
                    && current.high.compareTo(BinlogPosition.at(file, next)) <= 0) {
                emit(current, position.get());
            } else {
                lastBoundary = position.get();
            }
        }
    }

    @Override
    public void close() {
        Thread started;
        synchronized (this) {
            closed = true;
            notifyAll();
            started = worker;
        }
        if (started != null) {
            started.interrupt();
        }
    }

    /** A change given out: its keys are the window's if it is of the window's table. */
    private void touched(ChangeEvent change) {
        sinceBoundary = true;
        Window current = window;
        if (current != null && current.of(change.database(), change.table())) {
            if (change.before() != null) {
                current.changedKeys.add(key(change.schema(), change.before()));
            }
            if (change.after() != null) {
                current.changedKeys.add(key(change.schema(), change.after()));
            }
        }
    }

    /** A row of the signal table: its signal taken, the row itself not emitted. */
    private void signal(ChangeEvent change, BinlogPosition after) {
        synchronized (this) {
            sinceBoundary = true;
            if (change.type() != ChangeType.INSERT) {
                return;
            }
            SnapshotSignals.Signal signal = signals.read(change);
            if (signal == null || state.seen(signal.id())) {
                return;
            }
            OnDemandState next;
            if (signal.isStop()) {
                List<SnapshotRequest> stopped = new ArrayList<>();
                for (SnapshotRequest queued : state.queue()) {
                    if (signal.tables().isEmpty() || signal.tables().contains(queued.name())) {
                        stopped.add(queued);
                    }
                }
                for (SnapshotRequest request : stopped) {
                    if (request.equals(state.current())) {
                        LOG.warn(
                                "On-demand snapshot of {} stopped by signal {} after {} chunks and"
                                        + " {} rows, at key {}",
                                request,
                                signal.id(),
                                state.chunks(),
                                state.rows(),
                                state.lastKey());
                        if (window != null) {
                            window.cancelled = true;
                        }
                    } else {
                        LOG.warn(
                                "On-demand snapshot of {} stopped by signal {} before it began",
                                request,
                                signal.id());
                    }
                }
                next = state.without(stopped, signal.id());
            } else {
                next = state.remembered(signal.id());
                for (String name : signal.tables()) {
                    int dot = name.indexOf('.');
                    String database = dot < 0 ? "" : name.substring(0, dot);
                    String table = name.substring(dot + 1);
                    if (dot < 0 || !captured.test(database, table)) {
                        LOG.warn(
                                "Signal {} asks for a snapshot of '{}', which is not a captured"
                                        + " table (database.table matching source.tables):"
                                        + " passed over",
                                signal.id(),
                                name);
                        continue;
                    }
                    SnapshotRequest request =
                            new SnapshotRequest(
                                    signal.id(), database, table, signal.condition(name));
                    LOG.info("On-demand snapshot queued at {}: {}", after, request);
                    next = queue(next, request);
                }
            }
            update(next, after);
        }
    }

    private OnDemandState queue(OnDemandState from, SnapshotRequest request) {
        columns.put(request.name(), tables.columns(request.database(), request.table()));
        return from.queued(request);
    }

    /** The new state, given out at {@code after}; the next chunk asked for if none is. */
    private void update(OnDemandState next, BinlogPosition after) {
        state = next;
        sink.snapshot(new Entry(List.of(), next), after);
        active = true;
        if (window != null && window.cancelled) {
            window = null;
        }
        dispatch();
        metrics.update(state);
    }

    /** The next chunk of the current request asked for, if none is; inactive once none is left. */
    private void dispatch() {
        if (window != null) {
            return;
        }
        SnapshotRequest current = state.current();
        if (current == null) {
            active = false;
            lastBoundary = null;
            return;
        }
        List<BinlogColumn> known = columns.get(current.name());
        if (known == null) {
            LOG.warn(
                    "On-demand snapshot of {}: the table is not known at this point of the"
                            + " binlog (dropped?), passed over",
                    current);
            state = state.next();
            dispatch();
            return;
        }
        window = new Window(current, state.lastKey(), known);
        if (worker == null && !closed) {
            worker = new Thread(this::work, threadName);
            worker.setDaemon(true);
            worker.start();
        }
        notifyAll();
    }

    /** Emits the window's chunk at {@code at}, where the reader is between transactions. */
    private void emit(Window done, BinlogPosition at) {
        window = null;
        lastBoundary = at;
        if (done.cancelled || closed) {
            dispatch();
            return;
        }
        if (done.ddlSeen) {
            LOG.info(
                    "On-demand snapshot of {}: the table changed while a chunk was read, read"
                            + " again with its new columns",
                    done.request);
            dispatch();
            return;
        }
        if (done.error != null) {
            throw new IllegalStateException(
                    String.format(
                            "The on-demand snapshot of %s failed to read the chunk after key %s"
                                    + " (%d chunks and %d rows emitted): %s",
                            done.request,
                            done.fromKey,
                            state.chunks(),
                            state.rows(),
                            done.error.getMessage()),
                    done.error);
        }
        List<ChangeEvent> rows = new ArrayList<>(done.chunk.rows.size());
        for (ChangeEvent row : done.chunk.rows) {
            if (done.changedKeys.isEmpty()
                    || !done.changedKeys.contains(key(row.schema(), row.after()))) {
                rows.add(row);
            }
        }
        OnDemandState next = state.chunkDone(done.chunk.lastKey, rows.size());
        metrics.chunk(next);
        if (done.chunk.last) {
            LOG.info(
                    "On-demand snapshot of {} done: {} chunks, {} rows",
                    done.request,
                    next.chunks(),
                    next.rows());
            next = next.next();
        }
        state = next;
        sink.snapshot(new Entry(rows, next), at);
        metrics.update(next);
        dispatch();
    }

    /** The chunk query's thread: reads each window's chunk, then emits it if the reader waits. */
    private void work() {
        Connection connection = null;
        try {
            while (true) {
                Window next;
                synchronized (this) {
                    while (!closed && (window == null || window.started)) {
                        wait();
                    }
                    if (closed) {
                        return;
                    }
                    next = window;
                    next.started = true;
                }
                SnapshotChunkQuery.Chunk chunk = null;
                Exception error = null;
                BinlogPosition high = null;
                for (int attempt = 1; attempt <= QUERY_ATTEMPTS && chunk == null; attempt++) {
                    try {
                        if (connection == null || !connection.isValid(5)) {
                            connection = connect(connection);
                        }
                        metrics.reading(next.request, connection, chunkSize);
                        chunk =
                                new SnapshotChunkQuery(
                                                next.request,
                                                next.columns,
                                                timestampZone,
                                                chunkSize,
                                                !next.fromKey.isEmpty())
                                        .read(connection, next.fromKey);
                        high = chunk.high;
                        error = null;
                    } catch (IllegalArgumentException e) {
                        error = e;
                        break;
                    } catch (SQLException e) {
                        error = e;
                        LOG.warn(
                                "On-demand snapshot of {}: the chunk query failed (attempt {} of"
                                        + " {}): {}",
                                next.request,
                                attempt,
                                QUERY_ATTEMPTS,
                                e.toString());
                        connection = close(connection);
                    }
                }
                if (chunk == null) {
                    try {
                        connection = connect(connection);
                        high = SnapshotChunkQuery.binlogEnd(connection);
                    } catch (SQLException e) {
                        sink.fail(
                                new IllegalStateException(
                                        "The on-demand snapshot of "
                                                + next.request
                                                + " cannot read the server's binlog end: "
                                                + e,
                                        error));
                        return;
                    }
                }
                synchronized (this) {
                    next.chunk = chunk;
                    next.error = error;
                    next.high = high;
                    // The reader waits between transactions past the high watermark: emitted
                    // here, where it waits; otherwise it emits at its next point between them.
                    if (window == next
                            && !sinceBoundary
                            && lastBoundary != null
                            && high.compareTo(lastBoundary) <= 0) {
                        try {
                            emit(next, lastBoundary);
                        } catch (RuntimeException e) {
                            sink.fail(e);
                            return;
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            sink.fail(e);
        } finally {
            close(connection);
        }
    }

    private Connection connect(Connection previous) throws SQLException {
        close(previous);
        Connection connection = jdbc.connect();
        try (java.sql.Statement statement = connection.createStatement()) {
            // TIMESTAMP values are read as seconds since the epoch: no zone in between.
            statement.execute("SET time_zone = '+00:00'");
        }
        return connection;
    }

    private static Connection close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("Closing the on-demand snapshot's connection", e);
            }
        }
        return null;
    }

    /**
     * The tables a DDL statement brings into what is captured, as requests when they are to be
     * snapshotted; with {@link NewTables#IGNORE} they are left out instead.
     */
    private List<SnapshotRequest> newTables(
            String sql, String database, DdlClassifier.Statement statement) {
        if (newTables == NewTables.STREAM_ONLY) {
            return List.of();
        }
        List<String[]> appeared = new ArrayList<>();
        if (statement.type() == ChangeType.CREATE && !statement.table().isEmpty()) {
            appeared.add(new String[] {statement.database(), statement.table()});
        }
        if (statement.type() == ChangeType.RENAME || statement.type() == ChangeType.ALTER) {
            for (DdlClassifier.Rename rename : DdlClassifier.renames(sql, database)) {
                if (!captured.test(rename.from().database(), rename.from().table())) {
                    appeared.add(new String[] {rename.to().database(), rename.to().table()});
                }
            }
        }
        List<SnapshotRequest> requests = new ArrayList<>();
        for (String[] table : appeared) {
            if (!captured.test(table[0], table[1])) {
                continue;
            }
            if (newTables == NewTables.IGNORE) {
                ignored.add(table[0] + "." + table[1]);
                LOG.info(
                        "New table {}.{} is not captured (new-tables: ignore)", table[0], table[1]);
            } else {
                requests.add(
                        new SnapshotRequest(
                                "new-table:" + table[0] + "." + table[1] + "@" + sql.hashCode(),
                                table[0],
                                table[1],
                                null));
            }
        }
        return requests;
    }

    /** Whether a table is left out as new ({@link NewTables#IGNORE}); on the reading thread. */
    boolean ignores(String database, String table) {
        return !ignored.isEmpty() && ignored.contains(database + "." + table);
    }

    /** A row's key as text: its key columns' values, as rendered, NUL-separated. */
    private static String key(TableSchema schema, RowImage row) {
        StringBuilder key = new StringBuilder();
        for (int k = 0; k < schema.keyColumnCount(); k++) {
            int column = schema.keyColumn(k);
            key.append(row.isNull(column) ? "\u0001" : row.text(column)).append('\u0000');
        }
        return key.toString();
    }
}

package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.SourceHosts;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.SourceServerCheck;
import io.sluice.functions.source.internal.SourceTls;
import io.sluice.serializers.event.ChangeEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Sluice's binlog reader: one binlog connection from a {@link BinlogPosition} on, each row change
 * as a {@link ChangeEvent} with the position to resume from so that exactly the following changes
 * come next, DDL statements as text, and heartbeats on an idle server.
 *
 * <p>It resumes inside a transaction exactly: it connects at the transaction's start (at its GTID
 * set when the position has one), skips the rows events the position says were read and then the
 * rows of the next one already emitted. A lost connection is resumed the same way from the last
 * position it gave out, not from the binlog client's own position (which would start inside the
 * transaction, after table maps it then lacks), at most {@code reconnectAttempts} times in a row.
 * The client's keep-alive thread reconnects from its own position, so it is off; a connection that
 * is silent for {@code readTimeout} (the server sends a heartbeat every {@code heartbeatInterval}
 * when idle) counts as lost.
 *
 * <p>Each DDL statement goes to the {@link TableDecoders} ({@link TableDecoders#applyDdl}) before
 * the table maps after it, so with {@link TableSchemas} the rows after an ALTER TABLE are read with
 * its columns. A checkpoint of the reader is the position after the last change it gave out and
 * {@link TableSchemas#snapshot()} as of the last DDL statement before it (taken in {@link
 * Output#ddl}, on the reading thread); {@link TableSchemas#restore} and that position go on from
 * there.
 *
 * <p>{@link #run} reads on the calling thread until {@link #close}; every callback runs on it.
 */
public final class BinlogReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogReader.class);

    /** What the reader gives out, in binlog order, on the reading thread. */
    public interface Output {

        /**
         * A row change.
         *
         * @param after the position to resume from so that exactly the changes after it come next
         */
        void change(ChangeEvent change, BinlogPosition after);

        /**
         * The same, with the position after the change in parts, so that none is built per row:
         * {@code transaction} (its events and rows 0) with {@code events} rows events read and
         * {@code rows} rows of the next emitted ({@code rows} 0: the change ended its rows event).
         * By default the call above with that position.
         */
        default void change(
                ChangeEvent change, BinlogPosition transaction, long events, long rows) {
            change(change, transaction.withCounts(events, rows));
        }

        /** A statement that is not a row change (DDL), with its default database and after it. */
        default void ddl(String statement, String database, BinlogPosition after) {}

        /**
         * The same, with where the statement is and when it ran ({@code origin}); by default the
         * call above. The reader's {@link TableDecoders} has applied the statement already.
         */
        default void ddl(
                String statement, String database, RowsEventOrigin origin, BinlogPosition after) {
            ddl(statement, database, after);
        }

        /**
         * A DML statement of a captured table that the binlog holds as text, passed over ({@link
         * Builder#statementLoggedChanges} skip): its rows are missing.
         */
        default void skippedStatement(String statement, String database, RowsEventOrigin origin) {}

        /** The server's heartbeat on an idle connection: the reader is at {@code at}. */
        default void heartbeat(BinlogPosition at) {}

        /**
         * The reader is between transactions, before the event at {@code next} of {@code file}:
         * every change before that point was given out, none after it. {@code position} builds the
         * position to resume from there (only when asked: it costs a GTID set's text).
         */
        default void betweenTransactions(
                String file, long next, Supplier<BinlogPosition> position) {}

        /**
         * A binlog connection is on the server with {@code serverId} and (MySQL) {@code uuid}, ""
         * on MariaDB; {@code moved}: another server than the one before (a failover), which had
         * every GTID the reader had read.
         */
        default void connectedTo(long serverId, String uuid, boolean moved) {}

        /** The same, with the {@code host:port} the connection went to; by default the above. */
        default void connectedTo(long serverId, String uuid, String address, boolean moved) {
            connectedTo(serverId, uuid, moved);
        }

        /**
         * The reader has read every byte the server sent so far and is about to wait for more: what
         * was given out before has no successor yet, so an output that holds entries back to pass
         * them on together passes them on now (and need not before).
         */
        default void caughtUp() {}
    }

    private final long clientServerId;
    private final Duration heartbeatInterval;
    private final Duration readTimeout;
    private final int reconnectAttempts;
    private final Duration reconnectBackoff;
    private final boolean includeQueries;
    private final StatementLoggedChanges statementLoggedChanges;
    private final String statementLoggedChangesKey;
    private final TableDecoders decoders;
    private final Output out;

    /** The hosts to read, in the order they are tried ({@link SourceJdbc#chosen()}). */
    private final SourceJdbc source;

    private final SourceTls tls;

    /** The host the reader connects to now, alone: the one {@code source} chose last. */
    private volatile SourceJdbc jdbc;

    private volatile boolean closed;
    private volatile BinaryLogClient client;

    /** The server of the last binlog connection ({@link BinlogServer#identity()}); null before. */
    private String connectedServer;

    private BinlogReader(Builder builder, TableDecoders decoders, Output out) {
        this.clientServerId = builder.serverId;
        this.heartbeatInterval = builder.heartbeatInterval;
        this.readTimeout =
                builder.readTimeout != null
                        ? builder.readTimeout
                        : heartbeatInterval.multipliedBy(3);
        this.reconnectAttempts = builder.reconnectAttempts;
        this.reconnectBackoff = builder.reconnectBackoff;
        this.includeQueries = builder.includeQueries;
        this.statementLoggedChanges = builder.statementLoggedChanges;
        this.statementLoggedChangesKey = builder.statementLoggedChangesKey;
        this.decoders = Objects.requireNonNull(decoders, "decoders");
        this.out = Objects.requireNonNull(out, "out");
        this.tls = builder.tls;
        this.source =
                SourceJdbc.of(
                        builder.hosts != null
                                ? builder.hosts
                                : SourceHosts.single(builder.host, builder.port),
                        builder.user,
                        builder.password,
                        tls);
        this.jdbc = source;
    }

    public static Builder builder(String host, int port, String user, String password) {
        return new Builder(host, port, user, password);
    }

    /**
     * A reader of the hosts of {@code source}, as its user and with its TLS: with a list, each
     * (re)connect goes to the host {@link SourceJdbc#chosen()} names then (the first writable, or
     * with allow-replica the first that answers), and the checks of {@link BinlogServer} judge
     * whether the reader may go on there.
     */
    public static Builder builder(SourceJdbc source) {
        Builder builder =
                new Builder(source.host(), source.port(), source.user(), source.password());
        builder.hosts = source.hosts();
        return builder.tls(source.tls());
    }

    /**
     * Reads from {@code start} until {@link #close()}.
     *
     * @throws SourceSetupException if the server cannot be read from {@code start} (binlog format,
     *     row image, purged file; the message names each), or the binlog holds a change of a
     *     captured table as a statement ({@link Builder#statementLoggedChanges}), or the server is
     *     another than the one {@code start} (or a later position) was read from and lacks some of
     *     its GTIDs, or it has none ({@link BinlogServer#resume})
     * @throws BinlogReaderException if the connection is lost and cannot be resumed, or an event
     *     cannot be read (the message says where)
     */
    public void run(BinlogPosition start) {
        try {
            jdbc = source.chosen();
        } catch (SQLException e) {
            // None of the list may be read now: may change (a promotion), a restart may help.
            throw new BinlogReaderException(
                    String.format(
                            "The binlog reader cannot start at %s: %s", start, e.getMessage()),
                    e);
        }
        boolean moved = startServer(start).isOtherThan(start);
        SourceServerCheck.forBinlogReader(
                        jdbc,
                        start.file().isEmpty() || moved ? null : start.file(),
                        "The binlog reader's start position " + start)
                .run(true);
        boolean mariaDb = ColumnTypeStyle.of(jdbc) == ColumnTypeStyle.MARIADB;
        if (start.file().isEmpty()) {
            checkGtidStart(start, mariaDb);
        }
        String startGtids =
                start.gtids().isEmpty() && mariaDb ? mariaDbGtidsAt(start) : start.gtids();
        Tracking tracking = new Tracking(start);
        int failures = 0;
        while (!closed) {
            BinlogPosition resume = tracking.last();
            BinlogEvents events =
                    new BinlogEvents(
                            resume,
                            resume == start ? startGtids : resume.gtids(),
                            decoders,
                            tracking,
                            new StatementLoggedRows(
                                    statementLoggedChanges,
                                    statementLoggedChangesKey,
                                    decoders,
                                    tracking));
            Ended connection = connect(resume, mariaDb, events, tracking);
            if (closed) {
                return;
            }
            if (connection.failure != null) {
                throw connection.failure;
            }
            failures = tracking.progressed ? 1 : failures + 1;
            tracking.progressed = false;
            if (failures > reconnectAttempts) {
                throw new BinlogReaderException(
                        String.format(
                                "Lost the binlog connection to %s and could not resume at %s"
                                        + " in %d attempts (reconnectAttempts): %s%s",
                                jdbc.address(),
                                tracking.last(),
                                reconnectAttempts,
                                connection.lost,
                                sameServerIdHint(connection.lost)),
                        connection.lost);
            }
            LOG.warn(
                    "The binlog connection to {} was lost ({}); resuming at {} (attempt {} of"
                            + " {}){}",
                    jdbc.address(),
                    connection.lost == null ? "closed by the server" : connection.lost.toString(),
                    tracking.last(),
                    failures,
                    reconnectAttempts,
                    sameServerIdHint(connection.lost));
            tracking.caughtUp(); // What was given out is all there is until the reconnect.
            sleep(reconnectBackoff.multipliedBy(failures));
        }
    }

    /**
     * What to do when the server dropped or refused the connection because another replica uses
     * this reader's id (it keeps one binlog connection per replica id).
     */
    private String sameServerIdHint(Exception lost) {
        if (lost == null
                || lost.getMessage() == null
                || !lost.getMessage().contains("same server_uuid/server_id")) {
            return "";
        }
        return String.format(
                ". Another replica of the server uses this reader's server id %d: give each job"
                        + " reading the server its own 'source.server-id' range, or leave it unset"
                        + " (each job then draws a range of its own)",
                clientServerId);
    }

    /**
     * The server at the address now, checked against {@code start} before anything else reads it:
     * on another server a file of the start's name is another binlog, so neither its presence nor
     * its GTID position may be asked for there.
     */
    private BinlogServer startServer(BinlogPosition start) {
        try (java.sql.Connection connection = jdbc.connect();
                java.sql.Statement statement = connection.createStatement()) {
            boolean mariaDb;
            try (ResultSet version = statement.executeQuery("SELECT VERSION()")) {
                version.next();
                mariaDb =
                        version.getString(1).toLowerCase(java.util.Locale.ROOT).contains("mariadb");
            }
            String[] row = new String[4];
            try (ResultSet result =
                    statement.executeQuery(BinlogServer.query(mariaDb, start.gtids()))) {
                result.next();
                for (int i = 0; i < row.length; i++) {
                    row[i] = result.getString(i + 1);
                }
            }
            BinlogServer server = BinlogServer.of(mariaDb, row, jdbc.address());
            if (server.isOtherThan(start)) {
                server.resume(start);
                LOG.warn(
                        "The binlog reader starts at {}, read from server {}, on another server:"
                                + " {}; it goes on by the GTID set, which that server has",
                        start,
                        start.binlogServer(),
                        server);
            }
            return server;
        } catch (SQLException e) {
            // Unreachable now: may come back, a restart may help; SourceServerCheck says more.
            LOG.debug("Cannot read who the server at {} is", jdbc.address(), e);
            return BinlogServer.unknown();
        }
    }

    /** The server's id of the binlog connection now open (for KILL), 0 when none. */
    public long connectionId() {
        BinaryLogClient current = client;
        return current == null ? 0 : current.getConnectionId();
    }

    @Override
    public void close() {
        closed = true;
        BinaryLogClient current = client;
        if (current != null) {
            try {
                current.disconnect();
            } catch (IOException e) {
                LOG.debug("Closing the binlog connection", e);
            }
        }
    }

    /** How one connection ended: lost (with the cause, if any) or failed in the reader. */
    private static final class Ended {
        Exception lost;
        RuntimeException failure;
    }

    private Ended connect(
            BinlogPosition resume, boolean mariaDb, BinlogEvents events, Tracking tracking) {
        Ended ended = new Ended();
        SourceJdbc at;
        try {
            at = source.chosen();
        } catch (SQLException e) {
            ended.lost = e; // no host of the list may be read now: retried as a lost connection
            return ended;
        }
        if (!at.address().equals(jdbc.address())) {
            LOG.warn(
                    "The binlog reader connects to {}, the first host of {} it may read now,"
                            + " instead of {}",
                    at.address(),
                    source.address(),
                    jdbc.address());
        }
        jdbc = at;
        String address = at.address();
        ReaderClient binlog =
                new ReaderClient(
                        at.host(),
                        at.port(),
                        at.user(),
                        at.password(),
                        mariaDb ? resume.gtids() : "",
                        BinlogServer.query(mariaDb, resume.gtids()),
                        row ->
                                onServer(
                                        BinlogServer.of(mariaDb, row, address),
                                        address,
                                        resume,
                                        events));
        binlog.setServerId(clientServerId);
        tls.configure(binlog);
        binlog.setKeepAlive(false);
        binlog.setHeartbeatInterval(heartbeatInterval.toMillis());
        binlog.setEventDeserializer(
                StatementTexts.install(RowsEventDecoder.eventDeserializer(), includeQueries));
        long timeout = readTimeout.toMillis();
        binlog.setSocketFactory(
                () -> {
                    Socket socket = new CaughtUpSocket(tracking);
                    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout));
                    return socket;
                });
        binlog.setBinlogFilename(resume.file());
        binlog.setBinlogPosition(resume.position());
        if (!resume.gtids().isEmpty() && !mariaDb) {
            binlog.setGtidSet(resume.gtids());
        }
        binlog.registerEventListener(
                (Event event) -> {
                    if (ended.failure != null) {
                        return;
                    }
                    try {
                        events.onEvent(event);
                    } catch (SourceSetupException e) {
                        ended.failure = e; // says where itself; fails the job, not a restart
                        disconnect(binlog);
                    } catch (RuntimeException e) {
                        ended.failure =
                                new BinlogReaderException(
                                        String.format(
                                                "Cannot read the binlog event %s after %s: %s",
                                                event.getHeader(), tracking.last(), e.getMessage()),
                                        e);
                        disconnect(binlog);
                    }
                });
        binlog.registerLifecycleListener(
                new BinaryLogClient.AbstractLifecycleListener() {
                    @Override
                    public void onCommunicationFailure(BinaryLogClient c, Exception e) {
                        ended.lost = e;
                    }

                    @Override
                    public void onEventDeserializationFailure(BinaryLogClient c, Exception e) {
                        ended.failure =
                                new BinlogReaderException(
                                        String.format(
                                                "Cannot parse a binlog event after %s: %s",
                                                tracking.last(), e.getMessage()),
                                        e);
                        disconnect(c);
                    }
                });
        client = binlog;
        if (closed) {
            return ended;
        }
        try {
            binlog.connect(); // Returns when the connection ends.
        } catch (IOException | RuntimeException e) {
            ended.lost = e;
        }
        RuntimeException refusal = binlog.refusal();
        if (refusal instanceof SourceSetupException) {
            ended.failure = refusal; // the server lacks what was published: fails the job
        } else if (refusal != null) {
            ended.lost = refusal;
        }
        return ended;
    }

    /**
     * The binlog connection is on {@code server}, before the binlog is asked for: the reader goes
     * on at {@code resume} there if that is the server it was read from, or if the server has its
     * GTIDs ({@link BinlogServer#resume}, which throws otherwise); then says where it is.
     */
    private void onServer(
            BinlogServer server, String address, BinlogPosition resume, BinlogEvents events) {
        server.resume(resume);
        String identity = server.identity();
        String before = connectedServer != null ? connectedServer : resume.binlogServer();
        boolean moved = !before.isEmpty() && !before.equals(identity);
        if (moved) {
            LOG.warn(
                    "The binlog reader moved from server {} to {}: a failover; it goes on after"
                            + " the GTIDs {}, which that server has ({} rows events and {} rows of"
                            + " that transaction already read)",
                    before,
                    server,
                    resume.gtids(),
                    resume.events(),
                    resume.rows());
        }
        connectedServer = identity;
        events.readingFrom(identity);
        out.connectedTo(server.serverId(), server.uuid(), address, moved);
    }

    private static void disconnect(BinaryLogClient binlog) {
        try {
            binlog.disconnect();
        } catch (IOException e) {
            LOG.debug("Closing the binlog connection", e);
        }
    }

    /**
     * A start at a GTID set alone: the server starts after it (MariaDB at the first event group not
     * in it, {@code @slave_connect_state}; MySQL at the first transaction not in it, {@code
     * COM_BINLOG_DUMP_GTID}) and its first rotate event names the file.
     */
    private void checkGtidStart(BinlogPosition start, boolean mariaDb) {
        boolean mariaDbSyntax = GtidState.isMariaDb(start.gtids());
        if (mariaDbSyntax != mariaDb) {
            throw new IllegalArgumentException(
                    String.format(
                            "The binlog reader's start GTID set '%s' is %s, but the server at"
                                    + " %s is %s; it takes %s",
                            start.gtids(),
                            mariaDbSyntax ? "MariaDB's (domain-server-sequence)" : "not MariaDB's",
                            jdbc.address(),
                            mariaDb ? "MariaDB" : "MySQL",
                            mariaDb
                                    ? "its GTID position, e.g. @@gtid_binlog_pos: 0-1-42,1-2-7"
                                    : "a GTID set, e.g. @@gtid_executed: uuid:1-42"));
        }
    }

    /**
     * MariaDB's GTID state at a position that has none ({@code BINLOG_GTID_POS}); MySQL's is read
     * from the binlog at the next file's start.
     */
    private String mariaDbGtidsAt(BinlogPosition start) {
        try (java.sql.Connection connection = jdbc.connect();
                PreparedStatement query =
                        connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            query.setString(1, start.file());
            query.setLong(2, start.position());
            try (ResultSet result = query.executeQuery()) {
                result.next();
                String gtids = result.getString(1);
                return gtids == null ? "" : gtids;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the GTID position of %s from %s: %s",
                            start, jdbc.address(), e.getMessage()),
                    e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BinlogReaderException("Interrupted while reconnecting to the binlog", e);
        }
    }

    /**
     * A socket that tells {@code out} it {@link Output#caughtUp() caught up} before each read that
     * would wait: the client reads the socket only when its own buffer is empty, so with no bytes
     * pending in the socket either, every event received has been given out.
     */
    private static final class CaughtUpSocket extends Socket {
        private final Output out;
        private InputStream in;

        CaughtUpSocket(Output out) {
            this.out = out;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in =
                        new FilterInputStream(super.getInputStream()) {
                            @Override
                            public int read() throws IOException {
                                caughtUp(this);
                                return super.read();
                            }

                            @Override
                            public int read(byte[] bytes, int offset, int length)
                                    throws IOException {
                                caughtUp(this);
                                return super.read(bytes, offset, length);
                            }
                        };
            }
            return in;
        }

        private void caughtUp(InputStream in) throws IOException {
            if (in.available() == 0) {
                out.caughtUp();
            }
        }
    }

    /**
     * Passes everything on and keeps the last position given out, where a reconnect resumes; a
     * change's in parts, built when asked ({@link #last()}).
     */
    private final class Tracking implements Output {
        private BinlogPosition last;
        private BinlogPosition transaction;
        private long events;
        private long rows;
        boolean progressed;

        Tracking(BinlogPosition start) {
            this.last = start;
        }

        BinlogPosition last() {
            if (transaction != null) {
                last = transaction.withCounts(events, rows);
                transaction = null;
            }
            return last;
        }

        @Override
        public void change(ChangeEvent change, BinlogPosition after) {
            out.change(change, after);
            moved(after);
        }

        @Override
        public void change(ChangeEvent change, BinlogPosition transaction, long events, long rows) {
            out.change(change, transaction, events, rows);
            // A change always moves on: the rows after it are fewer.
            this.transaction = transaction;
            this.events = events;
            this.rows = rows;
            progressed = true;
        }

        @Override
        public void ddl(
                String statement, String database, RowsEventOrigin origin, BinlogPosition after) {
            out.ddl(statement, database, origin, after);
            moved(after);
        }

        /**
         * A heartbeat is progress only past the last position given out: the heartbeat MySQL sends
         * at each resume at a GTID set, before the first event, is not.
         */
        @Override
        public void heartbeat(BinlogPosition at) {
            out.heartbeat(at);
            BinlogPosition last = last();
            // Files of two servers do not compare: a position on the server now is progress.
            boolean otherServer = !at.binlogServer().equals(last.binlogServer());
            if (!at.equals(last) && (otherServer || at.compareTo(last) > 0)) {
                last = at;
                progressed = true;
            }
        }

        @Override
        public void skippedStatement(String statement, String database, RowsEventOrigin origin) {
            out.skippedStatement(statement, database, origin);
        }

        @Override
        public void caughtUp() {
            out.caughtUp();
        }

        @Override
        public void betweenTransactions(String file, long next, Supplier<BinlogPosition> position) {
            out.betweenTransactions(file, next, position);
        }

        @Override
        public void connectedTo(long serverId, String uuid, String address, boolean moved) {
            out.connectedTo(serverId, uuid, address, moved);
        }

        private void moved(BinlogPosition to) {
            if (!to.equals(last())) {
                last = to;
                progressed = true;
            }
        }
    }

    /** The reader's connection and behaviour; the defaults suit a job. */
    public static final class Builder {
        private final String host;
        private final int port;
        private final String user;
        private final String password;
        private long serverId = 5400;
        private Duration heartbeatInterval = Duration.ofSeconds(30);
        private Duration readTimeout;
        private int reconnectAttempts = 3;
        private Duration reconnectBackoff = Duration.ofSeconds(1);
        private boolean includeQueries;
        private StatementLoggedChanges statementLoggedChanges = StatementLoggedChanges.FAIL;
        private String statementLoggedChangesKey =
                "source." + MySqlSourceOptions.STATEMENT_LOGGED_CHANGES.key();
        private SourceTls tls = SourceTls.DISABLED;
        private SourceHosts hosts;

        private Builder(String host, int port, String user, String password) {
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
            this.user = Objects.requireNonNull(user, "user");
            this.password = password == null ? "" : password;
        }

        /** The replica server id the connection uses; unique among the server's replicas. */
        public Builder serverId(long serverId) {
            this.serverId = serverId;
            return this;
        }

        /** How often an idle server sends a heartbeat (default 30 s). */
        public Builder heartbeatInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException(
                        "heartbeatInterval must be positive, got " + interval);
            }
            this.heartbeatInterval = interval;
            return this;
        }

        /** How long a silent connection lasts before it counts as lost (3 heartbeats). */
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        /** Reconnects in a row without progress before the reader fails (default 3). */
        public Builder reconnectAttempts(int attempts, Duration backoff) {
            if (attempts < 0) {
                throw new IllegalArgumentException(
                        "reconnectAttempts must be >= 0, got " + attempts);
            }
            this.reconnectAttempts = attempts;
            this.reconnectBackoff = backoff;
            return this;
        }

        /**
         * Whether the first row of each statement carries the statement's text ({@link
         * ChangeEvent#query()}) from MariaDB's annotate-rows or MySQL's rows-query events (default
         * false: the texts are not even parsed).
         */
        public Builder includeQueries(boolean includeQueries) {
            this.includeQueries = includeQueries;
            return this;
        }

        /**
         * What a DML statement of a captured table that the binlog holds as text does (default
         * fail: {@link SourceSetupException}); {@code optionKey} names the setting in messages.
         */
        public Builder statementLoggedChanges(StatementLoggedChanges action, String optionKey) {
            this.statementLoggedChanges = Objects.requireNonNull(action, "action");
            this.statementLoggedChangesKey = Objects.requireNonNull(optionKey, "optionKey");
            return this;
        }

        /** TLS on the binlog connection and the reader's JDBC ones (default: none). */
        public Builder tls(SourceTls tls) {
            this.tls = Objects.requireNonNull(tls, "tls");
            return this;
        }

        public BinlogReader build(TableDecoders decoders, Output out) {
            return new BinlogReader(this, decoders, out);
        }
    }
}

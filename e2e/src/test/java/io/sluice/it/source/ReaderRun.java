package io.sluice.it.source;

import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.binlog.BinlogPosition;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.RowsEventOrigin;
import io.sluice.functions.source.binlog.TableDecoders;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.DatabaseServer;
import io.sluice.serializers.event.ChangeEvent;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One run of {@link BinlogReader} on a test server from a start up to the first row of the table
 * {@code marker}: the changes of one database with the positions given with them, and its DDL.
 */
final class ReaderRun {

    /** A change and the position the reader gave with it. */
    static final class Emitted {
        final ChangeEvent change;
        final BinlogPosition after;

        Emitted(ChangeEvent change, BinlogPosition after) {
            this.change = change;
            this.after = after;
        }

        /** Table, type and images: what tells two changes apart. */
        String key() {
            return change.table()
                    + " "
                    + change.type()
                    + " "
                    + change.before()
                    + " "
                    + change.after();
        }

        @Override
        public String toString() {
            return key() + " query=" + change.query() + " @ " + after;
        }
    }

    final List<Emitted> changes = Collections.synchronizedList(new ArrayList<>());
    final List<String> ddl = Collections.synchronizedList(new ArrayList<>());

    /** The DML statements logged as text that the reader passed over (statement skip). */
    final List<String> skipped = Collections.synchronizedList(new ArrayList<>());

    /** Every position the run reported, in order: changes, DDL of any database, heartbeats. */
    final List<Reported> reported = Collections.synchronizedList(new ArrayList<>());

    private ReaderRun() {}

    /** The same with each captured table's current columns ({@link #currentColumns}). */
    static ReaderRun read(
            DatabaseServer server, String database, BinlogPosition start, boolean includeQueries)
            throws Exception {
        return read(server, database, currentColumns(server, database), start, includeQueries);
    }

    /**
     * Reads {@code database} from {@code start} until the marker row, at most 2 minutes.
     *
     * @param includeQueries the reader's {@link BinlogReader.Builder#includeQueries}
     */
    static ReaderRun read(
            DatabaseServer server,
            String database,
            TableDecoders decoders,
            BinlogPosition start,
            boolean includeQueries)
            throws Exception {
        BinlogReader.Builder reader = builder(server, 5600).includeQueries(includeQueries);
        return new ReaderRun().run(reader, decoders, database, start);
    }

    /**
     * As {@link #read(DatabaseServer, String, BinlogPosition, boolean)} with the reader's {@link
     * BinlogReader.Builder#statementLoggedChanges} {@code action}.
     */
    static ReaderRun read(
            DatabaseServer server,
            String database,
            BinlogPosition start,
            StatementLoggedChanges action)
            throws Exception {
        BinlogReader.Builder reader =
                builder(server, 5602)
                        .statementLoggedChanges(action, "source.statement-logged-changes");
        return new ReaderRun().run(reader, currentColumns(server, database), database, start);
    }

    private static BinlogReader.Builder builder(DatabaseServer server, int serverId) {
        return BinlogReader.builder(
                        server.host(), server.port(), server.cdcUser(), server.cdcPassword())
                .serverId(serverId)
                .reconnectAttempts(0, Duration.ofMillis(100));
    }

    /**
     * Runs {@code builder}'s reader from {@code start} until the marker row, at most 2 minutes,
     * keeping the changes, {@code database}'s DDL, and every position reported.
     */
    private ReaderRun run(
            BinlogReader.Builder builder,
            TableDecoders decoders,
            String database,
            BinlogPosition start)
            throws Exception {
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                builder.build(
                        decoders,
                        new BinlogReader.Output() {
                            @Override
                            public void change(ChangeEvent change, BinlogPosition after) {
                                Emitted emitted = new Emitted(change, after);
                                changes.add(emitted);
                                reported.add(new Reported("change", emitted.key(), after));
                                if (change.table().equals("marker")) {
                                    self.get().close();
                                }
                            }

                            @Override
                            public void ddl(String statement, String db, BinlogPosition after) {
                                if (database.equals(db)) {
                                    ddl.add(statement);
                                }
                                reported.add(new Reported("ddl", statement, after));
                            }

                            @Override
                            public void heartbeat(BinlogPosition at) {
                                reported.add(new Reported("heartbeat", "", at));
                            }

                            @Override
                            public void skippedStatement(
                                    String statement, String db, RowsEventOrigin origin) {
                                skipped.add(statement);
                            }
                        });
        self.set(reader);
        untilMarker(reader, start, Duration.ofMinutes(2), () -> String.valueOf(reported));
        return this;
    }

    /**
     * Runs {@code reader} from {@code start} on a thread of its own until it closes itself (at the
     * marker row) or fails, at most {@code limit}; {@code gave} says what it gave, for the error.
     */
    static void untilMarker(
            BinlogReader reader, BinlogPosition start, Duration limit, Supplier<String> gave)
            throws InterruptedException {
        Throwable failure = untilStopped(reader, start, limit, gave);
        if (failure != null) {
            throw new AssertionError("The reader from " + start + " failed", failure);
        }
    }

    /**
     * Runs {@code reader} from {@code start} on a thread of its own until it closes itself or
     * fails, at most {@code limit} (then fails, with what {@code gave} says it gave); returns its
     * failure, or null.
     */
    static Throwable untilStopped(
            BinlogReader reader, BinlogPosition start, Duration limit, Supplier<String> gave)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                reader.run(start);
                            } catch (Throwable t) {
                                failure.set(t);
                            }
                        },
                        "binlog-reader-test");
        thread.start();
        thread.join(limit.toMillis());
        if (thread.isAlive()) {
            reader.close();
            thread.join();
            throw new AssertionError(
                    "The reader from "
                            + start
                            + " neither stopped nor failed; it gave "
                            + gave.get());
        }
        return failure.get();
    }

    /** Each captured table's columns from information_schema, for a database that keeps them. */
    static TableDecoders currentColumns(DatabaseServer server, String database) {
        return TableDecoders.fromInformationSchema(
                SourceJdbc.of(server.host(), server.port(), server.cdcUser(), server.cdcPassword()),
                (db, table) -> db.equals(database),
                ZoneId.of("UTC"));
    }

    /** The binlog's end now, with the server's GTID state there (MariaDB's or MySQL's). */
    static BinlogPosition current(DatabaseServer server) throws Exception {
        String[] end = server.binlogEnd();
        String gtids =
                server.kind() == DatabaseServer.Kind.MARIADB
                        ? "SELECT @@gtid_binlog_pos"
                        : "SELECT @@global.gtid_executed";
        return BinlogPosition.at(end[0], Long.parseLong(end[1])).withGtids(text(server, gtids));
    }

    /** The types of the binlog events from {@code start} on, as SHOW BINLOG EVENTS names them. */
    static List<String> eventTypes(DatabaseServer server, BinlogPosition start) throws Exception {
        List<String> types = new ArrayList<>();
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet events =
                        statement.executeQuery(
                                "SHOW BINLOG EVENTS IN '"
                                        + start.file()
                                        + "' FROM "
                                        + start.position())) {
            while (events.next()) {
                types.add(events.getString("Event_type"));
            }
        }
        return types;
    }

    static String text(DatabaseServer server, String sql) throws Exception {
        try (Connection connection = server.connect(null);
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }

    List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (Emitted e : changes) {
            keys.add(e.key());
        }
        return keys;
    }

    /** A position the reader reported: with a change, a DDL statement or a heartbeat. */
    static final class Reported {
        /** "change", "ddl" or "heartbeat". */
        final String kind;

        /** The change's key, the statement, or "" for a heartbeat. */
        final String what;

        final BinlogPosition at;

        Reported(String kind, String what, BinlogPosition at) {
            this.kind = kind;
            this.what = what;
            this.at = at;
        }

        @Override
        public String toString() {
            return kind + (what.isEmpty() ? "" : " " + what) + " @ " + at;
        }
    }

    /**
     * As {@link #read(DatabaseServer, String, BinlogPosition, boolean)} without statement texts,
     * also keeping every position the reader reported, in order ({@link #reported}): each change's,
     * each DDL statement's (of any database) and each heartbeat's; the server sends a heartbeat
     * every {@code heartbeatInterval} when idle, and when it resumes at a GTID set, before the
     * first event after the transactions it skipped.
     */
    static ReaderRun readReporting(
            DatabaseServer server,
            String database,
            BinlogPosition start,
            Duration heartbeatInterval)
            throws Exception {
        BinlogReader.Builder reader = builder(server, 5601).heartbeatInterval(heartbeatInterval);
        return new ReaderRun().run(reader, currentColumns(server, database), database, start);
    }

    /**
     * The first heartbeat past {@code start} after a write: the heartbeats the server sent before
     * the write came through still name the start.
     */
    static BinlogPosition heartbeatPast(
            BlockingQueue<BinlogPosition> heartbeats, BinlogPosition start)
            throws InterruptedException {
        BinlogPosition after;
        int waited = 0;
        do {
            assertThat(waited++).as("heartbeats at the start after the write").isLessThan(20);
            after = heartbeats.poll(2, TimeUnit.MINUTES);
            assertThat(after).as("a heartbeat after the write").isNotNull();
        } while (after.position() == start.position());
        return after;
    }
}

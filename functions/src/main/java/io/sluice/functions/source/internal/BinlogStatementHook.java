package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.debezium.task.context.StatefulTaskContext;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.debezium.connector.mysql.MySqlDatabaseSchema;
import io.debezium.pipeline.DataChangeEvent;
import io.debezium.relational.KnownTables;
import io.debezium.relational.TableId;
import io.sluice.serializers.event.ChangeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Sees each binlog event before Debezium does (registered on the binlog client first, and called on
 * the client's thread like Debezium's own listener). For a statement (Query event other than BEGIN
 * and COMMIT) it:
 *
 * <ul>
 *   <li>notes the event header's time in {@link StatementTimes}, by file and event start, for the
 *       emitter to put on the statement's schema-change record: Debezium stamps that record with
 *       the time it parsed the statement;
 *   <li>on {@code CREATE TABLE} (without {@code IF NOT EXISTS}) of a table Debezium's schema knows,
 *       makes the schema forget it first. The binlog holds such a statement only if the table did
 *       not exist then, so the known definition is a later one, loaded from the database when the
 *       reader started (a replay from an earlier position): Debezium's parser ignores a CREATE of a
 *       table it knows, and would neither emit the statement nor read the following rows with the
 *       created definition;
 *   <li>on {@code CREATE}, {@code ALTER} or {@code DROP DATABASE} of a captured database, puts a
 *       record of it ({@link DatabaseStatements}) into the reader's queue once Debezium has read
 *       the statement (a second listener, after Debezium's): Flink CDC's binlog reader drops
 *       Debezium's own record of it, which names no table.
 * </ul>
 */
@Internal
public final class BinlogStatementHook implements BinaryLogClient.EventListener {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogStatementHook.class);

    private final BinaryLogClient client;
    private final Supplier<MySqlDatabaseSchema> schema;
    private final StatementTimes times;
    private final Predicate<String> capturedDatabase;
    private final StatefulTaskContext context;
    private final DatabaseStatements records = new DatabaseStatements();

    /** Registered after Debezium's listener, on the first event (Debezium registers later). */
    private boolean afterDebeziumRegistered;

    /** A captured database's statement seen before Debezium, for the listener after it. */
    private PendingStatement pending;

    /** A hook without database statements, for tests. */
    public BinlogStatementHook(
            BinaryLogClient client, Supplier<MySqlDatabaseSchema> schema, StatementTimes times) {
        this(client, schema, times, database -> false, null);
    }

    private BinlogStatementHook(
            BinaryLogClient client,
            Supplier<MySqlDatabaseSchema> schema,
            StatementTimes times,
            Predicate<String> capturedDatabase,
            StatefulTaskContext context) {
        this.client = client;
        this.schema = schema;
        this.times = times;
        this.capturedDatabase = capturedDatabase;
        this.context = context;
    }

    /**
     * Registers a hook on {@code context}'s binlog client, before Debezium's listener.
     *
     * @param capturedDatabase whether a database's statements are captured
     */
    public static void register(
            StatefulTaskContext context, StatementTimes times, Predicate<String> capturedDatabase) {
        BinaryLogClient client = context.getBinaryLogClient();
        client.registerEventListener(
                new BinlogStatementHook(
                        client, context::getDatabaseSchema, times, capturedDatabase, context));
    }

    @Override
    public void onEvent(Event event) {
        if (context != null && !afterDebeziumRegistered) {
            // The client's listener list is copy-on-write: this one sees the next event on.
            client.registerEventListener(this::afterDebezium);
            afterDebeziumRegistered = true;
        }
        pending = null;
        if (event.getHeader().getEventType() != EventType.QUERY
                || !(event.getHeader() instanceof EventHeaderV4)) {
            return;
        }
        QueryEventData query = queryData(event.getData());
        String sql = query == null ? null : query.getSql();
        if (sql == null || sql.equalsIgnoreCase("BEGIN") || sql.equalsIgnoreCase("COMMIT")) {
            return;
        }
        EventHeaderV4 header = event.getHeader();
        // The client moves to a new file on a ROTATE event, before the file's events.
        times.put(client.getBinlogFilename(), header.getPosition(), header.getTimestamp());
        if (DdlClassifier.createsNewTable(sql)) {
            forgetCreatedTable(sql, query.getDatabase());
        } else if (context != null) {
            DdlClassifier.Statement statement = DdlClassifier.classify(sql, query.getDatabase());
            if (statement.isDatabaseStatement() && capturedDatabase.test(statement.database())) {
                pending = new PendingStatement(header.getPosition(), statement.database(), sql);
            }
        }
    }

    /**
     * After Debezium's listener: the record of a pending database statement, with Debezium's
     * position and source block as they stand after the statement, goes into the reader's queue,
     * behind the records of the events before it.
     */
    private void afterDebezium(Event event) {
        PendingStatement statement = pending;
        pending = null;
        if (statement == null
                || !(event.getHeader() instanceof EventHeaderV4)
                || ((EventHeaderV4) event.getHeader()).getPosition() != statement.position) {
            return;
        }
        try {
            context.getQueue()
                    .enqueue(
                            new DataChangeEvent(
                                    records.record(
                                            context.getMySqlPartition().getSourcePartition(),
                                            context.getOffsetContext().getOffset(),
                                            context.getOffsetContext().getSourceInfo(),
                                            statement.database,
                                            statement.sql)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // The binlog client would only log a listener's failure, and the statement be lost:
            // Debezium's error handler fails the reader instead, so the job restarts and rereads.
            context.getErrorHandler()
                    .setProducerThrowable(
                            new IllegalStateException(
                                    "Sluice could not build the record of '"
                                            + statement.sql
                                            + "' at binlog position "
                                            + statement.position,
                                    e));
        }
    }

    private void forgetCreatedTable(String sql, String database) {
        MySqlDatabaseSchema known = schema.get();
        DdlClassifier.Statement statement = DdlClassifier.classify(sql, database);
        if (known == null || statement.type() != ChangeType.CREATE || statement.table().isEmpty()) {
            return;
        }
        TableId table = new TableId(statement.database(), null, statement.table());
        if (KnownTables.forget(known, table)) {
            LOG.info(
                    "The binlog creates {}, which the reader knew from the database: the"
                            + " statement's definition replaces the known one",
                    table);
        }
    }

    private static QueryEventData queryData(EventData data) {
        EventData inner =
                data instanceof EventDeserializer.EventDataWrapper
                        ? ((EventDeserializer.EventDataWrapper) data).getInternal()
                        : data;
        return inner instanceof QueryEventData ? (QueryEventData) inner : null;
    }

    /** A database statement at an event start, waiting for Debezium to read it. */
    private static final class PendingStatement {
        final long position;
        final String database;
        final String sql;

        PendingStatement(long position, String database, String sql) {
            this.position = position;
            this.database = database;
            this.sql = sql;
        }
    }
}

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
import io.debezium.relational.KnownTables;
import io.debezium.relational.TableId;
import io.sluice.serializers.event.ChangeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;
import java.util.regex.Pattern;

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
 *       created definition.
 * </ul>
 */
@Internal
public final class BinlogStatementHook implements BinaryLogClient.EventListener {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogStatementHook.class);

    private static final Pattern CREATE_TABLE =
            Pattern.compile(
                    "^\\s*CREATE\\s+TABLE\\s+(?!IF\\s+NOT\\s+EXISTS\\b)", Pattern.CASE_INSENSITIVE);

    private final BinaryLogClient client;
    private final Supplier<MySqlDatabaseSchema> schema;
    private final StatementTimes times;

    public BinlogStatementHook(
            BinaryLogClient client, Supplier<MySqlDatabaseSchema> schema, StatementTimes times) {
        this.client = client;
        this.schema = schema;
        this.times = times;
    }

    /** Registers a hook on {@code context}'s binlog client, before Debezium's listener. */
    public static void register(StatefulTaskContext context, StatementTimes times) {
        BinaryLogClient client = context.getBinaryLogClient();
        client.registerEventListener(
                new BinlogStatementHook(client, context::getDatabaseSchema, times));
    }

    @Override
    public void onEvent(Event event) {
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
        if (CREATE_TABLE.matcher(sql).find()) {
            forgetCreatedTable(sql, query.getDatabase());
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
}

package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;

import io.debezium.document.Document;
import io.debezium.document.DocumentReader;
import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.ZoneId;
import java.util.Map;

/**
 * Turns Debezium change records into {@link ChangeEvent}s. Not thread-safe: one per source subtask,
 * called from its single emitting thread, reusing one row-image buffer and one text buffer for
 * every record.
 *
 * <p>With queries included, the first row of each DML statement carries the statement's text
 * ({@link ChangeEvent#query()}), from which Canal's QUERY message is written before the row.
 */
@Internal
public final class ChangeRecordConverter {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeRecordConverter.class);

    /** Key schema name of Debezium MySQL schema-change (DDL) records. */
    static final String SCHEMA_CHANGE_KEY = "io.debezium.connector.mysql.SchemaChangeKey";

    /** The field of Flink CDC's schema-change value holding Debezium's history record JSON. */
    static final String HISTORY_RECORD = "historyRecord";

    private final ZoneId timestampZone;
    private final boolean includeQueries;
    private final ColumnTypeStyle style;
    private final MariaDbBinaryTypes.Lookup mariaDbTypes;
    private final TablePlanCache plans = new TablePlanCache();
    private final RowImage.Builder images = new RowImage.Builder(1024, 64);
    private final StringBuilder scratch = new StringBuilder(64);
    private SourceFields sourceFields;

    /** The query of the last binlog row, to tell a statement's first row; see {@link #query}. */
    private String lastQuery;

    public ChangeRecordConverter(ZoneId timestampZone) {
        this(timestampZone, false);
    }

    /**
     * @param includeQueries whether rows carry their statement's text (Debezium's {@code
     *     include.query} must be on too)
     */
    public ChangeRecordConverter(ZoneId timestampZone, boolean includeQueries) {
        this(timestampZone, includeQueries, ColumnTypeStyle.AS_DECLARED);
    }

    /**
     * @param includeQueries whether rows carry their statement's text (Debezium's {@code
     *     include.query} must be on too)
     * @param style how the source server writes column types, which mysqlType follows
     */
    public ChangeRecordConverter(
            ZoneId timestampZone, boolean includeQueries, ColumnTypeStyle style) {
        this(timestampZone, includeQueries, style, (database, table) -> Map.of());
    }

    /**
     * @param includeQueries whether rows carry their statement's text (Debezium's {@code
     *     include.query} must be on too)
     * @param style how the source server writes column types, which mysqlType follows
     * @param mariaDbTypes where a MariaDB table's UUID, INET4 and INET6 columns, which Debezium
     *     reads as BINARY(n), are looked up
     */
    public ChangeRecordConverter(
            ZoneId timestampZone,
            boolean includeQueries,
            ColumnTypeStyle style,
            MariaDbBinaryTypes.Lookup mariaDbTypes) {
        this.timestampZone = timestampZone;
        this.includeQueries = includeQueries;
        this.style = style;
        this.mariaDbTypes = mariaDbTypes;
    }

    /**
     * The change {@code record} carries, or null for records without one (heartbeats, watermarks,
     * transaction markers, tombstones).
     *
     * @throws ChangeEventConversionException if the record cannot be converted faithfully
     */
    public ChangeEvent convert(SourceRecord record) {
        Schema valueSchema = record.valueSchema();
        if (valueSchema == null || !(record.value() instanceof Struct)) {
            return null;
        }
        Struct value = (Struct) record.value();
        TablePlan plan = plans.get(valueSchema);
        if (plan == null) {
            if (isSchemaChange(record)) {
                return statement(value);
            }
            if (DatabaseStatements.is(record)) {
                return statement(
                        value.getString(DatabaseStatements.DDL),
                        value.getString(DatabaseStatements.DATABASE),
                        value.getStruct(DatabaseStatements.SOURCE));
            }
            if (!TablePlan.isEnvelope(valueSchema)) {
                return null;
            }
            plan = newPlan(record, value);
        }
        return row(plan, value, record);
    }

    /** Number of table plans currently cached, for tests. */
    public int cachedPlans() {
        return plans.size();
    }

    private TablePlan newPlan(SourceRecord record, Struct envelope) {
        Struct source = envelope.getStruct("source");
        sourceFields = SourceFields.of(source, sourceFields);
        if ("r".equals(envelope.getString("op"))
                && TimestampMicrosConverter.leadsKey(record.keySchema())) {
            LOG.warn(
                    "Table {}.{} is snapshotted in chunks of its first primary-key column, a"
                            + " TIMESTAMP: with 'source.reader' = 'flink-cdc', Flink CDC's binlog"
                            + " reader compares that column's values in changes with the chunk"
                            + " bounds as text until the binlog passes the last chunk, so a change"
                            + " written to the table while it is snapshotted may be missed or"
                            + " repeated (docs/value-rendering.md). Take 'sluice', do not write to"
                            + " it until the binlog phase starts, or lead its primary key with"
                            + " another column.",
                    sourceFields.db(source),
                    sourceFields.table(source));
        }
        return plans.put(
                record.valueSchema(),
                TablePlan.build(
                        sourceFields.db(source),
                        sourceFields.table(source),
                        record.valueSchema(),
                        record.keySchema(),
                        timestampZone,
                        plans::intern,
                        style,
                        mariaDbTypes));
    }

    private ChangeEvent row(TablePlan plan, Struct envelope, SourceRecord record) {
        String op = plan.op(envelope);
        TableSchema schema = plan.schema();
        ChangeType type;
        RowImage before = null;
        RowImage after = null;
        switch (op == null ? "" : op) {
            case "r":
            case "c":
                type = ChangeType.INSERT;
                after = image(plan, plan.after(envelope), "after", op);
                break;
            case "u":
                type = ChangeType.UPDATE;
                before = image(plan, plan.before(envelope), "before", op);
                after = image(plan, plan.after(envelope), "after", op);
                break;
            case "d":
                type = ChangeType.DELETE;
                before = image(plan, plan.before(envelope), "before", op);
                break;
            default:
                throw new ChangeEventConversionException(
                        "Unsupported Debezium operation '"
                                + op
                                + "' in a change of "
                                + schema.database()
                                + "."
                                + schema.table());
        }
        Struct source = plan.source(envelope);
        sourceFields = SourceFields.of(source, sourceFields);
        String gtid = sourceFields.gtid(source);
        ChangeEvent.Builder event =
                ChangeEvent.builder(schema, type)
                        .before(before)
                        .after(after)
                        .executeTime(sourceFields.tsMs(source))
                        .gtid(gtid)
                        .transactionId(gtid)
                        .serverId(sourceFields.serverId(source));
        if (!op.equals("r")) {
            int row = sourceFields.row(source);
            event.binlog(
                    sourceFields.file(source), position(sourceFields.pos(source), record), row);
            if (includeQueries) {
                query(event, sourceFields.query(source), row);
            }
        }
        return event.build();
    }

    /**
     * Gives the statement's text to its first row. Debezium puts the text of the latest rows-query
     * event on every row until the transaction commits, as one String instance per event; a new
     * instance at the first row of a binlog rows event starts a statement, so two statements with
     * the same text each get theirs, and the rows events of one statement share one. After a
     * restore this converter is new, so a statement the restore point cut after a whole rows event
     * gets its text again.
     */
    private void query(ChangeEvent.Builder event, String query, int row) {
        if (query != null && row == 0 && query != lastQuery && !query.isEmpty()) {
            event.query(query);
        }
        lastQuery = query;
    }

    private RowImage image(TablePlan plan, Struct row, String which, String op) {
        if (row == null) {
            throw new ChangeEventConversionException(
                    String.format(
                            "A Debezium '%s' change of %s.%s has no %s image",
                            op, plan.schema().database(), plan.schema().table(), which));
        }
        return plan.image(row, images, scratch);
    }

    /**
     * The event's binlog position. MariaDB 11.4 writes end_log_pos 0 into the events of a
     * transaction unless binlog_legacy_event_pos=ON, so Debezium's {@code source.pos} (end minus
     * length) comes out negative; then the position Debezium resumes from, the start of the
     * transaction, is the best known one.
     */
    private static long position(long pos, SourceRecord record) {
        if (pos >= 0) {
            return pos;
        }
        Map<String, ?> offset = record.sourceOffset();
        Object resume = offset == null ? null : offset.get("pos");
        return resume instanceof Number ? ((Number) resume).longValue() : 0L;
    }

    private static boolean isSchemaChange(SourceRecord record) {
        Schema key = record.keySchema();
        return key != null
                && SCHEMA_CHANGE_KEY.equals(key.name())
                && record.valueSchema().field(HISTORY_RECORD) != null
                && record.valueSchema().field("source") != null;
    }

    /** A DDL record: its statement text, typed and named as Canal does. */
    private ChangeEvent statement(Struct value) {
        String history = value.getString(HISTORY_RECORD);
        Document document;
        try {
            document = history == null ? null : DocumentReader.defaultReader().read(history);
        } catch (IOException e) {
            throw new ChangeEventConversionException(
                    "Cannot read the history record of a schema change: " + history, e);
        }
        String ddl = document == null ? null : document.getString("ddl");
        if (ddl == null || ddl.isBlank()) {
            return null; // a schema snapshot without a statement: nothing Canal would emit
        }
        return statement(ddl, document.getString("databaseName"), value.getStruct("source"));
    }

    /** A statement's event, typed and named as Canal does. */
    private ChangeEvent statement(String ddl, String currentDatabase, Struct source) {
        sourceFields = SourceFields.of(source, sourceFields);
        if (currentDatabase == null || currentDatabase.isEmpty()) {
            currentDatabase = sourceFields.db(source);
        }
        return statement(
                DdlClassifier.classify(ddl, currentDatabase),
                ddl,
                sourceFields.tsMs(source),
                sourceFields.gtid(source),
                sourceFields.file(source),
                Math.max(0L, sourceFields.pos(source)),
                sourceFields.serverId(source));
    }

    /**
     * The event of a statement (DDL), classified ({@link DdlClassifier}), as both binlog readers
     * give it.
     */
    public static ChangeEvent statement(
            DdlClassifier.Statement statement,
            String ddl,
            long executeTime,
            String gtid,
            String file,
            long position,
            long serverId) {
        return ChangeEvent.builder(
                        TableSchema.builder(statement.database(), statement.table()).build(),
                        statement.type())
                .sql(ddl)
                .executeTime(executeTime)
                .gtid(gtid)
                .transactionId(gtid)
                .binlog(file, position, 0)
                .serverId(serverId)
                .build();
    }
}

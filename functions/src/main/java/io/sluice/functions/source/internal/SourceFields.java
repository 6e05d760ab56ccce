package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;

/**
 * The fields of Debezium's MySQL {@code source} block, resolved once per source schema so each
 * record reads them by index instead of by name.
 */
@Internal
public final class SourceFields {

    private final Schema schema;
    private final Field tsMs;
    private final Field db;
    private final Field table;
    private final Field serverId;
    private final Field gtid;
    private final Field file;
    private final Field pos;
    private final Field row;
    private final Field query;

    private SourceFields(Schema schema) {
        this.schema = schema;
        this.tsMs = schema.field("ts_ms");
        this.db = schema.field("db");
        this.table = schema.field("table");
        this.serverId = schema.field("server_id");
        this.gtid = schema.field("gtid");
        this.file = schema.field("file");
        this.pos = schema.field("pos");
        this.row = schema.field("row");
        this.query = schema.field("query");
    }

    /** The fields of {@code source}'s schema, reusing {@code known} when it is the same schema. */
    public static SourceFields of(Struct source, SourceFields known) {
        return known != null && known.schema == source.schema()
                ? known
                : new SourceFields(source.schema());
    }

    /** When the change happened on the server (epoch ms); 0 for snapshot reads. */
    public long tsMs(Struct source) {
        return number(source, tsMs);
    }

    public String db(Struct source) {
        return text(source, db);
    }

    /** The table name; Debezium joins several with commas for a multi-table DDL. */
    public String table(Struct source) {
        return text(source, table);
    }

    public long serverId(Struct source) {
        return number(source, serverId);
    }

    /** The transaction's GTID; "" without GTIDs (and always on MariaDB with Debezium 1.9). */
    public String gtid(Struct source) {
        return text(source, gtid);
    }

    public String file(Struct source) {
        return text(source, file);
    }

    /** Start of the event in the binlog file; negative when the server left it out (see docs). */
    public long pos(Struct source) {
        return number(source, pos);
    }

    /** Position of the row among the rows of its event. */
    public int row(Struct source) {
        return (int) number(source, row);
    }

    /**
     * The text of the DML statement the row came from (MySQL rows-query events, with Debezium's
     * {@code include.query}), or null. The same String instance for every row of one statement.
     */
    public String query(Struct source) {
        return query == null ? null : (String) source.get(query);
    }

    private static String text(Struct source, Field field) {
        Object value = field == null ? null : source.get(field);
        return value == null ? "" : value.toString();
    }

    private static long number(Struct source, Field field) {
        Object value = field == null ? null : source.get(field);
        return value == null ? 0L : ((Number) value).longValue();
    }
}

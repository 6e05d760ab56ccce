package io.sluice.functions.source;

import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;

import io.debezium.data.Envelope;

import java.util.Map;

/**
 * The parts of Flink CDC 3.5's (Debezium 1.9) MySQL records that every source test builds the same
 * way: the {@code source} block of table {@code shop.items}, heartbeats and schema changes.
 */
public final class DebeziumRecords {

    public static final Schema SOURCE =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.Source")
                    .field("version", Schema.STRING_SCHEMA)
                    .field("connector", Schema.STRING_SCHEMA)
                    .field("name", Schema.STRING_SCHEMA)
                    .field("ts_ms", Schema.INT64_SCHEMA)
                    .field("db", Schema.STRING_SCHEMA)
                    .field("table", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("server_id", Schema.INT64_SCHEMA)
                    .field("gtid", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("file", Schema.STRING_SCHEMA)
                    .field("pos", Schema.INT64_SCHEMA)
                    .field("row", Schema.INT32_SCHEMA)
                    .field("thread", Schema.OPTIONAL_INT64_SCHEMA)
                    .field("query", Schema.OPTIONAL_STRING_SCHEMA)
                    .build();

    private static final Schema HEARTBEAT =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.common.Heartbeat")
                    .field("ts_ms", Schema.INT64_SCHEMA)
                    .build();

    private static final Schema SCHEMA_CHANGE_KEY =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.SchemaChangeKey")
                    .field("databaseName", Schema.STRING_SCHEMA)
                    .build();

    private static final Schema SCHEMA_CHANGE_VALUE =
            SchemaBuilder.struct()
                    .name("io.debezium.connector.mysql.SchemaChangeValue")
                    .field("source", SOURCE)
                    .field("historyRecord", Schema.OPTIONAL_STRING_SCHEMA)
                    .build();

    private DebeziumRecords() {}

    /** The change envelope of rows shaped {@code row}, with {@link #SOURCE}. */
    public static Envelope envelope(String name, Schema row) {
        return Envelope.defineSchema().withName(name).withRecord(row).withSource(SOURCE).build();
    }

    /** The source block of a change of {@code shop.items} by server 1, thread 7. */
    public static Struct source(
            long tsMs, String file, long pos, int row, String gtid, String query) {
        return new Struct(SOURCE)
                .put("version", "1.9.8.Final")
                .put("connector", "mysql")
                .put("name", "srv")
                .put("ts_ms", tsMs)
                .put("db", "shop")
                .put("table", "items")
                .put("server_id", 1L)
                .put("gtid", gtid)
                .put("file", file)
                .put("pos", pos)
                .put("row", row)
                .put("thread", 7L)
                .put("query", query);
    }

    /** A heartbeat at {@code offset}. */
    public static SourceRecord heartbeat(Map<String, ?> offset) {
        return new SourceRecord(
                Map.of(),
                offset,
                "hb",
                null,
                null,
                null,
                HEARTBEAT,
                new Struct(HEARTBEAT).put("ts_ms", 1L));
    }

    /** Statement {@code ddl} on database {@code shop}, with no table changes in its history. */
    public static SourceRecord schemaChange(Struct source, String ddl, Map<String, ?> offset) {
        Struct value =
                new Struct(SCHEMA_CHANGE_VALUE)
                        .put("source", source)
                        .put(
                                "historyRecord",
                                "{\"source\":{\"file\":\""
                                        + source.getString("file")
                                        + "\",\"pos\":"
                                        + source.getInt64("pos")
                                        + "},\"databaseName\":\"shop\",\"ddl\":\""
                                        + ddl
                                        + "\",\"tableChanges\":[]}");
        return new SourceRecord(
                Map.of(),
                offset,
                "srv",
                0,
                SCHEMA_CHANGE_KEY,
                new Struct(SCHEMA_CHANGE_KEY).put("databaseName", "shop"),
                SCHEMA_CHANGE_VALUE,
                value);
    }
}

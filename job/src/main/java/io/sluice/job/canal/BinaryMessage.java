package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.*;

/**
 * Decodes a Canal binary message ({@code canal.mq.flatMessage=false}, Sluice's {@code
 * canal-binary}: a {@code CanalPacket.Packet} of type MESSAGES holding {@code CanalEntry.Entry}
 * bytes) into rows: one per row of each ROWDATA entry (Canal groups a rows event's rows in one
 * entry), one per statement. Each row carries its FlatMessage form, as Canal's own converter makes
 * it, and every protobuf field, with the defaults Canal's getters give an absent one. Transaction
 * begin/end entries carry no row and are skipped.
 */
final class BinaryMessage {

    private static final String[] EVENT_TYPES = {
        "",
        "INSERT",
        "UPDATE",
        "DELETE",
        "CREATE",
        "ALTER",
        "ERASE",
        "QUERY",
        "TRUNCATE",
        "RENAME",
        "CINDEX",
        "DINDEX",
        "GTID",
        "XACOMMIT",
        "XAROLLBACK",
        "MHEARTBEAT"
    };
    private static final String[] ENTRY_TYPES = {
        "", "TRANSACTIONBEGIN", "ROWDATA", "TRANSACTIONEND", "HEARTBEAT", "GTIDLOG"
    };
    private static final String[] SOURCE_TYPES = {"", "ORACLE", "MYSQL", "PGSQL"};
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private BinaryMessage() {}

    /** The rows of one message; throws IllegalArgumentException when it is not one. */
    static List<FlatRow> rows(
            String topic, int partition, long offset, boolean keyed, byte[] value) {
        ProtoReader packet = new ProtoReader(value);
        long type = 0;
        long compression = 0;
        ProtoReader body = null;
        while (packet.more()) {
            switch (packet.tag()) {
                case PACKET_TYPE:
                    type = packet.varint();
                    break;
                case PACKET_COMPRESSION:
                    compression = packet.varint();
                    break;
                case PACKET_BODY:
                    body = packet.message();
                    break;
                default:
                    packet.skip();
            }
        }
        if (type != PACKET_TYPE_MESSAGES || body == null) {
            throw new IllegalArgumentException("a Canal packet of type " + type + ", not MESSAGES");
        }
        if (compression != 0 && compression != COMPRESSION_NONE) {
            throw new IllegalArgumentException("compressed (" + compression + ")");
        }
        long batchId = 0;
        List<ProtoReader> entries = new ArrayList<>();
        while (body.more()) {
            int tag = body.tag();
            if (tag == MESSAGES_BATCH_ID) {
                batchId = body.varint();
            } else if (tag == MESSAGES_MESSAGES) {
                entries.add(body.message());
            } else {
                body.skip();
            }
        }
        List<FlatRow> rows = new ArrayList<>();
        for (int e = 0; e < entries.size(); e++) {
            entry(entries.get(e), batchId, rows, topic, partition, offset, keyed, "#" + e);
        }
        return rows;
    }

    private static void entry(
            ProtoReader entry,
            long batchId,
            List<FlatRow> rows,
            String topic,
            int partition,
            long offset,
            boolean keyed,
            String at) {
        Map<String, String> common = new LinkedHashMap<>();
        common.put("entryType", "ROWDATA");
        Header header = new Header();
        ProtoReader storeValue = null;
        while (entry.more()) {
            switch (entry.tag()) {
                case ENTRY_HEADER:
                    header.read(entry.message());
                    break;
                case ENTRY_ENTRY_TYPE:
                    common.put("entryType", name(ENTRY_TYPES, entry.varint()));
                    break;
                case ENTRY_STORE_VALUE:
                    storeValue = entry.message();
                    break;
                default:
                    entry.skip();
            }
        }
        header.put(common);
        if (!ENTRY_TYPES[ENTRY_TYPE_ROWDATA].equals(common.get("entryType"))) {
            return;
        }
        List<ProtoReader> rowDatas = new ArrayList<>();
        Map<String, String> change = rowChange(storeValue, rowDatas);
        common.putAll(change);
        String type = change.get("rowChange.eventType");
        ObjectNode flat = flatMessage(batchId, common, change, header.executeTime);
        if (rowDatas.isEmpty()) {
            flat.putArray("pkNames");
            rows.add(FlatRow.binary(topic, partition, offset, keyed, flat, true, at, common));
            return;
        }
        for (int r = 0; r < rowDatas.size(); r++) {
            Map<String, String> fields = new LinkedHashMap<>(common);
            ObjectNode row = flat.deepCopy();
            rowData(rowDatas.get(r), type, fields, row);
            rows.add(
                    FlatRow.binary(
                            topic,
                            partition,
                            offset,
                            keyed,
                            row,
                            false,
                            at + "[" + r + "]",
                            fields));
        }
    }

    /** A RowChange's fields, Canal's defaults for absent ones; its RowDatas go to {@code rows}. */
    private static Map<String, String> rowChange(ProtoReader storeValue, List<ProtoReader> rows) {
        Map<String, String> change = new LinkedHashMap<>();
        change.put("rowChange.tableId", "0");
        change.put("rowChange.eventType", "UPDATE");
        change.put("rowChange.isDdl", "false");
        change.put("rowChange.sql", "");
        change.put("rowChange.ddlSchemaName", "");
        List<String> props = new ArrayList<>();
        while (storeValue != null && storeValue.more()) {
            switch (storeValue.tag()) {
                case ROW_CHANGE_TABLE_ID:
                    change.put("rowChange.tableId", String.valueOf(storeValue.varint()));
                    break;
                case ROW_CHANGE_EVENT_TYPE:
                    change.put("rowChange.eventType", name(EVENT_TYPES, storeValue.varint()));
                    break;
                case ROW_CHANGE_IS_DDL:
                    change.put("rowChange.isDdl", String.valueOf(storeValue.varint() != 0));
                    break;
                case ROW_CHANGE_SQL:
                    change.put("rowChange.sql", storeValue.string());
                    break;
                case ROW_CHANGE_ROW_DATAS:
                    rows.add(storeValue.message());
                    break;
                case ROW_CHANGE_PROPS:
                    props.add(pair(storeValue.message()));
                    break;
                case ROW_CHANGE_DDL_SCHEMA_NAME:
                    change.put("rowChange.ddlSchemaName", storeValue.string());
                    break;
                default:
                    storeValue.skip();
            }
        }
        change.put("rowChange.props", "[" + String.join(",", props) + "]");
        return change;
    }

    /** The FlatMessage fields every row of an entry shares, as Canal's converter sets them. */
    private static ObjectNode flatMessage(
            long batchId,
            Map<String, String> common,
            Map<String, String> change,
            long executeTime) {
        ObjectNode flat = NODES.objectNode();
        flat.put("id", batchId);
        flat.put("database", common.get("header.schemaName"));
        flat.put("table", common.get("header.tableName"));
        flat.put("isDdl", Boolean.parseBoolean(change.get("rowChange.isDdl")));
        flat.put("type", change.get("rowChange.eventType"));
        flat.put("es", executeTime);
        flat.put("sql", change.get("rowChange.sql"));
        flat.put("gtid", common.get("header.gtid"));
        return flat;
    }

    /** A RowData's columns as fields, and as the FlatMessage's data, old and types. */
    private static void rowData(
            ProtoReader rowData, String type, Map<String, String> fields, ObjectNode flat) {
        List<Column> before = new ArrayList<>();
        List<Column> after = new ArrayList<>();
        List<String> props = new ArrayList<>();
        while (rowData.more()) {
            switch (rowData.tag()) {
                case ROW_DATA_BEFORE_COLUMNS:
                    before.add(new Column(rowData.message()));
                    break;
                case ROW_DATA_AFTER_COLUMNS:
                    after.add(new Column(rowData.message()));
                    break;
                case ROW_DATA_PROPS:
                    props.add(pair(rowData.message()));
                    break;
                default:
                    rowData.skip();
            }
        }
        Column.put(fields, "before.", before);
        Column.put(fields, "after.", after);
        fields.put("rowData.props", "[" + String.join(",", props) + "]");
        List<Column> image = "DELETE".equals(type) ? before : after;
        ObjectNode data = flat.putArray("data").addObject();
        ObjectNode sqlType = flat.putObject("sqlType");
        ObjectNode mysqlType = flat.putObject("mysqlType");
        var pkNames = flat.putArray("pkNames");
        List<String> updated = new ArrayList<>();
        for (Column c : image) {
            data.put(c.name, c.isNull ? null : c.value);
            sqlType.put(c.name, c.sqlType);
            mysqlType.put(c.name, c.mysqlType);
            if (c.isKey) {
                pkNames.add(c.name);
            }
            if (c.updated) {
                updated.add(c.name);
            }
        }
        if ("UPDATE".equals(type)) {
            ObjectNode old = flat.putArray("old").addObject();
            for (Column c : before) {
                if (updated.contains(c.name)) {
                    old.put(c.name, c.isNull ? null : c.value);
                }
            }
        }
    }

    private static String pair(ProtoReader pair) {
        String key = "";
        String value = "";
        while (pair.more()) {
            int tag = pair.tag();
            if (tag == PAIR_KEY) {
                key = pair.string();
            } else if (tag == PAIR_VALUE) {
                value = pair.string();
            } else {
                pair.skip();
            }
        }
        return key + "=" + value;
    }

    private static String name(String[] names, long number) {
        return number > 0 && number < names.length ? names[(int) number] : String.valueOf(number);
    }

    /** An entry header's fields, Canal's defaults for absent ones (version 1, MYSQL, UPDATE). */
    private static final class Header {
        final Map<String, String> fields = new LinkedHashMap<>();
        final List<String> props = new ArrayList<>();
        long executeTime;

        Header() {
            fields.put("header.version", "1");
            fields.put("header.logfileName", "");
            fields.put("header.logfileOffset", "0");
            fields.put("header.serverId", "0");
            fields.put("header.serverenCode", "");
            fields.put("header.executeTime", "0");
            fields.put("header.sourceType", "MYSQL");
            fields.put("header.schemaName", "");
            fields.put("header.tableName", "");
            fields.put("header.eventLength", "0");
            fields.put("header.eventType", "UPDATE");
            fields.put("header.gtid", "");
        }

        void read(ProtoReader header) {
            while (header.more()) {
                switch (header.tag()) {
                    case HEADER_VERSION:
                        fields.put("header.version", String.valueOf((int) header.varint()));
                        break;
                    case HEADER_LOGFILE_NAME:
                        fields.put("header.logfileName", header.string());
                        break;
                    case HEADER_LOGFILE_OFFSET:
                        fields.put("header.logfileOffset", String.valueOf(header.varint()));
                        break;
                    case HEADER_SERVER_ID:
                        fields.put("header.serverId", String.valueOf(header.varint()));
                        break;
                    case HEADER_SERVERENCODE:
                        fields.put("header.serverenCode", header.string());
                        break;
                    case HEADER_EXECUTE_TIME:
                        executeTime = header.varint();
                        fields.put("header.executeTime", String.valueOf(executeTime));
                        break;
                    case HEADER_SOURCE_TYPE:
                        fields.put("header.sourceType", name(SOURCE_TYPES, header.varint()));
                        break;
                    case HEADER_SCHEMA_NAME:
                        fields.put("header.schemaName", header.string());
                        break;
                    case HEADER_TABLE_NAME:
                        fields.put("header.tableName", header.string());
                        break;
                    case HEADER_EVENT_LENGTH:
                        fields.put("header.eventLength", String.valueOf(header.varint()));
                        break;
                    case HEADER_EVENT_TYPE:
                        fields.put("header.eventType", name(EVENT_TYPES, header.varint()));
                        break;
                    case HEADER_PROPS:
                        props.add(pair(header.message()));
                        break;
                    case HEADER_GTID:
                        fields.put("header.gtid", header.string());
                        break;
                    default:
                        header.skip();
                }
            }
        }

        void put(Map<String, String> into) {
            into.putAll(fields);
            into.put("header.props", "[" + String.join(",", props) + "]");
        }
    }

    /** A CanalEntry.Column, with Canal's defaults for absent fields. */
    private static final class Column {
        String name = "";
        int index;
        int sqlType;
        boolean isKey;
        boolean updated;
        boolean isNull;
        String value = "";
        int length;
        String mysqlType = "";
        final List<String> props = new ArrayList<>();

        Column(ProtoReader column) {
            while (column.more()) {
                switch (column.tag()) {
                    case COLUMN_INDEX:
                        index = (int) column.varint();
                        break;
                    case COLUMN_SQL_TYPE:
                        sqlType = (int) column.varint();
                        break;
                    case COLUMN_NAME:
                        name = column.string();
                        break;
                    case COLUMN_IS_KEY:
                        isKey = column.varint() != 0;
                        break;
                    case COLUMN_UPDATED:
                        updated = column.varint() != 0;
                        break;
                    case COLUMN_IS_NULL:
                        isNull = column.varint() != 0;
                        break;
                    case COLUMN_PROPS:
                        props.add(pair(column.message()));
                        break;
                    case COLUMN_VALUE:
                        value = column.string();
                        break;
                    case COLUMN_LENGTH:
                        length = (int) column.varint();
                        break;
                    case COLUMN_MYSQL_TYPE:
                        mysqlType = column.string();
                        break;
                    default:
                        column.skip();
                }
            }
        }

        static void put(Map<String, String> fields, String prefix, List<Column> columns) {
            List<String> names = new ArrayList<>();
            columns.forEach(c -> names.add(c.name));
            fields.put(prefix + "names", String.join(",", names));
            for (Column c : columns) {
                String p = prefix + c.name + ".";
                fields.put(p + "index", String.valueOf(c.index));
                fields.put(p + "sqlType", String.valueOf(c.sqlType));
                fields.put(p + "isKey", String.valueOf(c.isKey));
                fields.put(p + "updated", String.valueOf(c.updated));
                fields.put(p + "isNull", String.valueOf(c.isNull));
                fields.put(p + "value", c.isNull ? null : c.value);
                fields.put(p + "length", String.valueOf(c.length));
                fields.put(p + "mysqlType", c.mysqlType);
                fields.put(p + "props", "[" + String.join(",", c.props) + "]");
            }
        }
    }
}

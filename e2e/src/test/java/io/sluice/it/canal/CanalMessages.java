package io.sluice.it.canal;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sluice.functions.encode.MessageFormat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes Sluice's messages with Canal's own consumer classes into one view for both formats, so a
 * test states its expectations once.
 */
public final class CanalMessages {

    private CanalMessages() {}

    /** One row (or statement) of a decoded message. */
    public static final class Row {
        public final String type;
        public final String database;
        public final String table;
        public final boolean ddl;
        public final String sql;
        public final Map<String, String> data;
        public final Map<String, String> old;
        public final Map<String, String> mysqlType;
        public final Map<String, Integer> sqlType;

        /** The message's GTID (the flat message's {@code gtid}, the binary entry header's). */
        public final String gtid;

        Row(
                String type,
                String database,
                String table,
                boolean ddl,
                String sql,
                Map<String, String> data,
                Map<String, String> old,
                Map<String, String> mysqlType,
                Map<String, Integer> sqlType,
                String gtid) {
            this.type = type;
            this.database = database;
            this.table = table;
            this.ddl = ddl;
            this.sql = sql;
            this.data = data;
            this.old = old;
            this.mysqlType = mysqlType;
            this.sqlType = sqlType;
            this.gtid = gtid;
        }

        @Override
        public String toString() {
            return type + " " + database + "." + table + " data=" + data + " old=" + old + sql;
        }
    }

    /** Every row of one message, decoded the way Canal's Kafka consumer decodes it. */
    public static List<Row> decode(MessageFormat format, byte[] value) {
        return format == MessageFormat.CANAL_FLAT ? decodeFlat(value) : decodeBinary(value);
    }

    private static List<Row> decodeFlat(byte[] value) {
        FlatMessage flat = JSON.parseObject(value, FlatMessage.class);
        List<Row> rows = new ArrayList<>();
        if (flat.getData() == null) {
            rows.add(
                    new Row(
                            flat.getType(),
                            flat.getDatabase(),
                            flat.getTable(),
                            Boolean.TRUE.equals(flat.getIsDdl()),
                            flat.getSql(),
                            null,
                            null,
                            null,
                            null,
                            flat.getGtid()));
            return rows;
        }
        for (int i = 0; i < flat.getData().size(); i++) {
            rows.add(
                    new Row(
                            flat.getType(),
                            flat.getDatabase(),
                            flat.getTable(),
                            Boolean.TRUE.equals(flat.getIsDdl()),
                            flat.getSql(),
                            flat.getData().get(i),
                            flat.getOld() == null ? null : flat.getOld().get(i),
                            flat.getMysqlType(),
                            flat.getSqlType(),
                            flat.getGtid()));
        }
        return rows;
    }

    private static List<Row> decodeBinary(byte[] value) {
        Message message = CanalMessageDeserializer.deserializer(value);
        List<Row> rows = new ArrayList<>();
        for (CanalEntry.Entry entry : message.getEntries()) {
            CanalEntry.RowChange change;
            try {
                change = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError("Canal cannot parse a RowChange Sluice wrote", e);
            }
            CanalEntry.Header header = entry.getHeader();
            String type = change.getEventType().name();
            if (change.getRowDatasCount() == 0) {
                rows.add(
                        new Row(
                                type,
                                header.getSchemaName(),
                                header.getTableName(),
                                change.getIsDdl(),
                                change.getSql(),
                                null,
                                null,
                                null,
                                null,
                                header.getGtid()));
            }
            for (CanalEntry.RowData row : change.getRowDatasList()) {
                List<CanalEntry.Column> columns =
                        type.equals("DELETE")
                                ? row.getBeforeColumnsList()
                                : row.getAfterColumnsList();
                Map<String, String> data = new LinkedHashMap<>();
                Map<String, String> mysqlType = new LinkedHashMap<>();
                Map<String, Integer> sqlType = new LinkedHashMap<>();
                for (CanalEntry.Column column : columns) {
                    data.put(column.getName(), column.getIsNull() ? null : column.getValue());
                    mysqlType.put(column.getName(), column.getMysqlType());
                    sqlType.put(column.getName(), column.getSqlType());
                }
                Map<String, String> old = null;
                if (type.equals("UPDATE")) {
                    old = new LinkedHashMap<>();
                    for (int c = 0; c < row.getAfterColumnsCount(); c++) {
                        if (row.getAfterColumns(c).getUpdated()) {
                            CanalEntry.Column before = row.getBeforeColumns(c);
                            old.put(
                                    before.getName(),
                                    before.getIsNull() ? null : before.getValue());
                        }
                    }
                }
                rows.add(
                        new Row(
                                type,
                                header.getSchemaName(),
                                header.getTableName(),
                                change.getIsDdl(),
                                change.getSql(),
                                data,
                                old,
                                mysqlType,
                                sqlType,
                                header.getGtid()));
            }
        }
        return rows;
    }
}

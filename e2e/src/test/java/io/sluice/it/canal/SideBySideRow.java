package io.sluice.it.canal;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One row (or statement) of a Canal-format message, decoded with Canal's own consumer classes
 * (fastjson2 into {@link FlatMessage}; {@link CanalMessageDeserializer} and {@code
 * RowChange.parseFrom} for protobuf), flattened into named fields so that two sides compare field
 * by field: flat {@code data.c}, {@code old.c}, {@code sqlType.c}, ...; binary {@code header.*},
 * {@code rowChange.*}, {@code after.c.value}, {@code before.c.isKey}, ...
 */
final class SideBySideRow {

    final String database;
    final String table;
    final String type;
    final long es;
    final boolean statement;
    final boolean ddl;
    final String sql;
    final int partition;
    final String where;

    /** The primary key's values (all values without a key), for pairing. */
    final String keyText;

    /** The before image's key, for a primary-key change. */
    final String oldKeyText;

    final Map<String, String> fields;

    /** Column name to mysqlType, for judging value differences. */
    final Map<String, String> mysqlTypes;

    private SideBySideRow(
            String database,
            String table,
            String type,
            long es,
            boolean statement,
            boolean ddl,
            String sql,
            int partition,
            String where,
            String keyText,
            String oldKeyText,
            Map<String, String> fields,
            Map<String, String> mysqlTypes) {
        this.database = database;
        this.table = table;
        this.type = type;
        this.es = es;
        this.statement = statement;
        this.ddl = ddl;
        this.sql = sql;
        this.partition = partition;
        this.where = where;
        this.keyText = keyText;
        this.oldKeyText = oldKeyText;
        this.fields = fields;
        this.mysqlTypes = mysqlTypes;
    }

    String pairKey() {
        return database
                + "|"
                + table
                + "|"
                + type
                + "|"
                + es
                + "|"
                + (statement ? "statement" : keyText);
    }

    String describe() {
        return database
                + "."
                + table
                + " "
                + type
                + (statement ? "" : " " + keyText)
                + " es="
                + es
                + " at "
                + where;
    }

    /** The rows of one FlatMessage record. */
    static List<SideBySideRow> flat(ConsumerRecord<byte[], byte[]> record) {
        FlatMessage m = JSON.parseObject(record.value(), FlatMessage.class);
        String where = record.topic() + "-" + record.partition() + "@" + record.offset();
        Map<String, String> common = new LinkedHashMap<>();
        common.put("id", String.valueOf(m.getId()));
        common.put("key", String.valueOf(record.key() != null));
        common.put("partition", String.valueOf(record.partition()));
        common.put("database", m.getDatabase());
        common.put("table", m.getTable());
        common.put("pkNames", String.valueOf(m.getPkNames()));
        common.put("isDdl", String.valueOf(m.getIsDdl()));
        common.put("type", m.getType());
        common.put("es", String.valueOf(m.getEs()));
        common.put("sql", m.getSql());
        common.put("gtid", m.getGtid());
        common.put("ts.atOrAfterEs", String.valueOf(m.getTs() != null && m.getTs() >= m.getEs()));
        Map<String, String> mysqlTypes =
                m.getMysqlType() == null ? Map.of() : new LinkedHashMap<>(m.getMysqlType());
        List<SideBySideRow> rows = new ArrayList<>();
        boolean ddlish = m.getData() == null || m.getData().isEmpty();
        if (ddlish) {
            Map<String, String> fields = new LinkedHashMap<>(common);
            fields.put("data", String.valueOf(m.getData()));
            fields.put("old", String.valueOf(m.getOld()));
            fields.put("sqlType", String.valueOf(m.getSqlType()));
            fields.put("mysqlType", String.valueOf(m.getMysqlType()));
            rows.add(
                    new SideBySideRow(
                            m.getDatabase(),
                            m.getTable(),
                            m.getType(),
                            m.getEs(),
                            true,
                            Boolean.TRUE.equals(m.getIsDdl()),
                            m.getSql(),
                            record.partition(),
                            where,
                            "",
                            "",
                            fields,
                            mysqlTypes));
            return rows;
        }
        List<String> pk = m.getPkNames() == null ? List.of() : m.getPkNames();
        for (int i = 0; i < m.getData().size(); i++) {
            Map<String, String> fields = new LinkedHashMap<>(common);
            Map<String, String> data = m.getData().get(i);
            data.forEach((c, v) -> fields.put("data." + c, v));
            Map<String, String> old = m.getOld() == null ? null : m.getOld().get(i);
            if (old == null) {
                fields.put("old", "null");
            } else {
                old.forEach((c, v) -> fields.put("old." + c, v));
            }
            if (m.getSqlType() != null) {
                m.getSqlType().forEach((c, v) -> fields.put("sqlType." + c, String.valueOf(v)));
            }
            mysqlTypes.forEach((c, v) -> fields.put("mysqlType." + c, v));
            Map<String, String> before = new LinkedHashMap<>(data);
            if (old != null) {
                before.putAll(old);
            }
            rows.add(
                    new SideBySideRow(
                            m.getDatabase(),
                            m.getTable(),
                            m.getType(),
                            m.getEs(),
                            false,
                            false,
                            m.getSql(),
                            record.partition(),
                            where + "[" + i + "]",
                            keyText(pk, data),
                            keyText(pk, before),
                            fields,
                            mysqlTypes));
        }
        return rows;
    }

    /** The rows of one protobuf record, entry by entry. */
    static List<SideBySideRow> binary(ConsumerRecord<byte[], byte[]> record) throws Exception {
        Message message = CanalMessageDeserializer.deserializer(record.value());
        String where = record.topic() + "-" + record.partition() + "@" + record.offset();
        List<SideBySideRow> rows = new ArrayList<>();
        int e = 0;
        for (CanalEntry.Entry entry : message.getEntries()) {
            CanalEntry.Header h = entry.getHeader();
            CanalEntry.RowChange rc = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            Map<String, String> common = new LinkedHashMap<>();
            common.put("id", String.valueOf(message.getId()));
            common.put("key", String.valueOf(record.key() != null));
            common.put("partition", String.valueOf(record.partition()));
            common.put("entryType", entry.getEntryType().name());
            common.put("header.version", String.valueOf(h.getVersion()));
            common.put("header.logfileName", h.getLogfileName());
            common.put("header.logfileOffset", String.valueOf(h.getLogfileOffset()));
            common.put("header.serverId", String.valueOf(h.getServerId()));
            common.put("header.serverenCode", h.getServerenCode());
            common.put("header.executeTime", String.valueOf(h.getExecuteTime()));
            common.put("header.sourceType", h.getSourceType().name());
            common.put("header.schemaName", h.getSchemaName());
            common.put("header.tableName", h.getTableName());
            common.put("header.eventLength", String.valueOf(h.getEventLength()));
            common.put("header.eventType", h.getEventType().name());
            common.put("header.gtid", h.getGtid());
            common.put("header.props", pairs(h.getPropsList()));
            common.put("rowChange.tableId", String.valueOf(rc.getTableId()));
            common.put("rowChange.eventType", rc.getEventType().name());
            common.put("rowChange.isDdl", String.valueOf(rc.getIsDdl()));
            common.put("rowChange.sql", rc.getSql());
            common.put("rowChange.ddlSchemaName", rc.getDdlSchemaName());
            common.put("rowChange.props", pairs(rc.getPropsList()));
            String type = rc.getEventType().name();
            String at = where + "#" + e++;
            if (rc.getRowDatasCount() == 0) {
                rows.add(
                        new SideBySideRow(
                                h.getSchemaName(),
                                h.getTableName(),
                                type,
                                h.getExecuteTime(),
                                true,
                                rc.getIsDdl(),
                                rc.getSql(),
                                record.partition(),
                                at,
                                "",
                                "",
                                common,
                                Map.of()));
                continue;
            }
            for (int i = 0; i < rc.getRowDatasCount(); i++) {
                CanalEntry.RowData row = rc.getRowDatas(i);
                Map<String, String> fields = new LinkedHashMap<>(common);
                Map<String, String> mysqlTypes = new LinkedHashMap<>();
                columns(fields, "before.", row.getBeforeColumnsList(), mysqlTypes);
                columns(fields, "after.", row.getAfterColumnsList(), mysqlTypes);
                fields.put("rowData.props", pairs(row.getPropsList()));
                List<CanalEntry.Column> image =
                        row.getAfterColumnsCount() > 0
                                ? row.getAfterColumnsList()
                                : row.getBeforeColumnsList();
                rows.add(
                        new SideBySideRow(
                                h.getSchemaName(),
                                h.getTableName(),
                                type,
                                h.getExecuteTime(),
                                false,
                                false,
                                rc.getSql(),
                                record.partition(),
                                at + "[" + i + "]",
                                keyText(image),
                                keyText(
                                        row.getBeforeColumnsCount() > 0
                                                ? row.getBeforeColumnsList()
                                                : image),
                                fields,
                                mysqlTypes));
            }
        }
        return rows;
    }

    private static void columns(
            Map<String, String> fields,
            String prefix,
            List<CanalEntry.Column> columns,
            Map<String, String> mysqlTypes) {
        fields.put(
                prefix + "names",
                columns.stream().map(CanalEntry.Column::getName).collect(Collectors.joining(",")));
        for (CanalEntry.Column c : columns) {
            String p = prefix + c.getName() + ".";
            fields.put(p + "index", String.valueOf(c.getIndex()));
            fields.put(p + "sqlType", String.valueOf(c.getSqlType()));
            fields.put(p + "isKey", String.valueOf(c.getIsKey()));
            fields.put(p + "updated", String.valueOf(c.getUpdated()));
            fields.put(p + "isNull", String.valueOf(c.getIsNull()));
            fields.put(p + "value", c.getIsNull() ? null : c.getValue());
            fields.put(p + "length", String.valueOf(c.getLength()));
            fields.put(p + "mysqlType", c.getMysqlType());
            fields.put(p + "props", pairs(c.getPropsList()));
            mysqlTypes.put(c.getName(), c.getMysqlType());
        }
    }

    private static String pairs(List<CanalEntry.Pair> pairs) {
        return pairs.stream()
                .map(p -> p.getKey() + "=" + p.getValue())
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static String keyText(List<String> pk, Map<String, String> values) {
        if (pk.isEmpty()) {
            return values.toString();
        }
        return pk.stream().map(c -> c + "=" + values.get(c)).collect(Collectors.joining(","));
    }

    private static String keyText(List<CanalEntry.Column> columns) {
        List<CanalEntry.Column> keys =
                columns.stream().filter(CanalEntry.Column::getIsKey).collect(Collectors.toList());
        List<CanalEntry.Column> used = keys.isEmpty() ? columns : keys;
        return used.stream()
                .map(c -> c.getName() + "=" + (c.getIsNull() ? null : c.getValue()))
                .collect(Collectors.joining(","));
    }
}

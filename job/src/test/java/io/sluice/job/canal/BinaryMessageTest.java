package io.sluice.job.canal;

import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.CanalPacket;
import com.alibaba.otter.canal.protocol.Message;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** canal-diff's protobuf decoding, judged field by field by Canal's own classes. */
class BinaryMessageTest {

    @Test
    void decodesEveryFieldAsCanalsClassesDo() throws Exception {
        CanalEntry.Entry update =
                entry(
                        CanalEntry.Header.newBuilder()
                                .setVersion(1)
                                .setLogfileName("mysql-bin.000003")
                                .setLogfileOffset(-1) // Canal's MariaDB rows
                                .setServerId(7)
                                .setServerenCode("UTF-8")
                                .setExecuteTime(1_700_000_000_123L)
                                .setSourceType(CanalEntry.Type.MYSQL)
                                .setSchemaName("shop")
                                .setTableName("items")
                                .setEventLength(91)
                                .setEventType(CanalEntry.EventType.UPDATE)
                                .addProps(pair("rowsCount", "2"))
                                .setGtid("0-1-42"),
                        CanalEntry.RowChange.newBuilder()
                                .setTableId(118)
                                .setEventType(CanalEntry.EventType.UPDATE)
                                .setIsDdl(false)
                                .addRowDatas(row(1, "apple", "green apple", null))
                                .addRowDatas(row(2, "fig", "fig", "4.50")));
        // Only what a DDL sets: every other field has Canal's default.
        CanalEntry.Entry ddl =
                entry(
                        CanalEntry.Header.newBuilder()
                                .setSchemaName("shop")
                                .setTableName("items")
                                .setEventType(CanalEntry.EventType.ALTER),
                        CanalEntry.RowChange.newBuilder()
                                .setEventType(CanalEntry.EventType.ALTER)
                                .setIsDdl(true)
                                .setSql("ALTER TABLE items ADD note INT")
                                .setDdlSchemaName("shop"));
        byte[] bytes =
                CanalPacket.Packet.newBuilder()
                        .setType(CanalPacket.PacketType.MESSAGES)
                        .setBody(
                                CanalPacket.Messages.newBuilder()
                                        .setBatchId(99)
                                        .addMessages(update.toByteString())
                                        .addMessages(ddl.toByteString())
                                        .build()
                                        .toByteString())
                        .build()
                        .toByteArray();

        List<FlatRow> rows = BinaryMessage.rows("t", 2, 5, true, bytes);

        List<Map<String, String>> canals = canalFields(bytes);
        assertThat(rows).hasSize(3);
        for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i).binary).as("row " + i).isEqualTo(canals.get(i));
        }
        FlatRow first = rows.get(0);
        assertThat(first.where()).isEqualTo("t-2@5#0[0]");
        assertThat(first.type()).isEqualTo("UPDATE");
        assertThat(first.es()).isEqualTo(1_700_000_000_123L);
        assertThat(first.pkNames()).containsExactly("id");
        assertThat(first.data()).containsEntry("name", "green apple").containsEntry("price", null);
        assertThat(first.old()).containsExactly(Map.entry("name", "apple"));
        assertThat(first.typeMap("sqlType")).containsEntry("id", "-5");
        assertThat(rows.get(1).old()).isEmpty();
        assertThat(rows.get(2).isStatement()).isTrue();
        assertThat(rows.get(2).text("sql")).isEqualTo("ALTER TABLE items ADD note INT");
        assertThat(rows.get(2).binary)
                .containsEntry("header.version", "1")
                .containsEntry("header.sourceType", "MYSQL");
    }

    @Test
    void refusesWhatIsNoCanalMessage() {
        assertThatThrownBy(() -> BinaryMessage.rows("t", 0, 0, false, new byte[] {0x0a, 0x01}))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> BinaryMessage.rows("t", 0, 0, false, new byte[] {0x18, 0x02}))
                .hasMessageContaining("a Canal packet of type 2, not MESSAGES");
    }

    /** What Canal's deserializer gives, in canal-diff's field names. */
    private static List<Map<String, String>> canalFields(byte[] bytes) throws Exception {
        Message message = CanalMessageDeserializer.deserializer(bytes);
        List<Map<String, String>> rows = new ArrayList<>();
        for (CanalEntry.Entry entry : message.getEntries()) {
            CanalEntry.Header h = entry.getHeader();
            CanalEntry.RowChange rc = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
            Map<String, String> common = new LinkedHashMap<>();
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
            if (rc.getRowDatasCount() == 0) {
                rows.add(common);
            }
            for (CanalEntry.RowData row : rc.getRowDatasList()) {
                Map<String, String> fields = new LinkedHashMap<>(common);
                columns(fields, "before.", row.getBeforeColumnsList());
                columns(fields, "after.", row.getAfterColumnsList());
                fields.put("rowData.props", pairs(row.getPropsList()));
                rows.add(fields);
            }
        }
        return rows;
    }

    private static void columns(
            Map<String, String> fields, String prefix, List<CanalEntry.Column> columns) {
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
        }
    }

    private static String pairs(List<CanalEntry.Pair> pairs) {
        return pairs.stream()
                .map(p -> p.getKey() + "=" + p.getValue())
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static CanalEntry.Entry entry(
            CanalEntry.Header.Builder header, CanalEntry.RowChange.Builder change) {
        return CanalEntry.Entry.newBuilder()
                .setHeader(header)
                .setEntryType(CanalEntry.EntryType.ROWDATA)
                .setStoreValue(change.build().toByteString())
                .build();
    }

    /** Row {@code id}: name changes from {@code before} to {@code after}; price as given. */
    private static CanalEntry.RowData row(int id, String before, String after, String price) {
        CanalEntry.RowData.Builder row = CanalEntry.RowData.newBuilder();
        for (boolean isAfter : new boolean[] {false, true}) {
            List<CanalEntry.Column> columns = new ArrayList<>();
            columns.add(
                    column(0, "id", -5, "bigint(20)", String.valueOf(id)).setIsKey(true).build());
            columns.add(
                    column(1, "name", 12, "varchar(16)", isAfter ? after : before)
                            .setUpdated(isAfter && !before.equals(after))
                            .addProps(pair("charset", "utf8mb4"))
                            .build());
            CanalEntry.Column.Builder p = column(2, "price", 3, "decimal(10,2)", "");
            columns.add(price == null ? p.setIsNull(true).build() : p.setValue(price).build());
            if (isAfter) {
                row.addAllAfterColumns(columns);
            } else {
                row.addAllBeforeColumns(columns);
            }
        }
        return row.addProps(pair("k", "v")).build();
    }

    private static CanalEntry.Column.Builder column(
            int index, String name, int sqlType, String mysqlType, String value) {
        return CanalEntry.Column.newBuilder()
                .setIndex(index)
                .setName(name)
                .setSqlType(sqlType)
                .setMysqlType(mysqlType)
                .setValue(value);
    }

    private static CanalEntry.Pair pair(String key, String value) {
        return CanalEntry.Pair.newBuilder().setKey(key).setValue(value).build();
    }
}

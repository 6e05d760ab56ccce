package io.sluice.serializers.canal;

import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.CanalEntry.Column;
import com.alibaba.otter.canal.protocol.CanalEntry.EventType;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.Pair;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.CanalEntry.RowData;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.List;

/**
 * Canal's own protobuf objects for changes, built with its {@code CanalEntry} builders and set the
 * way {@code LogEventConvert} sets them (createHeader, parseRowsEvent/parseOneRow,
 * parseQueryEvent), then framed as {@code CanalMessageSerializerUtil} frames them, plus Sluice's
 * batch id. Independent of {@link CanalBinaryEncoder}, which {@code CanalBinaryEncoderTest} holds
 * to these bytes; the flat tests feed them to Canal's converter as a second input that no Sluice
 * encoder produced.
 *
 * <p>One choice is Sluice's, not Canal's: the header of a QUERY (the text of a DML statement) names
 * the rows' database, where Canal's {@code buildQueryEntry} passes {@code ""} (see
 * docs/canal-compatibility.md). Tests of that difference override it.
 */
public final class CanalLogEventPackets {

    private CanalLogEventPackets() {}

    /** {@code Packet{version=1, MESSAGES, Messages{messageId, [the changes' Entry]}}}. */
    public static byte[] packet(List<ChangeEvent> changes, long messageId) {
        return CanalPacketFraming.packet(header(changes), rowChange(changes), messageId);
    }

    /** The entry header: createHeader's fields, the gtid, and rowsCount for rows. */
    public static Header header(List<ChangeEvent> changes) {
        ChangeEvent first = changes.get(0);
        TableSchema schema = first.schema();
        Header.Builder header =
                Header.newBuilder()
                        .setVersion(1)
                        .setLogfileName(first.binlogFile())
                        .setLogfileOffset(first.binlogPosition())
                        .setServerId(first.serverId())
                        .setServerenCode("UTF-8")
                        .setExecuteTime(first.executeTime())
                        .setSourceType(CanalEntry.Type.MYSQL)
                        .setEventType(eventType(first));
        if (first.isDdl()) {
            // The DDL parser's names: null (left out) when it found none.
            if (!schema.database().isEmpty()) {
                header.setSchemaName(schema.database());
            }
            if (!schema.table().isEmpty()) {
                header.setTableName(schema.table());
            }
        } else {
            // Rows, and the QUERY of a DML statement (Canal: "" as its database, see above).
            header.setSchemaName(schema.database()).setTableName(schema.table());
        }
        header.setEventLength(0);
        if (!first.gtid().isEmpty()) {
            header.setGtid(first.gtid());
        }
        if (first.isRow()) {
            header.addProps(
                    Pair.newBuilder()
                            .setKey("rowsCount")
                            .setValue(String.valueOf(changes.size()))
                            .build());
        }
        return header.build();
    }

    /** The entry's store value: one RowData per change, or the statement. */
    public static RowChange rowChange(List<ChangeEvent> changes) {
        ChangeEvent first = changes.get(0);
        TableSchema schema = first.schema();
        EventType eventType = eventType(first);
        RowChange.Builder rowChange = RowChange.newBuilder();
        if (!first.isRow() && !first.isDdl()) {
            // buildQueryEntry: sql and eventType only, no isDdl.
            rowChange.setSql(first.sql());
            rowChange.setEventType(eventType);
        } else if (first.isDdl()) {
            rowChange.setIsDdl(true).setSql(first.sql());
            if (!schema.database().isEmpty()) {
                rowChange.setDdlSchemaName(schema.database());
            }
            rowChange.setEventType(eventType);
        } else {
            rowChange.setIsDdl(false).setEventType(eventType);
            for (ChangeEvent change : changes) {
                RowData.Builder row = RowData.newBuilder();
                if (change.before() != null) {
                    addColumns(row, schema, change.before(), false);
                }
                if (change.after() != null) {
                    addColumns(row, schema, change.after(), true);
                }
                rowChange.addRowDatas(row.build());
            }
        }
        return rowChange.build();
    }

    private static EventType eventType(ChangeEvent change) {
        return EventType.valueOf(change.type().canalNumber());
    }

    /** parseOneRow's column: name, isKey, mysqlType, index, isNull, value, sqlType, updated. */
    private static void addColumns(
            RowData.Builder row, TableSchema schema, RowImage image, boolean isAfter) {
        for (int i = 0; i < schema.columnCount(); i++) {
            Column.Builder column =
                    Column.newBuilder()
                            .setName(schema.name(i))
                            .setIsKey(schema.isKey(i))
                            .setMysqlType(schema.mysqlType(i))
                            .setIndex(i)
                            .setIsNull(false);
            String value = image.text(i);
            if (value == null) {
                column.setIsNull(true);
            } else {
                column.setValue(value);
            }
            column.setSqlType(schema.sqlType(i));
            column.setUpdated(isAfter && canalIsUpdate(row.getBeforeColumnsList(), value, i));
            if (isAfter) {
                row.addAfterColumns(column.build());
            } else {
                row.addBeforeColumns(column.build());
            }
        }
    }

    /** LogEventConvert.isUpdate: changed unless a before column of that index holds the same. */
    private static boolean canalIsUpdate(List<Column> before, String newValue, int index) {
        for (Column column : before) {
            if (column.getIndex() == index) {
                if (column.getIsNull() && newValue == null) {
                    return false;
                }
                if (newValue != null && !column.getIsNull() && column.getValue().equals(newValue)) {
                    return false;
                }
            }
        }
        return true;
    }
}

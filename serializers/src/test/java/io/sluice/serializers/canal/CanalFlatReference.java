package io.sluice.serializers.canal;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Canal 1.1.8's own flat path, rebuilt from Canal's classes for tests and benchmarks to judge
 * {@link CanalFlatEncoder} by:
 *
 * <ol>
 *   <li>{@link #canalInput}: the {@code CanalEntry.Entry} header and parsed {@code RowChange} that
 *       Canal's {@code LogEventConvert} would produce for the changes (columns with index, sqlType,
 *       name, isKey, updated, isNull, value, mysqlType);
 *   <li>{@link #messageConverter}: the same steps as {@code MQMessageUtils.messageConverter(
 *       EntryRowData[], long)} at tag canal-1.1.8, written out here because {@code
 *       canal.connector.core} is not a dependency: a LinkedHashMap per row for {@code data} and
 *       {@code old}, the {@code sqlType}/{@code mysqlType} maps, {@code pkNames} from the first
 *       row, and the updated-column set shared by all rows of the message;
 *   <li>{@link #toJsonBytes}: {@code CanalKafkaProducer}'s serialization with fastjson2.
 * </ol>
 *
 * <p>Columns take their {@code sqlType} from the schema, so Canal's value-dependent sqlType (an
 * upstream concern of how values are rendered) is not exercised here.
 */
public final class CanalFlatReference {

    /** What {@code messageConverter} reads: Canal's {@code EntryRowData}. */
    public static final class CanalInput {
        public final CanalEntry.Entry entry;
        public final CanalEntry.RowChange rowChange;

        CanalInput(CanalEntry.Entry entry, CanalEntry.RowChange rowChange) {
            this.entry = entry;
            this.rowChange = rowChange;
        }
    }

    private CanalFlatReference() {}

    /** Canal's FlatMessage JSON for {@code changes}, with {@code ts} as the build time. */
    public static byte[] canalJson(List<ChangeEvent> changes, long id, long ts) {
        return toJsonBytes(flatMessage(changes, id, ts));
    }

    /** The FlatMessage Canal builds for {@code changes}. */
    public static FlatMessage flatMessage(List<ChangeEvent> changes, long id, long ts) {
        return messageConverter(canalInput(changes), id, ts);
    }

    /** Serializes as {@code CanalKafkaProducer.send} does. */
    public static byte[] toJsonBytes(FlatMessage flat) {
        return JSON.toJSONBytes(
                flat, JSONWriter.Feature.WriteNulls, JSONWriter.Feature.LargeObject);
    }

    /** The entry and row change Canal's parser would build for one binlog event's changes. */
    public static CanalInput canalInput(List<ChangeEvent> changes) {
        ChangeEvent first = changes.get(0);
        CanalEntry.EventType eventType = CanalEntry.EventType.valueOf(first.type().name());
        CanalEntry.Header header =
                CanalEntry.Header.newBuilder()
                        .setSchemaName(first.database())
                        .setTableName(first.table())
                        .setExecuteTime(first.executeTime())
                        .setGtid(first.gtid())
                        .setEventType(eventType)
                        .setLogfileName(first.binlogFile())
                        .setLogfileOffset(first.binlogPosition())
                        .setServerId(first.serverId())
                        .build();
        CanalEntry.RowChange.Builder rowChange = CanalEntry.RowChange.newBuilder();
        if (!first.isRow() && !first.isDdl()) {
            // buildQueryEntry (rows-query/annotate): sql and eventType, no isDdl. Canal's header
            // schema is "" there; Sluice writes the rows' database (see canal-compatibility.md).
            rowChange.setSql(first.sql()).setEventType(eventType);
        } else if (first.isDdl()) {
            rowChange.setEventType(eventType).setIsDdl(true);
            rowChange.setSql(first.sql()).setDdlSchemaName(first.database());
        } else {
            rowChange.setEventType(eventType).setIsDdl(false);
            for (ChangeEvent change : changes) {
                CanalEntry.RowData.Builder row = CanalEntry.RowData.newBuilder();
                // Canal marks before columns never updated, after columns as isUpdated says.
                if (change.before() != null) {
                    addColumns(row::addBeforeColumns, change, change.before(), false);
                }
                if (change.after() != null) {
                    addColumns(row::addAfterColumns, change, change.after(), true);
                }
                rowChange.addRowDatas(row);
            }
        }
        CanalEntry.RowChange built = rowChange.build();
        CanalEntry.Entry entry =
                CanalEntry.Entry.newBuilder()
                        .setEntryType(CanalEntry.EntryType.ROWDATA)
                        .setHeader(header)
                        .build();
        return new CanalInput(entry, built);
    }

    private interface ColumnSink {
        void add(CanalEntry.Column column);
    }

    private static void addColumns(
            ColumnSink sink, ChangeEvent change, RowImage image, boolean after) {
        TableSchema schema = change.schema();
        for (int c = 0; c < schema.columnCount(); c++) {
            CanalEntry.Column.Builder column =
                    CanalEntry.Column.newBuilder()
                            .setIndex(c)
                            .setSqlType(schema.sqlType(c))
                            .setName(schema.name(c))
                            .setIsKey(schema.isKey(c))
                            .setUpdated(after && change.isUpdated(c))
                            .setIsNull(image.isNull(c))
                            .setMysqlType(schema.mysqlType(c));
            if (!image.isNull(c)) {
                column.setValue(image.text(c));
            }
            sink.add(column.build());
        }
    }

    /**
     * The steps of Canal 1.1.8's {@code MQMessageUtils.messageConverter} for one entry, with {@code
     * ts} passed in where Canal reads the clock.
     */
    public static FlatMessage messageConverter(CanalInput input, long id, long ts) {
        CanalEntry.Header header = input.entry.getHeader();
        CanalEntry.RowChange rowChange = input.rowChange;
        CanalEntry.EventType eventType = rowChange.getEventType();
        FlatMessage flat = new FlatMessage(id);
        flat.setDatabase(header.getSchemaName());
        flat.setTable(header.getTableName());
        flat.setIsDdl(rowChange.getIsDdl());
        flat.setType(eventType.toString());
        flat.setEs(header.getExecuteTime());
        flat.setTs(ts);
        flat.setSql(rowChange.getSql());
        flat.setGtid(header.getGtid());
        if (rowChange.getIsDdl()) {
            return flat;
        }
        Map<String, Integer> sqlType = new LinkedHashMap<>();
        Map<String, String> mysqlType = new LinkedHashMap<>();
        List<Map<String, String>> data = new ArrayList<>();
        List<Map<String, String>> old = new ArrayList<>();
        // Canal's quirk: one set for the whole message, so updated columns accumulate over rows.
        Set<String> updated = new HashSet<>();
        boolean pkNamesDone = false;
        boolean rows =
                eventType == CanalEntry.EventType.INSERT
                        || eventType == CanalEntry.EventType.UPDATE
                        || eventType == CanalEntry.EventType.DELETE;
        for (CanalEntry.RowData rowData : rowChange.getRowDatasList()) {
            if (!rows) {
                continue;
            }
            List<CanalEntry.Column> columns =
                    eventType == CanalEntry.EventType.DELETE
                            ? rowData.getBeforeColumnsList()
                            : rowData.getAfterColumnsList();
            Map<String, String> row = new LinkedHashMap<>();
            for (CanalEntry.Column column : columns) {
                if (!pkNamesDone && column.getIsKey()) {
                    flat.addPkName(column.getName());
                }
                sqlType.put(column.getName(), column.getSqlType());
                mysqlType.put(column.getName(), column.getMysqlType());
                row.put(column.getName(), column.getIsNull() ? null : column.getValue());
                if (column.getUpdated()) {
                    updated.add(column.getName());
                }
            }
            pkNamesDone = true;
            if (!row.isEmpty()) {
                data.add(row);
            }
            if (eventType == CanalEntry.EventType.UPDATE) {
                Map<String, String> rowOld = new LinkedHashMap<>();
                for (CanalEntry.Column column : rowData.getBeforeColumnsList()) {
                    if (updated.contains(column.getName())) {
                        rowOld.put(column.getName(), column.getIsNull() ? null : column.getValue());
                    }
                }
                old.add(rowOld);
            }
        }
        if (!sqlType.isEmpty()) {
            flat.setSqlType(sqlType);
        }
        if (!mysqlType.isEmpty()) {
            flat.setMysqlType(mysqlType);
        }
        if (!data.isEmpty()) {
            flat.setData(data);
        }
        if (!old.isEmpty()) {
            flat.setOld(old);
        }
        return flat;
    }
}

package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.functions.source.internal.ValueRenderer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the rows events of one table version straight into {@link ChangeEvent}s, with no Debezium
 * record in between: each value goes from the binlog client's raw form ({@link
 * RawRowsDeserializer}) into the event's UTF-8 row image, as Canal's text.
 *
 * <p>It lives in {@code functions}, next to the Debezium path, because it shares that path's
 * declared types ({@code DeclaredType}: mysqlType and sqlType) and value renderers, so both readers
 * write one text for one value. It needs no Flink API; the binlog client it reads comes with the
 * Flink CDC jar.
 *
 * <p>Values differ from the Debezium path only where that path is wrong (docs/value-rendering.md):
 * zero and partly-zero DATE/DATETIME values are written as stored ({@code 0000-00-00}, {@code
 * 2020-00-00 00:00:00.000000}) instead of NULL, and negative TIME values whose last stored unit is
 * zero are exact.
 *
 * <p>One instance per table version and reading thread: it reuses its buffers.
 */
public final class RowsEventDecoder {

    private final TableSchema schema;
    private final BinlogColumn[] columns;
    private final ValueRenderer[] renderers;
    private final RowImage.Builder image;
    private final StringBuilder scratch = new StringBuilder(64);
    private TableMapEventData checkedMap;

    private RowsEventDecoder(
            String database, String table, List<BinlogColumn> columns, ZoneId zone) {
        TableSchema.Builder schema = TableSchema.builder(database, table);
        this.columns = columns.toArray(new BinlogColumn[0]);
        this.renderers = new ValueRenderer[this.columns.length];
        for (int i = 0; i < this.columns.length; i++) {
            BinlogColumn column = this.columns[i];
            schema.column(
                    column.name(),
                    column.type().mysqlType(),
                    column.type().sqlType(),
                    column.isKey());
            try {
                renderers[i] = BinlogRenderers.forColumn(column, zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Table " + database + "." + table + ": " + e.getMessage(), e);
            }
        }
        this.schema = schema.build();
        this.image = new RowImage.Builder(256, this.columns.length);
    }

    /**
     * A decoder for {@code database.table} with {@code columns} in table order.
     *
     * @param timestampZone the zone TIMESTAMP values are written in
     * @throws IllegalArgumentException if a column's type is not supported (named in the message)
     */
    public static RowsEventDecoder of(
            String database, String table, List<BinlogColumn> columns, ZoneId timestampZone) {
        return new RowsEventDecoder(database, table, columns, timestampZone);
    }

    /**
     * A binlog client event deserializer whose rows events carry the values this decoder reads;
     * every other event is parsed as the client's defaults do.
     */
    public static EventDeserializer eventDeserializer() {
        return RawRowsDeserializer.eventDeserializer();
    }

    public TableSchema schema() {
        return schema;
    }

    /**
     * Decodes one rows event of this table into one change per row.
     *
     * @param tableMap the table map the event refers to (checked against the columns once)
     * @param rows a {@link WriteRowsEventData}, {@link UpdateRowsEventData} or {@link
     *     DeleteRowsEventData} from {@link #eventDeserializer()}
     * @param origin the event's binlog coordinates, time and server
     * @throws ChangeEventConversionException if the table map does not fit the columns, the image
     *     is not full, a value cannot be rendered or is a JSON diff ({@link PartialUpdateRows}; the
     *     message names the column)
     */
    public void decode(
            TableMapEventData tableMap,
            EventData rows,
            RowsEventOrigin origin,
            Consumer<ChangeEvent> out) {
        if (tableMap != checkedMap) {
            check(tableMap);
            checkedMap = tableMap;
        }
        if (rows instanceof WriteRowsEventData) {
            WriteRowsEventData write = (WriteRowsEventData) rows;
            checkFull(write.getIncludedColumns(), "written");
            List<Serializable[]> list = write.getRows();
            for (int r = 0; r < list.size(); r++) {
                out.accept(event(ChangeType.INSERT, origin, r).after(image(list.get(r))).build());
            }
        } else if (rows instanceof UpdateRowsEventData) {
            UpdateRowsEventData update = (UpdateRowsEventData) rows;
            checkFull(update.getIncludedColumnsBeforeUpdate(), "before");
            checkFull(update.getIncludedColumns(), "after");
            List<Map.Entry<Serializable[], Serializable[]>> list = update.getRows();
            for (int r = 0; r < list.size(); r++) {
                Map.Entry<Serializable[], Serializable[]> pair = list.get(r);
                if (update instanceof PartialUpdateRows) {
                    int diff = ((PartialUpdateRows) update).diffColumn(r, pair.getValue());
                    if (diff >= 0) {
                        throw new ChangeEventConversionException(
                                PartialUpdateRows.refusal(tableName(), columns[diff].name()));
                    }
                }
                out.accept(
                        event(ChangeType.UPDATE, origin, r)
                                .before(image(pair.getKey()))
                                .after(image(pair.getValue()))
                                .build());
            }
        } else if (rows instanceof DeleteRowsEventData) {
            DeleteRowsEventData delete = (DeleteRowsEventData) rows;
            checkFull(delete.getIncludedColumns(), "deleted");
            List<Serializable[]> list = delete.getRows();
            for (int r = 0; r < list.size(); r++) {
                out.accept(event(ChangeType.DELETE, origin, r).before(image(list.get(r))).build());
            }
        } else {
            throw new IllegalArgumentException(
                    "Not a rows event of " + tableName() + ": " + rows.getClass().getName());
        }
    }

    /**
     * A row read by a snapshot query, as an INSERT like the initial snapshot's rows: {@code values}
     * in the raw form rows events carry ({@link RawRowsDeserializer}), rendered by the same
     * renderers, so that the row reads as the binlog's images of it do.
     *
     * @param readTime when the row was read, epoch milliseconds
     * @throws ChangeEventConversionException if a value cannot be rendered (the message names the
     *     column)
     */
    public ChangeEvent snapshotRow(Serializable[] values, long readTime) {
        return ChangeEvent.builder(schema, ChangeType.INSERT)
                .executeTime(readTime)
                .after(image(values))
                .build();
    }

    private ChangeEvent.Builder event(ChangeType type, RowsEventOrigin origin, int row) {
        return ChangeEvent.builder(schema, type)
                .executeTime(origin.executeTime())
                .gtid(origin.gtid())
                .binlog(origin.file(), origin.position(), row)
                .serverId(origin.serverId())
                .transactionId(origin.gtid());
    }

    private RowImage image(Serializable[] values) {
        for (int i = 0; i < columns.length; i++) {
            Serializable value = values[i];
            if (value == null) {
                image.appendNull();
                continue;
            }
            try {
                renderers[i].render(value, scratch, image);
            } catch (RuntimeException e) {
                image.build(); // drop the partial image
                throw new ChangeEventConversionException(
                        String.format(
                                "Cannot render column '%s' (%s) of %s from the binlog value %s:"
                                        + " %s",
                                columns[i].name(),
                                columns[i].type(),
                                tableName(),
                                describe(value),
                                e),
                        e);
            } finally {
                scratch.setLength(0);
            }
        }
        return image.build();
    }

    /** The table map must be this table's, with this many columns of fitting binlog types. */
    private void check(TableMapEventData map) {
        byte[] types = map.getColumnTypes();
        if (types.length != columns.length) {
            throw new ChangeEventConversionException(
                    String.format(
                            "The binlog's table map of %s has %d columns but the schema Sluice"
                                    + " holds has %d (%s): the schema is not the one the rows were"
                                    + " written with",
                            tableName(), types.length, columns.length, schema));
        }
        for (int i = 0; i < columns.length; i++) {
            // ENUM and SET are STRING in the table map, as CHAR and BINARY are.
            ColumnType type = ColumnType.byCode(types[i] & 0xff);
            if (!BinlogRenderers.binlogTypes(columns[i].type()).contains(type)) {
                throw new ChangeEventConversionException(
                        String.format(
                                "Column '%s' of %s is %s in the schema Sluice holds, but the"
                                        + " binlog's table map says %s: the schema is not the one"
                                        + " the rows were written with",
                                columns[i].name(), tableName(), columns[i].type(), type));
            }
        }
    }

    private void checkFull(BitSet included, String which) {
        if (included.cardinality() != columns.length) {
            throw new ChangeEventConversionException(
                    String.format(
                            "A rows event of %s carries %d of its %d columns (%s image): the"
                                    + " server must write full row images (binlog_row_image=FULL)",
                            tableName(), included.cardinality(), columns.length, which));
        }
    }

    private String tableName() {
        return schema.database() + "." + schema.table();
    }

    private static String describe(Object value) {
        String text =
                value instanceof byte[] ? ((byte[]) value).length + " bytes" : value.toString();
        return text + " (" + value.getClass().getSimpleName() + ")";
    }
}

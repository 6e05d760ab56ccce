package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.sluice.serializers.event.ChangeEvent;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A binlog client listener that decodes the rows events of the tables it is given decoders for into
 * {@link ChangeEvent}s: it keeps the table maps, asks for the table's decoder at each table map (so
 * a decoder follows the table's schema at that point of the binlog, see {@link TableSchemas}), and
 * gives each rows event its origin. The client must use {@link
 * RowsEventDecoder#eventDeserializer()}.
 *
 * <p>Positions: a change reports the position after the last event that stated its end, i.e. the
 * start of its transaction on MariaDB 11.4 (whose events inside a transaction state none, see
 * docs/value-rendering.md). GTIDs are not tracked yet, and DDL statements must reach the decoders'
 * source (e.g. {@link TableSchemas#applyDdl}) before the table maps that follow them.
 */
public final class BinlogRowsListener implements BinaryLogClient.EventListener {

    private final TableDecoders decoders;
    private final Supplier<String> binlogFile;
    private final Consumer<ChangeEvent> out;
    private final Map<Long, TableMapEventData> tableMaps = new HashMap<>();
    private final Map<Long, RowsEventDecoder> decodersById = new HashMap<>();
    private long position;

    /**
     * @param decoders the decoder of (database, table) at a table map, or null for a table not
     *     captured
     * @param binlogFile the file the client reads, e.g. {@code client::getBinlogFilename}
     * @param out receives each change, in binlog order
     */
    public BinlogRowsListener(
            TableDecoders decoders, Supplier<String> binlogFile, Consumer<ChangeEvent> out) {
        this.decoders = decoders;
        this.binlogFile = binlogFile;
        this.out = out;
    }

    @Override
    public void onEvent(Event event) {
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        EventData data = event.getData();
        if (type == EventType.TABLE_MAP) {
            TableMapEventData map = (TableMapEventData) data;
            tableMaps.put(map.getTableId(), map);
            // null: not captured
            decodersById.put(
                    map.getTableId(), decoders.decoder(map.getDatabase(), map.getTable(), map));
        } else if (EventType.isRowMutation(type)) {
            long tableId = BinlogEvents.tableId(data);
            TableMapEventData map = tableMaps.get(tableId);
            if (map == null) {
                throw new IllegalStateException(
                        "A rows event at "
                                + binlogFile.get()
                                + ":"
                                + header.getPosition()
                                + " names table id "
                                + tableId
                                + ", which no table map before it did");
            }
            RowsEventDecoder decoder = decodersById.get(tableId);
            if (decoder != null) {
                decoder.decode(
                        map,
                        data,
                        new RowsEventOrigin(
                                binlogFile.get(),
                                position,
                                header.getTimestamp(),
                                header.getServerId(),
                                ""),
                        out);
            }
        }
        if (header.getNextPosition() > 0) {
            position = header.getNextPosition();
        }
    }
}

package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The binlog client's table map parser behind a cache: a table map whose bytes equal the last one
 * of its table id is the object parsed then. Every transaction repeats its tables' maps; parsing
 * each (names, types, metadata) cost more per row than the reader's own work, and the same object
 * lets {@link RowsEventDecoder} skip its check of a map it checked.
 *
 * <p>It works inside {@link Events}: the client wraps a table map deserializer of any other class
 * than its own in one that parses each map with its own as well.
 */
final class TableMapCache implements EventDataDeserializer<TableMapEventData> {

    /** Table ids kept; beyond, the cache starts over (ids are reused per table in practice). */
    private static final int MAX_TABLES = 4096;

    private final TableMapEventDataDeserializer parser = new TableMapEventDataDeserializer();
    private final Map<Long, Parsed> byTableId = new HashMap<>();

    private static final class Parsed {
        final byte[] bytes;
        final TableMapEventData map;

        Parsed(byte[] bytes, TableMapEventData map) {
            this.bytes = bytes;
            this.map = map;
        }
    }

    @Override
    public TableMapEventData deserialize(ByteArrayInputStream in) throws IOException {
        byte[] bytes = in.read(in.available());
        long tableId = tableId(bytes);
        Parsed last = byTableId.get(tableId);
        if (last != null && Arrays.equals(last.bytes, bytes)) {
            return last.map;
        }
        TableMapEventData map = parser.deserialize(new ByteArrayInputStream(bytes));
        TableMapNames.decode(bytes, map); // as UTF-8, not in the JVM's default charset
        if (byTableId.size() >= MAX_TABLES) {
            byTableId.clear();
        }
        byTableId.put(tableId, new Parsed(bytes, map));
        return map;
    }

    /**
     * The client's event deserializer with its own table map deserializer registered (so that it
     * wraps none) and this cache handed out in its place while a table map is read.
     */
    static final class Events extends EventDeserializer {
        private final TableMapCache cache = new TableMapCache();
        private boolean readingTableMap;

        Events(
                EventHeaderDeserializer<?> headers,
                EventDataDeserializer<?> otherwise,
                Map<EventType, EventDataDeserializer> byType,
                Map<Long, TableMapEventData> tableMaps) {
            super(headers, otherwise, withOwnTableMaps(byType), tableMaps);
        }

        private static Map<EventType, EventDataDeserializer> withOwnTableMaps(
                Map<EventType, EventDataDeserializer> byType) {
            byType.put(EventType.TABLE_MAP, new TableMapEventDataDeserializer());
            return byType;
        }

        @Override
        public EventData deserializeTableMapEventData(ByteArrayInputStream in, EventHeader header)
                throws IOException {
            readingTableMap = true;
            try {
                return super.deserializeTableMapEventData(in, header);
            } finally {
                readingTableMap = false;
            }
        }

        @Override
        @SuppressWarnings("rawtypes")
        public EventDataDeserializer getEventDataDeserializer(EventType type) {
            return readingTableMap && type == EventType.TABLE_MAP
                    ? cache
                    : super.getEventDataDeserializer(type);
        }
    }

    /** The first 6 bytes, little-endian (what the parser reads first). */
    private static long tableId(byte[] bytes) {
        long id = 0;
        for (int i = Math.min(6, bytes.length) - 1; i >= 0; i--) {
            id = id << 8 | (bytes[i] & 0xff);
        }
        return id;
    }
}

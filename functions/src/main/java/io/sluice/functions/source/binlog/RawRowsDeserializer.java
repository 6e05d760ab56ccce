package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AbstractRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The binlog client's rows-event parser with the values {@link RowsEventDecoder} reads: character
 * and binary data as bytes (CHAR_AND_BINARY_AS_BYTE_ARRAY), and temporal and BIT values as one
 * {@code Long} in their exact stored form instead of {@code java.sql} objects. The client's own
 * temporal modes cannot say a zero date ({@code 0000-00-00}, {@code 2020-00-00}) apart from others
 * and, like Debezium, mishandle the borrow of a negative TIME whose last stored unit is zero.
 *
 * <p>One class serves WRITE, UPDATE and DELETE rows events of every version (v1, MariaDB's and
 * MySQL 5.1's, and v2 with extra data): the layouts differ only in the extra data and the second
 * column bitmap of an update. The values it gives per column type:
 *
 * <ul>
 *   <li>DATE: the stored {@code year << 9 | month << 5 | day};
 *   <li>TIME, TIME2: signed microseconds;
 *   <li>DATETIME, DATETIME2: MySQL's packed form, {@code (ymd << 17 | hms) << 24 | micros} with
 *       {@code ymd = (year * 13 + month) << 5 | day} and {@code hms = hour << 12 | minute << 6 |
 *       second};
 *   <li>TIMESTAMP, TIMESTAMP2: microseconds since the epoch;
 *   <li>BIT: the bits as an unsigned number;
 *   <li>the rest as the client gives them (Integer, Long, Float, Double, BigDecimal, byte[]; YEAR
 *       as 1900 + the stored byte, ENUM as its index, SET as its bitmask).
 * </ul>
 */
final class RawRowsDeserializer extends AbstractRowsEventDataDeserializer<EventData> {

    private enum Kind {
        WRITE,
        UPDATE,
        /** MySQL's PARTIAL_UPDATE_ROWS_EVENT ({@link PartialUpdateRows}). */
        PARTIAL_UPDATE,
        DELETE
    }

    private static final long DATETIME_SIGN = 0x8000000000L;
    private static final int TIME_SIGN = 0x800000;
    private static final long TIME6_SIGN = 0x800000000000L;

    private final Kind kind;
    private final boolean extraData;
    private final EventBody body = new EventBody();
    private final Map<Long, TableMapEventData> tableMaps;

    private RawRowsDeserializer(
            Map<Long, TableMapEventData> tableMaps, Kind kind, boolean extraData) {
        super(tableMaps);
        this.tableMaps = tableMaps;
        this.kind = kind;
        this.extraData = extraData;
    }

    /**
     * An event deserializer with the client's defaults for every other event and this one for rows
     * events, sharing one table-map registry; table maps cached ({@link TableMapCache}), headers
     * read at once ({@link EventHeaderReader}), MariaDB's compressed events read ({@link
     * CompressedEvents}), MySQL's compressed transactions read with these parsers ({@link
     * TransactionPayloads}) and query texts and names decoded in the binlog's charsets ({@link
     * QueryEventTexts}, {@link TableMapNames}).
     */
    static EventDeserializer eventDeserializer() {
        Map<Long, TableMapEventData> tableMaps = new HashMap<>();
        EventDeserializer defaults = new EventDeserializer();
        Map<EventType, EventDataDeserializer> byType = new EnumMap<>(EventType.class);
        for (EventType type : EventType.values()) {
            byType.put(type, defaults.getEventDataDeserializer(type));
        }
        byType.put(EventType.GTID, new GtidEventDeserializer());
        byType.put(
                EventType.PRE_GA_WRITE_ROWS, new RawRowsDeserializer(tableMaps, Kind.WRITE, false));
        byType.put(EventType.WRITE_ROWS, new RawRowsDeserializer(tableMaps, Kind.WRITE, false));
        byType.put(EventType.EXT_WRITE_ROWS, new RawRowsDeserializer(tableMaps, Kind.WRITE, true));
        byType.put(
                EventType.PRE_GA_UPDATE_ROWS,
                new RawRowsDeserializer(tableMaps, Kind.UPDATE, false));
        byType.put(EventType.UPDATE_ROWS, new RawRowsDeserializer(tableMaps, Kind.UPDATE, false));
        byType.put(
                EventType.EXT_UPDATE_ROWS, new RawRowsDeserializer(tableMaps, Kind.UPDATE, true));
        byType.put(
                EventType.PRE_GA_DELETE_ROWS,
                new RawRowsDeserializer(tableMaps, Kind.DELETE, false));
        byType.put(EventType.DELETE_ROWS, new RawRowsDeserializer(tableMaps, Kind.DELETE, false));
        byType.put(
                EventType.EXT_DELETE_ROWS, new RawRowsDeserializer(tableMaps, Kind.DELETE, true));
        byType.put(
                EventType.PARTIAL_UPDATE_ROWS_EVENT,
                new RawRowsDeserializer(tableMaps, Kind.PARTIAL_UPDATE, true));
        byType.put(EventType.QUERY, new QueryEventTexts());
        byType.put(EventType.EXECUTE_LOAD_QUERY, QueryEventTexts.ofExecuteLoadQuery());
        CompressedEvents compressed = new CompressedEvents();
        // A compressed transaction's events: these parsers and table maps, without checksums. The
        // map of parsers is shared, so what is set on the outer deserializer below holds for them.
        EventDeserializer payloadEvents =
                new TableMapCache.Events(
                        new EventHeaderReader(compressed),
                        new NullEventDataDeserializer(),
                        byType,
                        tableMaps);
        byType.put(EventType.TRANSACTION_PAYLOAD, new TransactionPayloads(payloadEvents));
        EventDeserializer deserializer =
                new TableMapCache.Events(
                        new EventHeaderReader(compressed),
                        new NullEventDataDeserializer(),
                        byType,
                        tableMaps);
        deserializer.setCompatibilityMode(CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        compressed.install(deserializer);
        return deserializer;
    }

    @Override
    public EventData deserialize(ByteArrayInputStream event) throws IOException {
        ByteArrayInputStream in = body.refill(event);
        long tableId = in.readLong(6);
        in.skip(2); // flags
        if (extraData) {
            in.skip(in.readInteger(2) - 2);
        }
        int columns = in.readPackedInteger();
        BitSet included = in.readBitSet(columns, true);
        switch (kind) {
            case UPDATE:
            case PARTIAL_UPDATE:
                BitSet includedAfter = in.readBitSet(columns, true);
                List<Map.Entry<Serializable[], Serializable[]>> pairs = new ArrayList<>();
                List<BitSet> diffs = kind == Kind.PARTIAL_UPDATE ? new ArrayList<>() : null;
                while (in.available() > 0) {
                    Serializable[] before = deserializeRow(tableId, included, in);
                    BitSet diff =
                            diffs != null
                                    ? PartialUpdateRows.readDiffColumns(in, tableMaps.get(tableId))
                                    : null;
                    Serializable[] after = deserializeRow(tableId, includedAfter, in);
                    if (diffs != null) {
                        diffs.add(PartialUpdateRows.withoutEmptyDiffs(diff, before, after));
                    }
                    pairs.add(new AbstractMap.SimpleEntry<>(before, after));
                }
                UpdateRowsEventData update =
                        diffs != null ? new PartialUpdateRows(diffs) : new UpdateRowsEventData();
                update.setTableId(tableId);
                update.setIncludedColumnsBeforeUpdate(included);
                update.setIncludedColumns(includedAfter);
                update.setRows(pairs);
                return update;
            case DELETE:
                DeleteRowsEventData delete = new DeleteRowsEventData();
                delete.setTableId(tableId);
                delete.setIncludedColumns(included);
                delete.setRows(rows(tableId, included, in));
                return delete;
            default:
                WriteRowsEventData write = new WriteRowsEventData();
                write.setTableId(tableId);
                write.setIncludedColumns(included);
                write.setRows(rows(tableId, included, in));
                return write;
        }
    }

    private List<Serializable[]> rows(long tableId, BitSet included, ByteArrayInputStream in)
            throws IOException {
        List<Serializable[]> rows = new ArrayList<>();
        while (in.available() > 0) {
            rows.add(deserializeRow(tableId, included, in));
        }
        return rows;
    }

    @Override
    protected Serializable deserializeBit(int meta, ByteArrayInputStream in) throws IOException {
        int bits = (meta >> 8) * 8 + (meta & 0xff);
        return bigEndian(in, (bits + 7) >> 3);
    }

    @Override
    protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
        return (long) in.readInteger(3);
    }

    @Override
    protected Serializable deserializeTime(ByteArrayInputStream in) throws IOException {
        int value = in.readInteger(3) << 8 >> 8; // signed 24 bits: [-]HHMMSS
        int abs = Math.abs(value);
        long seconds = abs / 10000 * 3600L + abs / 100 % 100 * 60L + abs % 100;
        return (value < 0 ? -seconds : seconds) * 1_000_000L;
    }

    /** MySQL's {@code my_time_packed_from_binary}, then the packed value as microseconds. */
    @Override
    protected Serializable deserializeTimeV2(int fsp, ByteArrayInputStream in) throws IOException {
        long packed;
        if (fsp >= 5) {
            packed = bigEndian(in, 6) - TIME6_SIGN;
        } else {
            long intPart = bigEndian(in, 3) - TIME_SIGN;
            long frac = 0;
            if (fsp >= 3) {
                frac = bigEndian(in, 2);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x10000;
                }
                frac *= 100;
            } else if (fsp >= 1) {
                frac = in.read();
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x100;
                }
                frac *= 10_000;
            }
            packed = (intPart << 24) + frac;
        }
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        long micros =
                ((hms >> 12 & 0x3ff) * 3600 + (hms >> 6 & 0x3f) * 60 + (hms & 0x3f)) * 1_000_000L
                        + (abs & 0xffffff);
        return packed < 0 ? -micros : micros;
    }

    @Override
    protected Serializable deserializeDatetime(ByteArrayInputStream in) throws IOException {
        long value = in.readLong(8); // YYYYMMDDhhmmss
        long date = value / 1_000_000;
        long time = value % 1_000_000;
        long ymd = (date / 10000 * 13 + date / 100 % 100) << 5 | date % 100;
        long hms = time / 10000 << 12 | time / 100 % 100 << 6 | time % 100;
        return (ymd << 17 | hms) << 24;
    }

    @Override
    protected Serializable deserializeDatetimeV2(int fsp, ByteArrayInputStream in)
            throws IOException {
        long intPart = bigEndian(in, 5) - DATETIME_SIGN;
        return intPart << 24 | fraction(fsp, in);
    }

    @Override
    protected Serializable deserializeTimestamp(ByteArrayInputStream in) throws IOException {
        return in.readLong(4) * 1_000_000L;
    }

    @Override
    protected Serializable deserializeTimestampV2(int fsp, ByteArrayInputStream in)
            throws IOException {
        long seconds = bigEndian(in, 4);
        return seconds * 1_000_000L + fraction(fsp, in);
    }

    /** The unsigned fraction of DATETIME2/TIMESTAMP2, as microseconds. */
    private static long fraction(int fsp, ByteArrayInputStream in) throws IOException {
        switch ((fsp + 1) / 2) {
            case 1:
                return in.read() * 10_000L;
            case 2:
                return bigEndian(in, 2) * 100L;
            case 3:
                return bigEndian(in, 3);
            default:
                return 0;
        }
    }

    private static long bigEndian(ByteArrayInputStream in, int bytes) throws IOException {
        long value = 0;
        for (int i = 0; i < bytes; i++) {
            value = value << 8 | in.read();
        }
        return value;
    }
}

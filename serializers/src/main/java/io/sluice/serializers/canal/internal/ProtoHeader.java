package io.sluice.serializers.canal.internal;

import io.sluice.serializers.event.ChangeEvent;

import java.nio.charset.StandardCharsets;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_EVENT_LENGTH;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_EVENT_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_EXECUTE_TIME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_GTID;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_LOGFILE_NAME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_LOGFILE_OFFSET;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_PROPS;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_SCHEMA_NAME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_SERVERENCODE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_SERVER_ID;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_SOURCE_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_TABLE_NAME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.HEADER_VERSION;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PAIR_KEY;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.PAIR_VALUE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.SOURCE_TYPE_MYSQL;

/**
 * Measures, then writes, the {@code CanalEntry.Header} of one entry as Canal's {@code
 * LogEventConvert.createHeader} fills it. Every field Canal sets is written even when it holds the
 * default, because the shipped CanalEntry classes are proto2 (notes §3.1).
 *
 * <ul>
 *   <li>version=1, logfileName, logfileOffset (the event's start position), serverId,
 *       serverenCode="UTF-8", executeTime, sourceType=MYSQL: always.
 *   <li>schemaName, tableName: always for rows (Canal passes the table-map names) and for the QUERY
 *       of a DML statement; for a DDL only when not empty, as Canal leaves out a name its DDL
 *       parser did not find (null).
 *   <li>eventLength: always written, as 0. Sluice does not see the binlog event's length, and a
 *       made-up value would be worse than an obvious one; Canal consumers use the offset, not this.
 *   <li>eventType, then props: {@code rowsCount} (the number of rows) for row events only, then the
 *       caller's extra pair, if any ({@link #extra}).
 *   <li>gtid: only when not empty. Canal's own curtGtid* props are not written: Sluice has only the
 *       one GTID string.
 * </ul>
 */
public final class ProtoHeader {

    private static final byte[] UTF_8 = "UTF-8".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ROWS_COUNT = "rowsCount".getBytes(StandardCharsets.US_ASCII);

    /** version, sourceType, eventLength and eventType: one-byte tags with one-byte values. */
    private static final int SMALL_FIELD_BYTES = 8;

    private ChangeEvent first;
    private ProtoTableLayout layout;
    private int rowsCount;
    private int logfileNameLength;
    private int gtidLength;
    private int pairSize;
    private byte[] extraKey;
    private byte[] extraValue;
    private int extraPairSize;

    /**
     * One more {@code props} pair for the next {@link #measure}/{@link #write}, or none when {@code
     * key} is null. Cleared by {@link #write}.
     */
    public void extra(String key, String value) {
        extraKey = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        extraValue = key == null ? null : value.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Measures the header of an entry of {@code rowsCount} rows (0 for a DDL) starting with {@code
     * first}.
     *
     * @return its encoded size, without a tag or length of its own
     */
    public int measure(ChangeEvent first, ProtoTableLayout layout, int rowsCount) {
        this.first = first;
        this.layout = layout;
        this.rowsCount = rowsCount;
        logfileNameLength = ProtoWire.utf8Length(first.binlogFile());
        gtidLength = ProtoWire.utf8Length(first.gtid());
        int size =
                SMALL_FIELD_BYTES
                        + 1
                        + ProtoWire.delimitedSize(logfileNameLength)
                        + 1
                        + ProtoWire.varint64Size(first.binlogPosition())
                        + 1
                        + ProtoWire.varint64Size(first.serverId())
                        + 1
                        + ProtoWire.delimitedSize(UTF_8.length)
                        + 1
                        + ProtoWire.varint64Size(first.executeTime());
        if (writesName(layout.database())) {
            size += 1 + ProtoWire.delimitedSize(layout.database().length);
        }
        if (writesName(layout.table())) {
            size += 1 + ProtoWire.delimitedSize(layout.table().length);
        }
        if (rowsCount > 0) {
            pairSize =
                    1
                            + ProtoWire.delimitedSize(ROWS_COUNT.length)
                            + 1
                            + ProtoWire.delimitedSize(ProtoWire.decimalLength(rowsCount));
            size += 1 + ProtoWire.delimitedSize(pairSize);
        }
        if (extraKey != null) {
            extraPairSize =
                    1
                            + ProtoWire.delimitedSize(extraKey.length)
                            + 1
                            + ProtoWire.delimitedSize(extraValue.length);
            size += 1 + ProtoWire.delimitedSize(extraPairSize);
        }
        if (gtidLength > 0) {
            size += 1 + ProtoWire.delimitedSize(gtidLength);
        }
        return size;
    }

    /** Writes the header measured last: exactly the size {@link #measure} returned. */
    public void write(ProtoWriter out) {
        out.tag(HEADER_VERSION);
        out.varint32(1);
        out.tag(HEADER_LOGFILE_NAME);
        out.varint32(logfileNameLength);
        out.utf8(first.binlogFile());
        out.tag(HEADER_LOGFILE_OFFSET);
        out.varint64(first.binlogPosition());
        out.tag(HEADER_SERVER_ID);
        out.varint64(first.serverId());
        out.tag(HEADER_SERVERENCODE);
        writeBytes(out, UTF_8);
        out.tag(HEADER_EXECUTE_TIME);
        out.varint64(first.executeTime());
        out.tag(HEADER_SOURCE_TYPE);
        out.varint32(SOURCE_TYPE_MYSQL);
        if (writesName(layout.database())) {
            out.tag(HEADER_SCHEMA_NAME);
            writeBytes(out, layout.database());
        }
        if (writesName(layout.table())) {
            out.tag(HEADER_TABLE_NAME);
            writeBytes(out, layout.table());
        }
        out.tag(HEADER_EVENT_LENGTH);
        out.varint32(0); // the binlog event length is unknown to Sluice: 0, see the class doc
        out.tag(HEADER_EVENT_TYPE);
        out.varint32(first.type().canalNumber());
        if (rowsCount > 0) {
            out.tag(HEADER_PROPS);
            out.varint32(pairSize);
            out.tag(PAIR_KEY);
            writeBytes(out, ROWS_COUNT);
            out.tag(PAIR_VALUE);
            out.varint32(ProtoWire.decimalLength(rowsCount));
            out.decimal(rowsCount);
        }
        if (extraKey != null) {
            out.tag(HEADER_PROPS);
            out.varint32(extraPairSize);
            out.tag(PAIR_KEY);
            writeBytes(out, extraKey);
            out.tag(PAIR_VALUE);
            writeBytes(out, extraValue);
            extraKey = null;
            extraValue = null;
        }
        if (gtidLength > 0) {
            out.tag(HEADER_GTID);
            out.varint32(gtidLength);
            out.utf8(first.gtid());
        }
        first = null; // do not hold on to the caller's change
    }

    private boolean writesName(byte[] name) {
        return name.length > 0 || !first.isDdl();
    }

    private static void writeBytes(ProtoWriter out, byte[] bytes) {
        out.varint32(bytes.length);
        out.bytes(bytes, 0, bytes.length);
    }
}

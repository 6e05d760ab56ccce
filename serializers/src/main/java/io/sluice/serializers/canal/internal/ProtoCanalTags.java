package io.sluice.serializers.canal.internal;

import static io.sluice.serializers.canal.internal.ProtoWire.LEN;
import static io.sluice.serializers.canal.internal.ProtoWire.VARINT;
import static io.sluice.serializers.canal.internal.ProtoWire.tag;

/**
 * The tags of the Canal 1.1.8 protobuf fields Sluice writes, in one place so they can be checked
 * against {@code EntryProtocol.proto} / {@code CanalProtocol.proto} (docs/dev/canal-format-notes.md
 * §3.2). Within each message the fields are written in this (ascending) order.
 */
public final class ProtoCanalTags {

    // CanalPacket.Packet (proto3)
    public static final int PACKET_VERSION = tag(2, VARINT);
    public static final int PACKET_TYPE = tag(3, VARINT);
    public static final int PACKET_BODY = tag(5, LEN);

    /** {@code PacketType.MESSAGES}. */
    public static final int PACKET_TYPE_MESSAGES = 7;

    // CanalPacket.Messages (proto3)
    public static final int MESSAGES_BATCH_ID = tag(1, VARINT);
    public static final int MESSAGES_MESSAGES = tag(2, LEN);

    // CanalEntry.Entry (proto2)
    public static final int ENTRY_HEADER = tag(1, LEN);
    public static final int ENTRY_ENTRY_TYPE = tag(2, VARINT);
    public static final int ENTRY_STORE_VALUE = tag(3, LEN);

    /** {@code EntryType.ROWDATA}. */
    public static final int ENTRY_TYPE_ROWDATA = 2;

    // CanalEntry.Header (proto2)
    public static final int HEADER_VERSION = tag(1, VARINT);
    public static final int HEADER_LOGFILE_NAME = tag(2, LEN);
    public static final int HEADER_LOGFILE_OFFSET = tag(3, VARINT);
    public static final int HEADER_SERVER_ID = tag(4, VARINT);
    public static final int HEADER_SERVERENCODE = tag(5, LEN);
    public static final int HEADER_EXECUTE_TIME = tag(6, VARINT);
    public static final int HEADER_SOURCE_TYPE = tag(7, VARINT);
    public static final int HEADER_SCHEMA_NAME = tag(8, LEN);
    public static final int HEADER_TABLE_NAME = tag(9, LEN);
    public static final int HEADER_EVENT_LENGTH = tag(10, VARINT);
    public static final int HEADER_EVENT_TYPE = tag(11, VARINT);
    public static final int HEADER_PROPS = tag(12, LEN);
    public static final int HEADER_GTID = tag(13, LEN);

    /** {@code Type.MYSQL}. */
    public static final int SOURCE_TYPE_MYSQL = 2;

    // CanalEntry.Pair (proto2)
    public static final int PAIR_KEY = tag(1, LEN);
    public static final int PAIR_VALUE = tag(2, LEN);

    // CanalEntry.RowChange (proto2); tableId (1) and props (13) are not written
    public static final int ROW_CHANGE_EVENT_TYPE = tag(2, VARINT);
    public static final int ROW_CHANGE_IS_DDL = tag(10, VARINT);
    public static final int ROW_CHANGE_SQL = tag(11, LEN);
    public static final int ROW_CHANGE_ROW_DATAS = tag(12, LEN);
    public static final int ROW_CHANGE_DDL_SCHEMA_NAME = tag(14, LEN);

    // CanalEntry.RowData (proto2)
    public static final int ROW_DATA_BEFORE_COLUMNS = tag(1, LEN);
    public static final int ROW_DATA_AFTER_COLUMNS = tag(2, LEN);

    // CanalEntry.Column (proto2); props (7) and length (9) are never set by Canal
    public static final int COLUMN_INDEX = tag(1, VARINT);
    public static final int COLUMN_SQL_TYPE = tag(2, VARINT);
    public static final int COLUMN_NAME = tag(3, LEN);
    public static final int COLUMN_IS_KEY = tag(4, VARINT);
    public static final int COLUMN_UPDATED = tag(5, VARINT);
    public static final int COLUMN_IS_NULL = tag(6, VARINT);
    public static final int COLUMN_VALUE = tag(8, LEN);
    public static final int COLUMN_MYSQL_TYPE = tag(10, LEN);

    private ProtoCanalTags() {}
}

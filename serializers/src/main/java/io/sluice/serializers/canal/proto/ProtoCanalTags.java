package io.sluice.serializers.canal.proto;

/**
 * The tags ({@code field number << 3 | wire type}; constants, so readers can switch on them; every
 * number is below 16, so each tag is one byte) of the Canal 1.1.8 protobuf fields, and the enum
 * numbers, that Sluice writes ({@code canal-binary}) and reads back ({@code ./sluice canal-diff}),
 * in one place so they can be checked against {@code EntryProtocol.proto} / {@code
 * CanalProtocol.proto} (docs/dev/canal-format-notes.md §3.2). Within each message the fields are
 * written in this (ascending) order. Fields marked "read only" are Canal's but never written by
 * Sluice. Not an API: shared by the encoder and the tools that decode its output.
 */
public final class ProtoCanalTags {

    /** Wire type of varint fields (int32, int64, bool, enum). */
    public static final int VARINT = 0;

    /** Wire type of length-delimited fields (string, bytes, embedded messages). */
    public static final int LEN = 2;

    // CanalPacket.Packet (proto3)
    public static final int PACKET_VERSION = 2 << 3 | VARINT;
    public static final int PACKET_TYPE = 3 << 3 | VARINT;
    public static final int PACKET_COMPRESSION = 4 << 3 | VARINT; // read only
    public static final int PACKET_BODY = 5 << 3 | LEN;

    /** {@code PacketType.MESSAGES}. */
    public static final int PACKET_TYPE_MESSAGES = 7;

    /** {@code Compression.NONE}; 0 (unset) means the same. */
    public static final int COMPRESSION_NONE = 1;

    // CanalPacket.Messages (proto3)
    public static final int MESSAGES_BATCH_ID = 1 << 3 | VARINT;
    public static final int MESSAGES_MESSAGES = 2 << 3 | LEN;

    // CanalEntry.Entry (proto2)
    public static final int ENTRY_HEADER = 1 << 3 | LEN;
    public static final int ENTRY_ENTRY_TYPE = 2 << 3 | VARINT;
    public static final int ENTRY_STORE_VALUE = 3 << 3 | LEN;

    /** {@code EntryType.ROWDATA}. */
    public static final int ENTRY_TYPE_ROWDATA = 2;

    // CanalEntry.Header (proto2)
    public static final int HEADER_VERSION = 1 << 3 | VARINT;
    public static final int HEADER_LOGFILE_NAME = 2 << 3 | LEN;
    public static final int HEADER_LOGFILE_OFFSET = 3 << 3 | VARINT;
    public static final int HEADER_SERVER_ID = 4 << 3 | VARINT;
    public static final int HEADER_SERVERENCODE = 5 << 3 | LEN;
    public static final int HEADER_EXECUTE_TIME = 6 << 3 | VARINT;
    public static final int HEADER_SOURCE_TYPE = 7 << 3 | VARINT;
    public static final int HEADER_SCHEMA_NAME = 8 << 3 | LEN;
    public static final int HEADER_TABLE_NAME = 9 << 3 | LEN;
    public static final int HEADER_EVENT_LENGTH = 10 << 3 | VARINT;
    public static final int HEADER_EVENT_TYPE = 11 << 3 | VARINT;
    public static final int HEADER_PROPS = 12 << 3 | LEN;
    public static final int HEADER_GTID = 13 << 3 | LEN;

    /** {@code Type.MYSQL}. */
    public static final int SOURCE_TYPE_MYSQL = 2;

    // CanalEntry.Pair (proto2)
    public static final int PAIR_KEY = 1 << 3 | LEN;
    public static final int PAIR_VALUE = 2 << 3 | LEN;

    // CanalEntry.RowChange (proto2)
    public static final int ROW_CHANGE_TABLE_ID = 1 << 3 | VARINT; // read only
    public static final int ROW_CHANGE_EVENT_TYPE = 2 << 3 | VARINT;
    public static final int ROW_CHANGE_IS_DDL = 10 << 3 | VARINT;
    public static final int ROW_CHANGE_SQL = 11 << 3 | LEN;
    public static final int ROW_CHANGE_ROW_DATAS = 12 << 3 | LEN;
    public static final int ROW_CHANGE_PROPS = 13 << 3 | LEN; // read only
    public static final int ROW_CHANGE_DDL_SCHEMA_NAME = 14 << 3 | LEN;

    // CanalEntry.RowData (proto2)
    public static final int ROW_DATA_BEFORE_COLUMNS = 1 << 3 | LEN;
    public static final int ROW_DATA_AFTER_COLUMNS = 2 << 3 | LEN;
    public static final int ROW_DATA_PROPS = 3 << 3 | LEN; // read only

    // CanalEntry.Column (proto2); Canal never sets props and length either
    public static final int COLUMN_INDEX = 1 << 3 | VARINT;
    public static final int COLUMN_SQL_TYPE = 2 << 3 | VARINT;
    public static final int COLUMN_NAME = 3 << 3 | LEN;
    public static final int COLUMN_IS_KEY = 4 << 3 | VARINT;
    public static final int COLUMN_UPDATED = 5 << 3 | VARINT;
    public static final int COLUMN_IS_NULL = 6 << 3 | VARINT;
    public static final int COLUMN_PROPS = 7 << 3 | LEN; // read only
    public static final int COLUMN_VALUE = 8 << 3 | LEN;
    public static final int COLUMN_LENGTH = 9 << 3 | VARINT; // read only
    public static final int COLUMN_MYSQL_TYPE = 10 << 3 | LEN;

    private ProtoCanalTags() {}
}

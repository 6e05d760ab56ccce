package io.sluice.serializers.canal.internal;

import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.nio.charset.StandardCharsets;

import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_INDEX;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_IS_KEY;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_IS_NULL;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_MYSQL_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_NAME;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_SQL_TYPE;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_UPDATED;
import static io.sluice.serializers.canal.proto.ProtoCanalTags.COLUMN_VALUE;

/**
 * A table version's {@code CanalEntry.Column} bytes that do not depend on the row, encoded once.
 *
 * <p>Canal sets a column's fields in this order on the wire: index, sqlType, name, isKey (the
 * "head", fixed per column), updated, isNull, value (per row), mysqlType (the "tail", fixed). So a
 * column is written as two array copies around five or so bytes of row data, and its size is a
 * constant plus the value's length.
 */
public final class ProtoTableLayout {

    /** updated and isNull: a one-byte tag and a one-byte bool each, always written. */
    private static final int FLAG_BYTES = 4;

    private final TableSchema schema;
    private final byte[] fixed;
    // Column c's head is fixed[tailEnd[c - 1], headEnd[c]), its tail fixed[headEnd[c], tailEnd[c]).
    private final int[] headEnd;
    private final int[] tailEnd;
    private final byte[] database;
    private final byte[] table;

    private ProtoTableLayout(TableSchema schema, byte[] fixed, int[] headEnd, int[] tailEnd) {
        this.schema = schema;
        this.fixed = fixed;
        this.headEnd = headEnd;
        this.tailEnd = tailEnd;
        this.database = schema.database().getBytes(StandardCharsets.UTF_8);
        this.table = schema.table().getBytes(StandardCharsets.UTF_8);
    }

    /** Encodes the fixed parts of every column of {@code schema}. */
    public static ProtoTableLayout of(TableSchema schema) {
        int n = schema.columnCount();
        int total = 0;
        for (int c = 0; c < n; c++) {
            total += headSize(schema, c) + tailSize(schema, c);
        }
        byte[] fixed = new byte[total];
        int[] headEnd = new int[n];
        int[] tailEnd = new int[n];
        ProtoWriter out = new ProtoWriter();
        out.reset(fixed);
        for (int c = 0; c < n; c++) {
            out.tag(COLUMN_INDEX);
            out.varint32(c);
            out.tag(COLUMN_SQL_TYPE);
            out.int32(schema.sqlType(c));
            out.tag(COLUMN_NAME);
            writeString(out, schema.name(c));
            out.tag(COLUMN_IS_KEY);
            out.bool(schema.isKey(c));
            headEnd[c] = out.position();
            out.tag(COLUMN_MYSQL_TYPE);
            writeString(out, schema.mysqlType(c));
            tailEnd[c] = out.position();
        }
        return new ProtoTableLayout(schema, fixed, headEnd, tailEnd);
    }

    public TableSchema schema() {
        return schema;
    }

    public int columnCount() {
        return headEnd.length;
    }

    /** UTF-8 of the database name. Shared: do not modify. */
    public byte[] database() {
        return database;
    }

    /** UTF-8 of the table name. Shared: do not modify. */
    public byte[] table() {
        return table;
    }

    /** Size of the body of column {@code c} of {@code row} (without its own tag and length). */
    public int columnSize(RowImage row, int c) {
        int size = tailEnd[c] - headStart(c) + FLAG_BYTES;
        if (!row.isNull(c)) {
            size += 1 + ProtoWire.delimitedSize(row.length(c));
        }
        return size;
    }

    /** Writes the body of column {@code c} of {@code row}: {@link #columnSize} bytes. */
    public void writeColumn(ProtoWriter out, RowImage row, int c, boolean updated) {
        int headStart = headStart(c);
        int headEnd = this.headEnd[c];
        out.bytes(fixed, headStart, headEnd - headStart);
        out.tag(COLUMN_UPDATED);
        out.bool(updated);
        out.tag(COLUMN_IS_NULL);
        boolean isNull = row.isNull(c);
        out.bool(isNull);
        if (!isNull) {
            // Canal sets value only when not NULL; "" is still written (42 00).
            int length = row.length(c);
            out.tag(COLUMN_VALUE);
            out.varint32(length);
            out.bytes(row.utf8(), row.start(c), length);
        }
        out.bytes(fixed, headEnd, tailEnd[c] - headEnd);
    }

    private int headStart(int c) {
        return c == 0 ? 0 : tailEnd[c - 1];
    }

    private static int headSize(TableSchema schema, int c) {
        return 1
                + ProtoWire.varint32Size(c)
                + 1
                + ProtoWire.int32Size(schema.sqlType(c))
                + 1
                + stringSize(schema.name(c))
                + 2;
    }

    private static int tailSize(TableSchema schema, int c) {
        return 1 + stringSize(schema.mysqlType(c));
    }

    private static int stringSize(String text) {
        return ProtoWire.delimitedSize(ProtoWire.utf8Length(text));
    }

    private static void writeString(ProtoWriter out, String text) {
        out.varint32(ProtoWire.utf8Length(text));
        out.utf8(text);
    }
}

package io.sluice.tools.bench;

import io.sluice.functions.source.binlog.BinlogColumn;
import io.sluice.functions.source.binlog.RowsEventDecoder;
import io.sluice.functions.source.internal.DeclaredType;
import io.sluice.functions.source.internal.ValueRenderer;
import io.sluice.functions.source.internal.ValueRenderers;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The spike of a Sluice-owned chunk reader: a table read in key order, chunk by chunk, each chunk
 * one streaming {@code SELECT * ... WHERE id > ? ORDER BY id LIMIT n} over JDBC, each row rendered
 * into a {@link ChangeEvent}: integers and decimals by Sluice's renderers from their JDBC values,
 * every other column (text, DATETIME, TIMESTAMP in a UTC session) as the server's own text bytes.
 * It measures speed only: a production reader renders every type as the binlog side does (and is
 * checked against it). One thread, no Flink: the speed such a reader reaches on one core, to hold
 * against the server's plain SELECT.
 */
final class ChunkReaderSpike {

    private final Connection connection;
    private final String database;
    private final int chunkRows;
    private long changes;
    private long textBytes;

    ChunkReaderSpike(Connection connection, String database, int chunkRows) throws SQLException {
        this.connection = connection;
        this.database = database;
        this.chunkRows = chunkRows;
        try (Statement session = connection.createStatement()) {
            session.execute("SET time_zone = '+00:00'");
        }
    }

    /** Reads every row of {@code table} (BIGINT key {@code id} first); returns the rows read. */
    long read(String table) throws SQLException {
        List<BinlogColumn> columns = BinlogColumn.read(connection, database, table);
        TableSchema schema = RowsEventDecoder.of(database, table, columns, ZoneOffset.UTC).schema();
        ValueRenderer[] renderers = new ValueRenderer[columns.size()];
        for (int c = 0; c < renderers.length; c++) {
            renderers[c] = renderer(columns.get(c).type());
        }
        RowImage.Builder image = new RowImage.Builder(256, renderers.length);
        StringBuilder scratch = new StringBuilder(64);
        long rows = 0;
        long last = Long.MIN_VALUE;
        try (PreparedStatement chunk =
                connection.prepareStatement(
                        "SELECT * FROM `" + table + "` WHERE id > ? ORDER BY id LIMIT ?",
                        ResultSet.TYPE_FORWARD_ONLY,
                        ResultSet.CONCUR_READ_ONLY)) {
            chunk.setFetchSize(Integer.MIN_VALUE);
            while (true) {
                chunk.setLong(1, last);
                chunk.setInt(2, chunkRows);
                int inChunk = 0;
                try (ResultSet result = chunk.executeQuery()) {
                    while (result.next()) {
                        last = result.getLong(1);
                        for (int c = 0; c < renderers.length; c++) {
                            column(result, c + 1, renderers[c], scratch, image);
                        }
                        RowImage after = image.build();
                        textBytes += after.utf8().length;
                        ChangeEvent event =
                                ChangeEvent.builder(schema, ChangeType.INSERT).after(after).build();
                        if (event != null) {
                            changes++;
                        }
                        inChunk++;
                    }
                }
                rows += inChunk;
                if (inChunk < chunkRows) {
                    return rows;
                }
            }
        }
    }

    long changes() {
        return changes;
    }

    long textBytes() {
        return textBytes;
    }

    private static void column(
            ResultSet result,
            int column,
            ValueRenderer renderer,
            StringBuilder scratch,
            RowImage.Builder image)
            throws SQLException {
        if (renderer == null) {
            byte[] text = result.getBytes(column);
            if (text == null) {
                image.appendNull();
            } else {
                image.appendUtf8(text, 0, text.length);
            }
            return;
        }
        Object value =
                renderer instanceof DecimalMarker
                        ? result.getBigDecimal(column)
                        : (Object) result.getLong(column);
        if (result.wasNull()) {
            image.appendNull();
            return;
        }
        renderer.render(value, scratch, image);
        scratch.setLength(0);
    }

    /** Sluice's renderer for integers and decimals; null: the server's text as it is. */
    private static ValueRenderer renderer(DeclaredType type) {
        switch (type.base()) {
            case "tinyint":
            case "smallint":
            case "mediumint":
            case "int":
            case "bigint":
                return type.isUnsigned() ? null : ValueRenderers.signedInteger();
            case "decimal":
                return new DecimalMarker(ValueRenderers.decimal(Math.max(type.scale(), 0)));
            default:
                return null;
        }
    }

    /** A decimal column's renderer, which takes the JDBC BigDecimal. */
    private static final class DecimalMarker implements ValueRenderer {
        private final ValueRenderer decimal;

        DecimalMarker(ValueRenderer decimal) {
            this.decimal = decimal;
        }

        @Override
        public void render(Object value, StringBuilder scratch, RowImage.Builder out) {
            decimal.render(value, scratch, out);
        }
    }
}

package io.sluice.functions.source.binlog;

import io.sluice.functions.source.internal.SourceJdbc;

import javax.annotation.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.function.BiPredicate;

/**
 * The decoder of a table's rows events, asked for once per table map id by {@link BinlogReader}.
 * Today's source is {@code information_schema} at the time of asking ({@link
 * #fromInformationSchema}); a schema tracked over the binlog can take its place.
 */
@FunctionalInterface
public interface TableDecoders {

    /**
     * The decoder of {@code database.table} as its rows at {@code position} were written, or null
     * when the table is not captured (its rows events are then counted, not decoded).
     *
     * @param position where the reader is: the rows event's transaction
     */
    @Nullable
    RowsEventDecoder decoder(String database, String table, BinlogPosition position);

    /**
     * Each captured table's current columns from {@code information_schema} ({@link
     * BinlogColumn#read}): right as long as the table has not changed since the rows were written.
     *
     * @param captured which (database, table) to decode
     * @param timestampZone the zone TIMESTAMP values are written in
     */
    static TableDecoders fromInformationSchema(
            SourceJdbc jdbc, BiPredicate<String, String> captured, ZoneId timestampZone) {
        return (database, table, position) -> {
            if (!captured.test(database, table)) {
                return null;
            }
            try (Connection connection = jdbc.connect()) {
                return RowsEventDecoder.of(
                        database,
                        table,
                        BinlogColumn.read(connection, database, table),
                        timestampZone);
            } catch (SQLException e) {
                throw new IllegalStateException(
                        String.format(
                                "Cannot read the columns of %s.%s from information_schema at %s:"
                                        + " %s",
                                database, table, jdbc.address(), e.getMessage()),
                        e);
            }
        };
    }
}

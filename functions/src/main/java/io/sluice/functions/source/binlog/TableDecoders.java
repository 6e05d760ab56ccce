package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.sluice.functions.source.internal.SourceJdbc;

import javax.annotation.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.function.BiPredicate;

/**
 * The decoder of a table's rows events at the current binlog point, asked for once per table map id
 * and again after each DDL (which it is given first, {@link #applyDdl}) by {@link BinlogReader}:
 * {@link TableSchemas} (each table's schema at each point of the binlog), or {@code
 * information_schema} at the time of asking ({@link #fromInformationSchema}).
 */
@FunctionalInterface
public interface TableDecoders {

    /**
     * The decoder of the rows events of {@code database.table} that follow {@code tableMap}, or
     * null when the table is not captured (its rows events are then counted, not decoded).
     */
    @Nullable
    RowsEventDecoder decoder(String database, String table, TableMapEventData tableMap);

    /**
     * A DDL statement of the binlog, given before the table maps after it ({@link TableSchemas}
     * follows it; nothing else does).
     *
     * @param position where the statement is, for messages
     */
    default void applyDdl(String sql, String database, String position) {}

    /**
     * Whether the rows of {@code database.table} are captured: a statement the binlog holds as text
     * that writes it loses rows ({@link StatementLoggedRows}). Every table by default, so that such
     * a statement is never passed over unseen.
     */
    default boolean captures(String database, String table) {
        return true;
    }

    /**
     * Each captured table's current columns from {@code information_schema} ({@link
     * BinlogColumn#read}): right as long as the table has not changed since the rows were written.
     *
     * @param captured which (database, table) to decode
     * @param timestampZone the zone TIMESTAMP values are written in
     */
    static TableDecoders fromInformationSchema(
            SourceJdbc jdbc, BiPredicate<String, String> captured, ZoneId timestampZone) {
        return new TableDecoders() {
            @Override
            public RowsEventDecoder decoder(
                    String database, String table, TableMapEventData tableMap) {
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
                                    "Cannot read the columns of %s.%s from information_schema at"
                                            + " %s: %s",
                                    database, table, jdbc.address(), e.getMessage()),
                            e);
                }
            }

            @Override
            public boolean captures(String database, String table) {
                return captured.test(database, table);
            }
        };
    }
}

package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;

/** Gives the binlog reader the decoder of a table's rows events at the current binlog point. */
@FunctionalInterface
public interface TableDecoders {

    /**
     * The decoder of the rows events that follow {@code tableMap}.
     *
     * @return null if the table is not captured
     */
    RowsEventDecoder decoder(String database, String table, TableMapEventData tableMap);
}
